"""The configured notes ref read from a plainly written config.yaml without a YAML parser.

The tool guard judges every shell command it does not answer early against the notes ref
`.harness/config.yaml` names (`notes.ref`), and loading PyYAML to read it cost more than
the rest of such an answer. A config.yaml as `harness init` writes it, and as people edit it
(comments, `key: value` lines, one level of nested keys), is read here line by line; anything
else (a quote, a flow collection with content, an anchor, a tab, a key YAML reads as a boolean
or null, a repeated key, deeper nesting, a ref that YAML could read as something other than a
string) gives None, and the caller reads the file with YAML (harness.store.settings.notes_ref_of).
So the answer is the YAML reading's whenever there is one: tests/test_notes_ref_read_without_yaml.py
compares the two by example and by fuzzing.
"""

from __future__ import annotations

import re

DEFAULT = "refs/notes/harness"  # harness.store.settings.DEFAULT_NOTES_REF (a test holds them equal)
# Characters YAML reads as they are: printable, and no line break but the line feed (YAML also
# breaks lines at CR, NEL, LS and PS, and refuses non-printable characters even in comments).
# Compiled only for a file with non-ASCII text: its ranges cost a shell command's judge ~10 ms to compile.
_ODD = "[^\n\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff]"
# `key:` or `key: value`, the value a plain scalar YAML reads as it stands (`-` alone starts a list).
_ENTRY = re.compile(r"( *)([A-Za-z_][A-Za-z0-9_]*):(?: +([A-Za-z0-9_./][A-Za-z0-9_./-]*|-[A-Za-z0-9_./-]+|\{\}|\[\]))?"
                    r"(?: +#.*)? *")
_SKIPPED = re.compile(r" *(#.*)?")
# Keys YAML 1.1 reads as booleans or null: two of them could be one key (`on` and `yes`).
_NOT_STRINGS = frozenset({"yes", "no", "true", "false", "on", "off", "null"})


def read(raw: bytes | None) -> str | None:
    """notes_ref_of(raw), or None when the text is not plain enough to be sure without YAML."""
    if raw is None:
        return DEFAULT
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if _odd(text):
        return None
    doc = _mapping(text.split("\n"))
    if doc is None:
        return None
    notes = doc.get("notes")
    if not isinstance(notes, dict):
        return DEFAULT  # absent, empty, `{}`, `[]` or a scalar: notes_ref_of's `.get` finds no ref
    ref = notes.get("ref")
    if ref in (None, "{}", "[]"):
        return DEFAULT
    return ref if "/" in ref else None  # `refs/...` is a string; `harness`, `5`, `yes` are YAML's to type


def _odd(text: str) -> bool:
    """Whether ``text`` holds a character outside _ODD's set. ASCII text is answered without the regex:
    its characters in the set are the line feed and the printable ones, which str.isprintable() alone
    accepts among ASCII characters (tests/test_notes_ref_read_without_yaml.py holds the two equal)."""
    if text.isascii():
        return not text.replace("\n", "").isprintable()
    return re.search(_ODD, text) is not None


def _mapping(lines: list[str]) -> dict[str, object] | None:
    """{key: value or {key: value}} of a two-level block mapping, or None when it is not one."""
    doc: dict[str, object] = {}
    block: dict[str, object] | None = None   # the open top-level key's children
    indent = 0                               # theirs, once the first one is seen
    for line in lines:
        if _SKIPPED.fullmatch(line):
            continue
        m = _ENTRY.fullmatch(line)
        if m is None or m[2].lower() in _NOT_STRINGS:
            return None
        spaces, key, value = len(m[1]), m[2], m[3]
        if spaces == 0:
            if key in doc:
                return None
            block = {} if value is None else None
            indent = 0
            doc[key] = block if value is None else value
            continue
        if block is None or (indent and spaces != indent) or key in block or value is None:
            return None
        indent = spaces
        block[key] = value
    for key, value in doc.items():
        if value == {}:
            doc[key] = None  # `key:` with nothing under it is null
    return doc
