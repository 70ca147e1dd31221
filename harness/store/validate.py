"""JSON-Schema validation with errors that name file, field path and bad value.

A document is checked (by :mod:`harness.store.schema_check`) only when it has not been seen
valid before: by this process, or listed in the cache its reader names. The digests of documents
that passed are appended to that cache (``.harness/local/valid``: the working tree's source and the
hooks' repository name it) so that a read-only command such as ``harness status`` stays fast on an
unchanged store. A reader that names no cache (the audit's: a checkout's cache would vouch for its
own ledgers, F-0147) trusts only what this process checked.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from pathlib import Path

from harness import context, resources
from harness.errors import HarnessError

TYPE_CHECKING = False  # typing's, without importing typing on a hot path (tests/test_layering.py)
if TYPE_CHECKING:
    from harness.core.redact import Redactor
    from harness.store.schema_check import Problem, Validator

VERSION = b"2\0"
CACHE_KEEP = 2048  # every rendered version of a file adds a line: keep the newest ones


def listed_in(cache: Path) -> set[str]:
    """The digests ``cache`` lists, read once per process (and trimmed now and then: a dropped key
    only costs a re-check). An unusable cache lists nothing."""
    memo = context.process().valid_listed
    key = str(cache)
    if key in memo:
        return memo[key]
    from harness.store import bounded

    memo[key] = set()
    try:
        raw = bounded.read(cache, "state")
        keys = raw.decode("ascii").split() if raw is not None else []
    except (HarnessError, UnicodeDecodeError):
        return memo[key]
    if len(keys) > 2 * CACHE_KEEP:
        keys = keys[-CACHE_KEEP:]
        try:
            cache.write_text("\n".join(keys) + "\n", "ascii")
        except OSError:
            pass
    memo[key].update(keys)
    return memo[key]


def _known(key: str, cache: Path | None) -> bool:
    return key in _seen() or (cache is not None and key in listed_in(cache))


def _seen() -> set[str]:
    """Digests of schema-valid documents this process checked."""
    return context.process().valid_digests


def _key(schema_name: str, raw: bytes) -> str:
    from harness.core.sha256 import sha256  # not hashlib: its OpenSSL backend costs a hook ~10 ms to import

    # VERSION: what "valid" means grew (no NaN or infinity): digests kept before are not this check's.
    return sha256(VERSION + schema_name.encode() + b"\0" + raw).hexdigest()[:32]


def check(doc: object, schema_name: str, file: str, raw: bytes | None = None, cache: Path | None = None) -> None:
    """``doc`` (parsed from ``raw``) against ``schema_name``; skipped for bytes this process checked, or
    that ``cache`` lists, and appended to ``cache`` once they pass."""
    key = _key(schema_name, raw) if raw is not None else None
    if key is not None and _known(key, cache):
        return
    errors = _errors(doc, schema_name)
    if errors:
        # Up to five problems, each named: fixing a file one "(and 3 more)" at a time is a round trip each.
        raise HarnessError(f"{file}: " + "; ".join(errors[:5]) + (f" (and {len(errors) - 5} more)" if len(errors) > 5 else ""))
    where = non_finite_problem(doc)
    if where:
        raise HarnessError(f"{file}: {where}", hint="give a finite number (YAML's .nan and .inf are numbers to "
                                                    "YAML, but no count, size or timeout)")
    if key is not None:
        _seen().add(key)
        _remember(key, cache)


def _remember(key: str, cache_file: Path | None) -> None:
    if cache_file is None or not cache_file.parent.is_dir():
        return
    import os
    import stat

    try:  # a lost line only costs a re-check; never block on (or write into) a non-file
        fd = os.open(cache_file, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK, 0o644)
    except OSError:
        return
    try:
        if stat.S_ISREG(os.fstat(fd).st_mode):
            os.write(fd, (key + "\n").encode("ascii"))
    except OSError:
        pass
    finally:
        os.close(fd)


# Event types whose data embeds a document with a schema of its own: (key or None, schema).
EVENT_DOCS = {"contract.applied": (None, "contract"), "finding.proposed": ("content", "finding-proposal")}


def check_events(events: Sequence[object], file: str, raw: bytes | None = None, first: int = 1,
                 finite: bool = False, cache: Path | None = None) -> None:
    """Every event of a ledger against event.schema.json (envelope and per-type data: no
    unknown keys, exact types), naming the line and field of the first one that fails.
    ``first``: the line number of ``events[0]`` (an appended suffix checked on its own).
    ``finite``: the events were decoded by :func:`harness.core.limits.decode_json` (as
    ``ledger.parse_lines`` decodes every line), which refuses NaN and infinities already: the walk
    that looks for them is skipped (a fifth of validating a long ledger). ``cache``: as :func:`check`."""
    key = _key("event", raw) if raw is not None else None
    if key is not None and _known(key, cache):
        return
    for number, event in enumerate(events, start=first):
        problem = event_problem(event, finite)
        if problem:
            raise HarnessError(f"{file}:{number}: {problem}",
                               hint="the ledger is written by the CLI only; restore it from git (`git checkout -- FILE`)")
    if raw is not None:
        remember_valid("event", raw, cache)


def remember_valid(schema_name: str, raw: bytes, cache: Path | None = None) -> None:
    """Record ``raw`` as known valid for ``schema_name`` (its writer checked every part of it), and in ``cache``."""
    key = _key(schema_name, raw)
    if key not in _seen():
        _seen().add(key)
        _remember(key, cache)


def non_finite_problem(doc: object) -> str | None:
    """What names the first NaN or infinity in ``doc`` ("field PATH: nan is not…"), or None:
    JSON Schema's "number" (and "exclusiveMinimum: 0") lets both through."""
    from harness.core.limits import non_finite

    found = non_finite(doc)
    if found is None:
        return None
    path, value = found
    return f"field {path[:200]}: {value!r} is not a finite number (NaN and infinities are refused)"


