"""Whether a document is valid under a schema, in one call: the schema compiled once into closures.

:class:`harness.store.schema_check.Validator` walks the schema for every document, looking each keyword
up and building a generator per keyword, so that it can say *what* is wrong. A ledger's events are
nearly always valid, and an audit reads a 10,000-event ledger whole: asking "valid?" first, of a
predicate built once per schema, and walking the schema for the problems only when the answer is no,
is several times cheaper (#28 item 4). The predicate answers exactly ``not any(problems)``:
tests/test_schema_check.py holds the two equal (and equal to jsonschema) on every schema, with valid
documents and with documents broken in every way the keywords can see.
"""

from __future__ import annotations

from collections.abc import Callable

from harness.store import schema_check as sc

TYPE_CHECKING = False  # typing's, without importing typing on a hot path (tests/test_layering.py)
if TYPE_CHECKING:
    from typing import Any

Predicate = Callable[[object], bool]

_EXACT_TYPES: dict[str, Predicate] = {
    "object": lambda x: isinstance(x, dict), "array": lambda x: isinstance(x, list),
    "string": lambda x: isinstance(x, str), "null": lambda x: x is None, "boolean": lambda x: isinstance(x, bool),
}


class Compiled:
    """The predicates of one :class:`~harness.store.schema_check.Validator`'s schema, by subschema."""

    def __init__(self, v: sc.Validator) -> None:
        self.v = v
        self._done: dict[int, Predicate] = {}
        self._root = self.of(v.root)

    def valid(self, doc: object) -> bool:
        """``not any(problems(doc))``. A predicate spends more stack per level of a document than the walk, so
        a document nested past what it can follow (only a recursive schema has no bound) is the walk's to judge:
        it answers, or raises RecursionError, as it would alone (read 50's F-0090)."""
        try:
            return self._root(doc)
        except RecursionError:
            return not any(self.v.problems(doc))

    def of(self, schema: Any) -> Predicate:
        """The predicate of ``schema`` (a part of the root schema), built once. A reference back into a schema
        being built (a recursive ``$ref``) gets a forwarder to the predicate that is being built."""
        key = id(schema)
        found = self._done.get(key)
        if found is not None:
            return found
        cell: list[Predicate] = []
        self._done[key] = lambda x: cell[0](x)
        try:
            built = self._build(schema)
        except BaseException:
            del self._done[key]  # a build that failed (out of stack) leaves no empty forwarder behind (F-0091)
            raise
        cell.append(built)
        self._done[key] = built
        return built

    def _build(self, schema: Any) -> Predicate:
        if schema is True:
            return lambda x: True
        if schema is False:
            return lambda x: False
        parts = [make(self, value, schema) for keyword, value in schema.items()
                 if (make := _MAKERS.get(keyword)) is not None]
        if len(parts) == 1:
            return parts[0]
        checks = tuple(parts)

        def every(x: object) -> bool:  # a loop, not all(<generator>): this runs for every field of every event
            for check in checks:  # noqa: SIM110 (all() of a generator costs a frame per call)
                if not check(x):
                    return False
            return True
        return every


def _type(c: Compiled, types: Any, schema: dict) -> Predicate:
    names = [types] if isinstance(types, str) else list(types)
    if len(names) == 1 and names[0] in _EXACT_TYPES:
        return _EXACT_TYPES[names[0]]
    return lambda x: any(sc.is_type(x, name) for name in names)


def _properties(c: Compiled, properties: Any, schema: dict) -> Predicate:
    subs = tuple((name, c.of(sub)) for name, sub in properties.items())

    def check(x: object) -> bool:
        if isinstance(x, dict):
            for name, ok in subs:
                if name in x and not ok(x[name]):
                    return False
        return True
    return check


def _additional(c: Compiled, allowed: Any, schema: dict) -> Predicate:
    known = frozenset(schema.get("properties", {}))
    if isinstance(allowed, dict):
        ok = c.of(allowed)
        return lambda x: not isinstance(x, dict) or all(ok(x[name]) for name in x if name not in known)
    if not allowed:
        return lambda x: not isinstance(x, dict) or known.issuperset(x)
    return lambda x: True


def _required(c: Compiled, required: Any, schema: dict) -> Predicate:
    names = frozenset(required)
    return lambda x: not isinstance(x, dict) or names.issubset(x)


