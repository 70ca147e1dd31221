"""The YAML the harness writes, written without PyYAML: block mappings and lists of plain keys and
one-line scalars, byte for byte as ``yamlio.dump`` (PyYAML's safe dumper, ``sort_keys=False``,
``allow_unicode=True``, ``width=100``) writes them.

Importing PyYAML is ~18 ms of every command that appends to a ledger (each append renders the
task's files). This writer takes only documents whose every scalar it can place exactly as the
dumper would: a string made of a few plain characters on a line of at most 100 columns (the
dumper folds nothing shorter), quoted with single quotes exactly when YAML 1.1 would read it as
something else (a number, a date, a boolean, null). Anything else (a float, a nested list, a
non-ASCII or long text, a key YAML would not read as a string) gives :data:`NOT_PLAIN`, and the
caller asks PyYAML. tests/test_plain_yaml_writes_as_pyyaml.py compares the two by example and by
fuzzing.
"""

from __future__ import annotations

import re

from harness.store.plain_yaml import NOT_PLAIN

WIDTH = 100  # yamlio.dump's width: a line no longer than it is never folded
_LONG_KEY = 128  # from here on PyYAML writes a key as `? key` (libyaml from 129): the dumper's to place

# YAML 1.1's implicit types (PyYAML's resolver reads plain scalars with these): a string matching
# one is written quoted, or it would be read back as a number, a date or a boolean.
_WORDS = frozenset(["yes", "Yes", "YES", "no", "No", "NO", "true", "True", "TRUE", "false", "False", "FALSE", "on", "On", "ON", "off", "Off", "OFF", "null", "Null", "NULL", "~"])
_NUMBER_OR_DATE = re.compile(
    r"[-+]?(?:0b[0-1_]+|0[0-7_]+|(?:0|[1-9][0-9_]*)|0x[0-9a-fA-F_]+|[1-9][0-9_]*(?::[0-5]?[0-9])+)"  # int
    r"|[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?"          # float
    r"|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)"
    r"|[0-9]{4}-[0-9]{2}-[0-9]{2}"                                                                   # date
    r"|[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[Tt]|[ \t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]*)?"       # timestamp
    r"(?:[ \t]*(?:Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?")
# A scalar written plain by the dumper: it starts with a letter, digit, ``_`` or ``/`` (not ``.``:
# ``...`` ends a document), holds only these characters, and no ``: `` (a key) nor a trailing ``:``.
# Quoted with '' if a type above reads it.
_PLAIN = re.compile(r"[A-Za-z0-9_/][A-Za-z0-9_./:+=@, ()-]*")
_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")


def dump(doc: object) -> str | object:
    """``doc`` as ``yamlio.dump`` writes it (text), or :data:`NOT_PLAIN`."""
    out: list[str] = []
    if isinstance(doc, dict) and doc:
        ok = _mapping(doc, 0, "", out)
    elif isinstance(doc, list) and doc:
        ok = _sequence(doc, 0, out)
    else:
        return NOT_PLAIN  # an empty or scalar document: rare, and the dumper's to write
    return "".join(out) if ok else NOT_PLAIN


def _mapping(doc: dict, indent: int, first: str, out: list[str]) -> bool:
    """``doc``'s entries at ``indent``; the first one after ``first`` (a sequence's ``- ``)."""
    pad = " " * indent
    for n, (key, value) in enumerate(doc.items()):
        if type(key) is not str or not _KEY.fullmatch(key) or key in _WORDS or len(key) >= _LONG_KEY:
            return False
        head = (first if n == 0 else pad) + key + ":"
        if isinstance(value, dict) and value:
            out.append(head + "\n")
            if not _mapping(value, indent + 2, " " * (indent + 2), out):
                return False
        elif isinstance(value, list) and value:
            out.append(head + "\n")  # a list under a key is not indented (the dumper's default)
            if not _sequence(value, indent, out):
                return False
        else:
            text = _scalar(value)
            if text is None or len(head) + 1 + len(text) > WIDTH:
                return False
            out.append(f"{head} {text}\n")
    return True


def _sequence(items: list, indent: int, out: list[str]) -> bool:
    pad = " " * indent
    for item in items:
        if isinstance(item, dict) and item:
            if not _mapping(item, indent + 2, pad + "- ", out):
                return False
        elif isinstance(item, list) and item:
            return False  # a list in a list: the dumper's to place
        else:
            text = _scalar(item)
            if text is None or indent + 2 + len(text) > WIDTH:
                return False
            out.append(f"{pad}- {text}\n")
    return True


def _scalar(value: object) -> str | None:
    """A value as the dumper writes it on one line, or None when this writer cannot be sure."""
    if value is None:
        return "null"
    if value is True or value is False:
        return "true" if value else "false"
    if type(value) is int:
        return str(value)
    if type(value) is dict:
        return "{}"  # only empty ones reach here
    if type(value) is list:
        return "[]"
    if type(value) is not str:
        return None  # a float, bytes, a date: the dumper's to write
    if value == "":
        return "''"
    if not _PLAIN.fullmatch(value) or value.endswith((":", " ")) or ": " in value or "  " in value:
        return None
    return f"'{value}'" if value in _WORDS or _NUMBER_OR_DATE.fullmatch(value) else value
