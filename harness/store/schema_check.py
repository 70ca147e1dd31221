"""The part of JSON Schema (draft 2020-12) the harness's own schemas use, checked in plain Python.

The jsonschema package costs a process ~110 ms to import (referencing, rpds, attrs and every
draft's metaschema), and every command that writes a document paid it: a third of a
`harness transition`. The harness's ten schemas use 21 assertion keywords and only local
``$ref``s, so this module checks those and nothing else: a schema that uses any other keyword,
or a remote reference, is refused when it is loaded (:class:`Unsupported`) rather than checked in
part. The problems found and their messages are jsonschema's own (``Draft202012Validator
.iter_errors``, top-level errors): tests/test_schema_check.py compares the two on every schema,
with valid documents and with documents broken in every way the keywords can see.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from harness.core.value_class import dataclass

TYPE_CHECKING = False  # typing's, without importing typing on a hot path (tests/test_layering.py)
if TYPE_CHECKING:
    from typing import Any

Path = tuple[str | int, ...]

# Keywords that assert nothing: skipped. "then" is read by "if"; "$defs" is reached through "$ref".
ANNOTATIONS = frozenset({"$schema", "$id", "$comment", "$defs", "title", "description", "default", "examples",
                         "then"})


class Unsupported(Exception):
    """A schema uses a keyword or a reference this module does not check."""


@dataclass(frozen=True)
class Problem:
    """One way a document fails its schema (the fields of a jsonschema ValidationError it matches)."""

    path: Path  # where in the document, from its root
    keyword: str  # the failing keyword
    expected: Any  # that keyword's value in the schema
    instance: Any  # the value that fails it
    schema: dict[str, Any]  # the (sub)schema holding the keyword
    message: str


class Validator:
    def __init__(self, schema: dict[str, Any]) -> None:
        self.root = schema
        _refuse_unsupported(schema, schema)
        self._patterns: dict[str, re.Pattern[str]] = {}
        self._shapes: dict[int, tuple[str, str] | None] = {}  # by id: the conditions are parts of self.root
        self._branches: dict[int, tuple[str, dict[str, list[Any]]] | None] = {}

    def branches(self, subs: Any) -> tuple[str, dict[str, list[Any]]] | None:
        """(K, S -> the `then`s of its branches, in order) when every schema of the allOf ``subs`` is exactly
        `{"if": <K is the string S>, "then": …}` on one K; else None."""
        key = id(subs)
        if key not in self._branches:
            self._branches[key] = _branches(self, subs)
        return self._branches[key]

    def string_const(self, condition: Any) -> tuple[str, str] | None:
        """(K, S) when ``condition`` is `{"properties": {K: {"const": "S"}}, "required": [K]}`, else None."""
        key = id(condition)
        if key not in self._shapes:
            self._shapes[key] = _string_const_shape(condition)
        return self._shapes[key]

    def problems(self, doc: object) -> Iterator[Problem]:
        return self.check(doc, self.root, ())

    def is_valid(self, doc: object, schema: Any) -> bool:
        return next(self.check(doc, schema, ()), None) is None

    def check(self, instance: Any, schema: Any, path: Path) -> Iterator[Problem]:
        if schema is True:
            return
        if schema is False:
            yield Problem(path, "false", None, instance, {}, f"False schema does not allow {instance!r}")
            return
        for keyword, value in schema.items():
            check = KEYWORDS.get(keyword)
            if check is None:
                continue
            for found in check(self, value, instance, schema, path):
                # A message from a keyword of this schema gets its details; one from a subschema has its own.
                yield Problem(path, keyword, value, instance, schema, found) if isinstance(found, str) else found

    def search(self, pattern: str, text: str) -> bool:
        compiled = self._patterns.get(pattern)
        if compiled is None:
            compiled = self._patterns[pattern] = re.compile(pattern)
        return compiled.search(text) is not None



Found = Iterator["str | Problem"]
TYPES = frozenset({"object", "array", "string", "null", "boolean", "integer", "number"})


def is_type(instance: object, name: str) -> bool:
    if name == "object":
        return isinstance(instance, dict)
    if name == "array":
        return isinstance(instance, list)
    if name == "string":
        return isinstance(instance, str)
    if name == "null":
        return instance is None
    if name == "boolean":
        return isinstance(instance, bool)
    if isinstance(instance, bool):  # bool is an int to Python, never a number to JSON
        return False
    if name == "integer":
        return isinstance(instance, int) or (isinstance(instance, float) and instance.is_integer())
    return isinstance(instance, (int, float))  # "number": the loader refused any other name


def equal(one: object, two: object) -> bool:
    """JSON equality: 1 == 1.0, but True is not 1 (jsonschema's ``equal``)."""
    if one is two:
        return True
    if isinstance(one, str) or isinstance(two, str):
        return one == two
    if isinstance(one, list) and isinstance(two, list):
        return len(one) == len(two) and all(equal(a, b) for a, b in zip(one, two))
    if isinstance(one, dict) and isinstance(two, dict):
        return one.keys() == two.keys() and all(equal(one[k], two[k]) for k in one)
    if isinstance(one, bool) or isinstance(two, bool):
        return False  # the same bool was caught by `is` above
    return one == two


def unique(items: list[Any]) -> bool:
    seen: list[Any] = []
    for item in items:
        if any(equal(item, other) for other in seen):
            return False
        seen.append(item)
    return True


def _type(v: Validator, types: Any, instance: Any, schema: dict[str, Any], path: Path) -> Found:
    names = [types] if isinstance(types, str) else types
    if not any(is_type(instance, name) for name in names):
        yield f"{instance!r} is not of type {', '.join(repr(name) for name in names)}"


def _properties(v: Validator, properties: Any, instance: Any, schema: dict[str, Any], path: Path) -> Found:
    if isinstance(instance, dict):
        for name, sub in properties.items():
            if name in instance:
                yield from v.check(instance[name], sub, (*path, name))


def _additional(v: Validator, allowed: Any, instance: Any, schema: dict[str, Any], path: Path) -> Found:
    if not isinstance(instance, dict):
        return
    known = schema.get("properties", {})
    extras = [name for name in instance if name not in known]
    if isinstance(allowed, dict):
        for name in extras:
            yield from v.check(instance[name], allowed, (*path, name))
    elif not allowed and extras:
        names = sorted(set(extras), key=str)
        yield (f"Additional properties are not allowed ({', '.join(repr(n) for n in names)} "
               f"{'was' if len(names) == 1 else 'were'} unexpected)")


def _required(v: Validator, required: Any, instance: Any, schema: dict[str, Any], path: Path) -> Found:
    if isinstance(instance, dict):
        for name in required:
            if name not in instance:
                yield f"{name!r} is a required property"


def _items(v: Validator, items: Any, instance: Any, schema: dict[str, Any], path: Path) -> Found:
    if isinstance(instance, list):
        for index, item in enumerate(instance):
            yield from v.check(item, items, (*path, index))


def _property_names(v: Validator, names: Any, instance: Any, schema: dict[str, Any], path: Path) -> Found:
    if isinstance(instance, dict):
        for name in instance:
            yield from v.check(name, names, path)


def _enum(v: Validator, values: Any, instance: Any, schema: dict[str, Any], path: Path) -> Found:
    if not any(equal(value, instance) for value in values):
        yield f"{instance!r} is not one of {values!r}"


def _const(v: Validator, value: Any, instance: Any, schema: dict[str, Any], path: Path) -> Found:
    if not equal(instance, value):
        yield f"{value!r} was expected"


def _pattern(v: Validator, pattern: Any, instance: Any, schema: dict[str, Any], path: Path) -> Found:
    if isinstance(instance, str) and not v.search(pattern, instance):
        yield f"{instance!r} does not match {pattern!r}"


def _too_few(least: int) -> str:
    return "should be non-empty" if least == 1 else "is too short"


def _min_length(v: Validator, least: Any, instance: Any, schema: dict[str, Any], path: Path) -> Found:
    if isinstance(instance, str) and len(instance) < least:
        yield f"{instance!r} {_too_few(least)}"


def _min_items(v: Validator, least: Any, instance: Any, schema: dict[str, Any], path: Path) -> Found:
    if isinstance(instance, list) and len(instance) < least:
        yield f"{instance!r} {_too_few(least)}"


def _unique_items(v: Validator, wanted: Any, instance: Any, schema: dict[str, Any], path: Path) -> Found:
    if wanted and isinstance(instance, list) and not unique(instance):
        yield f"{instance!r} has non-unique elements"


def _minimum(v: Validator, least: Any, instance: Any, schema: dict[str, Any], path: Path) -> Found:
    if is_type(instance, "number") and instance < least:
        yield f"{instance!r} is less than the minimum of {least!r}"


def _exclusive_minimum(v: Validator, least: Any, instance: Any, schema: dict[str, Any], path: Path) -> Found:
    if is_type(instance, "number") and instance <= least:
        yield f"{instance!r} is less than or equal to the minimum of {least!r}"


def _maximum(v: Validator, most: Any, instance: Any, schema: dict[str, Any], path: Path) -> Found:
    if is_type(instance, "number") and instance > most:
        yield f"{instance!r} is greater than the maximum of {most!r}"


def _if(v: Validator, condition: Any, instance: Any, schema: dict[str, Any], path: Path) -> Found:
    if "then" not in schema:
        return
    holds = string_const_holds(v.string_const(condition), instance)
    if holds if holds is not None else v.is_valid(instance, condition):
        yield from v.check(instance, schema["then"], path)


def string_const_holds(shape: tuple[str, str] | None, instance: Any) -> bool | None:
    """Whether ``instance`` is valid under a condition of shape (K, S) (see Validator.string_const), by one
    lookup; None when it cannot be told so (no such shape, no object, a value that is no string). An event's
    schema branches on its type this way, seventeen times an event: validated in full, a 10,000-event ledger
    spent most of an audit there (#28 item 4)."""
    if shape is None or not isinstance(instance, dict):
        return None
    key, const = shape
    if key not in instance:
        return False  # `required` fails
    value = instance[key]
    return value == const if isinstance(value, str) else None


def _branches(v: Validator, subs: Any) -> tuple[str, dict[str, list[Any]]] | None:
    if not isinstance(subs, list) or not subs:
        return None
    shapes = [v.string_const(s.get("if")) if isinstance(s, dict) and set(s) == {"if", "then"} else None for s in subs]
    if any(shape is None for shape in shapes) or len({shape[0] for shape in shapes if shape}) != 1:
        return None
    by_const: dict[str, list[Any]] = {}
    for shape, sub in zip(shapes, subs):
        assert shape is not None
        by_const.setdefault(shape[1], []).append(sub["then"])
    return shapes[0][0] if shapes[0] else "", by_const


def _string_const_shape(condition: Any) -> tuple[str, str] | None:
    if not isinstance(condition, dict) or len(condition) != 2:
        return None
    props, required = condition.get("properties"), condition.get("required")
    if not isinstance(props, dict) or len(props) != 1 or required != list(props):
        return None
    ((key, sub),) = props.items()
    if not isinstance(sub, dict) or len(sub) != 1 or not isinstance(sub.get("const"), str):
        return None
    return key, sub["const"]


def _all_of(v: Validator, subs: Any, instance: Any, schema: dict[str, Any], path: Path) -> Found:
    branches = v.branches(subs)
    if branches is not None and isinstance(instance, dict) and isinstance(instance.get(branches[0]), str):
        # Every sub is `if K == "S" then …` on one K: only the branches whose S is the instance's hold.
        for then in branches[1].get(instance[branches[0]], ()):
            yield from v.check(instance, then, path)
        return
    for sub in subs:
        yield from v.check(instance, sub, path)


def _one_of(v: Validator, subs: Any, instance: Any, schema: dict[str, Any], path: Path) -> Found:
    valid = [sub for sub in subs if v.is_valid(instance, sub)]
    if not valid:
        yield f"{instance!r} is not valid under any of the given schemas"
    elif len(valid) > 1:  # jsonschema names the later matches first, then the first one
        yield f"{instance!r} is valid under each of {', '.join(repr(sub) for sub in [*valid[1:], valid[0]])}"


def _not(v: Validator, sub: Any, instance: Any, schema: dict[str, Any], path: Path) -> Found:
    if v.is_valid(instance, sub):
        yield f"{instance!r} should not be valid under {sub!r}"


def _ref(v: Validator, ref: Any, instance: Any, schema: dict[str, Any], path: Path) -> Found:
    yield from v.check(instance, resolve(v.root, ref), path)


def resolve(root: dict[str, Any], ref: str) -> Any:
    """The subschema a local reference (a JSON pointer after ``#``) names."""
    node: Any = root
    for part in ref[2:].split("/"):
        node = node[part.replace("~1", "/").replace("~0", "~")]
    return node


KEYWORDS: dict[str, Callable[[Validator, Any, Any, dict[str, Any], Path], Found]] = {
    "type": _type, "properties": _properties, "additionalProperties": _additional, "required": _required,
    "items": _items, "propertyNames": _property_names, "enum": _enum, "const": _const, "pattern": _pattern,
    "minLength": _min_length, "minItems": _min_items, "uniqueItems": _unique_items, "minimum": _minimum,
    "exclusiveMinimum": _exclusive_minimum, "maximum": _maximum, "if": _if, "allOf": _all_of, "oneOf": _one_of,
    "not": _not, "$ref": _ref,
}

# Keywords whose value is a schema, a list of schemas, or a map of names to schemas.
_SUBSCHEMA, _SUBSCHEMAS, _SCHEMA_MAPS = ({"additionalProperties", "items", "propertyNames", "if", "then", "not"},
                                         {"allOf", "oneOf"}, {"properties", "$defs"})


def _refuse_unsupported(schema: Any, root: dict[str, Any]) -> None:
    if isinstance(schema, bool):
        return
    if not isinstance(schema, dict):
        raise Unsupported(f"a schema must be an object or a boolean, not {schema!r}")
    for keyword, value in schema.items():
        if keyword not in KEYWORDS and keyword not in ANNOTATIONS:
            raise Unsupported(f"keyword {keyword!r} is not checked by harness.store.schema_check")
        if keyword == "$ref":
            if not isinstance(value, str) or not value.startswith("#/"):
                raise Unsupported(f"only local references (#/...) are resolved, not {value!r}")
            try:  # a dangling reference fails now, not on the first document that reaches it
                resolve(root, value)
            except (KeyError, TypeError) as exc:
                raise Unsupported(f"reference {value!r} names nothing in the schema") from exc
        elif keyword == "pattern":
            re.compile(value)
        elif keyword == "type":
            for name in [value] if isinstance(value, str) else value:
                if name not in TYPES:
                    raise Unsupported(f"unknown type {name!r}")
        elif keyword in _SUBSCHEMA:
            _refuse_unsupported(value, root)
        elif keyword in _SUBSCHEMAS:
            for sub in value:
                _refuse_unsupported(sub, root)
        elif keyword in _SCHEMA_MAPS:
            for sub in value.values():
                _refuse_unsupported(sub, root)