def _items(c: Compiled, items: Any, schema: dict) -> Predicate:
    ok = c.of(items)
    return lambda x: not isinstance(x, list) or all(ok(item) for item in x)


def _property_names(c: Compiled, names: Any, schema: dict) -> Predicate:
    ok = c.of(names)
    return lambda x: not isinstance(x, dict) or all(ok(name) for name in x)


def _enum(c: Compiled, values: Any, schema: dict) -> Predicate:
    if values and all(isinstance(value, str) for value in values):
        strings = frozenset(values)  # a string equals a string only (schema_check.equal)
        return lambda x: isinstance(x, str) and x in strings
    return lambda x: any(sc.equal(value, x) for value in values)


def _const(c: Compiled, value: Any, schema: dict) -> Predicate:
    if isinstance(value, str):
        return lambda x: isinstance(x, str) and x == value
    return lambda x: sc.equal(x, value)


def _pattern(c: Compiled, pattern: Any, schema: dict) -> Predicate:
    found: list[Callable[[str], object]] = []  # the compiled search, made on the first string it meets

    def check(x: object) -> bool:
        if not isinstance(x, str):
            return True
        if not found:
            import re

            found.append(re.compile(pattern).search)
        return found[0](x) is not None
    return check


def _min_length(c: Compiled, least: Any, schema: dict) -> Predicate:
    return lambda x: not isinstance(x, str) or not len(x) < least


def _min_items(c: Compiled, least: Any, schema: dict) -> Predicate:
    return lambda x: not isinstance(x, list) or not len(x) < least


def _unique_items(c: Compiled, wanted: Any, schema: dict) -> Predicate:
    return lambda x: not wanted or not isinstance(x, list) or sc.unique(x)


def _minimum(c: Compiled, least: Any, schema: dict) -> Predicate:
    return lambda x: not sc.is_type(x, "number") or not x < least


def _exclusive_minimum(c: Compiled, least: Any, schema: dict) -> Predicate:
    return lambda x: not sc.is_type(x, "number") or not x <= least


def _maximum(c: Compiled, most: Any, schema: dict) -> Predicate:
    return lambda x: not sc.is_type(x, "number") or not x > most


def _if(c: Compiled, condition: Any, schema: dict) -> Predicate:
    if "then" not in schema:
        return lambda x: True
    shape, holds, then = c.v.string_const(condition), c.of(condition), c.of(schema["then"])

    def check(x: object) -> bool:
        quick = sc.string_const_holds(shape, x)
        return not (quick if quick is not None else holds(x)) or then(x)
    return check


def _all_of(c: Compiled, subs: Any, schema: dict) -> Predicate:
    branches = c.v.branches(subs)
    if branches is None:
        every = tuple(c.of(sub) for sub in subs)
        return lambda x: all(ok(x) for ok in every)
    key, thens = branches
    # Built on first use, per branch: a command appending one event meets one of the event schema's seventeen types.
    built: dict[str, tuple[Predicate, ...]] = {}

    def check(x: object) -> bool:
        if isinstance(x, dict) and isinstance(x.get(key), str):
            const = x[key]
            oks = built.get(const)
            if oks is None:
                oks = built[const] = tuple(c.of(then) for then in thens.get(const, ()))
            return all(ok(x) for ok in oks)  # only the branches whose const x has hold
        return all(c.of(sub)(x) for sub in subs)
    return check


def _one_of(c: Compiled, subs: Any, schema: dict) -> Predicate:
    every = tuple(c.of(sub) for sub in subs)
    return lambda x: sum(1 for ok in every if ok(x)) == 1


def _not(c: Compiled, sub: Any, schema: dict) -> Predicate:
    ok = c.of(sub)
    return lambda x: not ok(x)


def _ref(c: Compiled, ref: Any, schema: dict) -> Predicate:
    return c.of(sc.resolve(c.v.root, ref))


_MAKERS: dict[str, Callable[[Compiled, Any, dict], Predicate]] = {
    "type": _type, "properties": _properties, "additionalProperties": _additional, "required": _required,
    "items": _items, "propertyNames": _property_names, "enum": _enum, "const": _const, "pattern": _pattern,
    "minLength": _min_length, "minItems": _min_items, "uniqueItems": _unique_items, "minimum": _minimum,
    "exclusiveMinimum": _exclusive_minimum, "maximum": _maximum, "if": _if, "allOf": _all_of, "oneOf": _one_of,
    "not": _not, "$ref": _ref,
}