def event_problem(event: object, finite: bool = False) -> str | None:
    """What is wrong with one ledger event by the schemas, or None (``finite``: see :func:`check_events`)."""
    errors = _errors(event, "event")
    if errors:
        return errors[0]
    not_finite = None if finite else non_finite_problem(event)
    if not_finite:
        return not_finite
    assert isinstance(event, dict)
    sub = EVENT_DOCS.get(event["type"])
    if sub is not None:
        field, schema_name = sub
        doc = event["data"] if field is None else event["data"][field]
        errors = _errors(doc, schema_name)
        if errors:
            where = "data" if field is None else f"data.{field}"
            return f"{where}: {errors[0]}"
    return None


def _errors(doc: object, schema_name: str) -> list[str]:
    if predicate(schema_name)(doc):
        return []  # the common case, answered without walking the schema for what is wrong
    found = sorted(validator(schema_name).problems(doc), key=lambda p: (list(map(str, p.path)), p.message))
    return [describe(p) for p in found]


@functools.cache
def validator(schema_name: str) -> Validator:
    from harness.store.schema_check import Validator

    return Validator(resources.schema(schema_name))


@functools.cache
def predicate(schema_name: str) -> Callable[[object], bool]:
    """Whether a document is valid under the schema: what :func:`validator` finds no problem in."""
    from harness.store.schema_valid import Compiled

    return Compiled(validator(schema_name)).valid


def _short(value: object) -> str:
    """A bounded repr: a message must stay one readable line however big the bad value is."""
    import reprlib  # lazy: only an invalid document gets here

    r = reprlib.Repr()
    r.maxlevel, r.maxstring, r.maxother, r.maxlist, r.maxdict = 3, 80, 80, 6, 6
    return r.repr(value)


def describe(problem: Problem) -> str:
    """The problem in one line, redacted: it quotes the value and names the field, either of which may be a token
    written where the schema wants something else, and it is printed by a commit refusal, `status` and CI's audit
    (F-0118). Each piece is redacted before it is shortened: cut to its ends first, a token loses the prefix its
    rule knows it by (read 57's F-0127); the line is redacted again whole."""
    from harness.store.secrets_check import redactor

    red = redactor()
    return red.redact(_described(problem, red))


def _shown(value: object, red: Redactor) -> object:
    """``value`` with every string in it redacted, the keys of its mappings too. YAML gives more than JSON's types
    (`!!binary` bytes, `!!set`, `!!pairs` tuples, dates): what is none of JSON's is shown by its redacted repr, never
    shortened first (read 58's F-0131)."""
    if isinstance(value, str):
        return red.redact(value)
    if isinstance(value, list):
        return [_shown(v, red) for v in value]
    if isinstance(value, dict):
        return {_shown(k, red): _shown(v, red) for k, v in value.items()}
    if value is None or isinstance(value, (bool, int, float)):
        return value
    # Each element redacted as itself, not the repr: its escapes (`\t`, `\xNN`) break a secret's context (F-0135).
    if isinstance(value, tuple):
        return tuple(_shown(v, red) for v in value)
    if isinstance(value, (set, frozenset)):
        return _Shown("{" + ", ".join(sorted(repr(_shown(v, red)) for v in value)) + "}")
    if isinstance(value, (bytes, bytearray)):
        return _Shown("b" + repr(red.redact(bytes(value).decode("utf-8", "replace"))))
    return _Shown(red.redact(repr(value)))


def _named(name: object, red: Redactor) -> str:
    """A key as a message names it, redacted as itself: a `!!binary` key's repr would write its tab as `\t` (read
    60's F-0141)."""
    return str(_shown(name, red))


class _Shown(str):
    """A value's redacted repr, which :func:`_short` shows as it is (a str's repr would quote it)."""

    def __repr__(self) -> str:
        return str(self)


def _described(problem: Problem, red: Redactor) -> str:
    path = "".join(f"[{p}]" if isinstance(p, int) else f".{_named(p, red)}" for p in problem.path).lstrip(".")
    where = f"field {path[:200]}" if path else "top level"
    shown = _shown(problem.instance, red)
    if problem.keyword == "additionalProperties":
        extra = sorted(_named(n, red) for n in set(problem.instance) - set(problem.schema.get("properties", {})))
        names = ", ".join(n if len(n) <= 80 else _short(n) for n in extra[:10])
        more = f" (+{len(extra) - 10} more)" if len(extra) > 10 else ""
        return f"{where}: unknown field(s) {names}{more} (refused, not ignored)"
    if problem.keyword == "required":
        return f"{where}: {red.redact(problem.message)[:200]}"
    if problem.keyword == "enum":
        return f"{where}: {_short(shown)} is not one of {problem.expected}"
    # The messages start with the full repr of the value: replace it by a short one.
    full, message = repr(problem.instance), problem.message
    if message.startswith(full):
        return f"{where}: {_short(shown)}{red.redact(message[len(full):])[:200]}"
    return f"{where}: {_short(shown)}: {red.redact(message)[:200]}"
