"""The configured notes ref read from a plainly written config.yaml without a YAML parser.

The tool guard judges every shell command it does not answer early against the notes ref
`.harness/config.yaml` names (`notes.ref`), and loading PyYAML to read it cost more than
the rest of such an answer. A config.yaml as `harness init` writes it, and as people edit it
(comments, `key: value` lines, one level of nested keys), is read here line by line; anything
else (a quote, a flow collection with content, an anchor, a tab, a key YAML reads as a boolean
or null, a repeated key, deeper nesting, a ref that YAML could read as something other than a
string) is read by harness.store.plain_yaml where it can (a config with evidence commands), and
otherwise gives None, and the caller reads the file with YAML (harness.store.settings.notes_ref_of).
So the answer is the YAML reading's whenever there is one: tests/test_notes_ref_read_without_yaml.py
compares the two by example and by fuzzing.
"""

from __future__ import annotations

import os

from harness.core import lazy_re as re  # imported on a pattern's first use: most lines need none

DEFAULT = "refs/notes/harness"  # harness.store.settings.DEFAULT_NOTES_REF (a test holds them equal)
# Characters YAML reads as they are: printable, and no line break but the line feed (YAML also
# breaks lines at CR, NEL, LS and PS, and refuses non-printable characters even in comments).
# Compiled only for a file with non-ASCII text: its ranges cost a shell command's judge ~10 ms to compile.
_ODD = "[^\n\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff]"
# `key:` or `key: value`, the value a plain scalar YAML reads as it stands (`-` alone starts a list). The
# patterns say what :func:`_entry` and :func:`_skipped` read (tests/test_guard_reads_config_yaml_without_the_store.py
# holds them equal): compiling them cost every judged shell command more than reading config.yaml.
_ENTRY = r"( *)([A-Za-z_][A-Za-z0-9_]*):(?: +([A-Za-z0-9_./][A-Za-z0-9_./-]*|-[A-Za-z0-9_./-]+|\{\}|\[\]))?(?: +#.*)? *"
_SKIPPED = r" *(#.*)?"
_KEY_START = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")
_KEY = _KEY_START | frozenset("0123456789")
_VALUE = _KEY | frozenset("./-")
# The most config.yaml is read of (harness.core.file_caps.CAPS["settings"], which a test holds equal).
MAX_BYTES = 8 * 1024 * 1024


def settings_bytes(path: str) -> bytes | None:
    """config.yaml's bytes as harness.store.bounded.read(path, "settings") gives them, None where that
    gives None or refuses: not a regular file (a symlink, a FIFO, a folder), larger than MAX_BYTES,
    unreadable. Opened without following a link and without blocking, checked on the open descriptor."""
    import stat

    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | os.O_NOFOLLOW)
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        parts: list[bytes] = []
        got = 0
        while got <= MAX_BYTES:
            chunk = os.read(fd, MAX_BYTES + 1 - got)
            if not chunk:
                break
            parts.append(chunk)
            got += len(chunk)
    except OSError:
        return None
    finally:
        os.close(fd)
    return b"".join(parts) if got <= MAX_BYTES else None
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
        return _read_as_plain_yaml(raw)
    notes = doc.get("notes")
    if not isinstance(notes, dict):
        return DEFAULT  # absent, empty, `{}`, `[]` or a scalar: notes_ref_of's `.get` finds no ref
    ref = notes.get("ref")
    if ref in (None, "{}", "[]"):
        return DEFAULT
    return ref if "/" in ref else None  # `refs/...` is a string; `harness`, `5`, `yes` are YAML's to type


def _read_as_plain_yaml(raw: bytes) -> str | None:
    """notes_ref_of(raw) for a config.yaml deeper than two levels (its evidence commands, spelled as
    lists of quoted words), read by harness.store.plain_yaml as PyYAML reads it: no YAML parser still.
    None when only PyYAML can read the text, or the ref is no string (notes_ref_of returns it as it is)."""
    from harness.core.limits import too_deep
    from harness.store import plain_yaml

    doc = plain_yaml.load(raw)
    if doc is plain_yaml.NOT_PLAIN:
        return None
    if too_deep(doc):
        return DEFAULT  # yamlio refuses it, and notes_ref_of reads a refusal as no ref
    # notes_ref_of's `((doc or {}).get("notes") or {}).get("ref") or DEFAULT`, whose AttributeError on
    # anything but a mapping (a list, a word) it reads as the default.
    notes = doc.get("notes") if isinstance(doc, dict) else None
    ref = (notes.get("ref") if isinstance(notes, dict) else None) or DEFAULT
    return ref if isinstance(ref, str) else None


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
        if _skipped(line):
            continue
        m = _entry(line)
        if m is None or m[1].lower() in _NOT_STRINGS:
            return None
        spaces, key, value = len(m[0]), m[1], m[2]
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
    for key, found in doc.items():
        if found == {}:
            doc[key] = None  # `key:` with nothing under it is null
    return doc


def _skipped(line: str) -> bool:
    """Whether _SKIPPED matches all of ``line``: spaces, then nothing or a comment."""
    rest = line.lstrip(" ")
    return not rest or rest[0] == "#"


def _entry(line: str) -> tuple[str, str, str | None] | None:
    """_ENTRY's three groups when it matches all of ``line`` (indent, key, value or None), else None."""
    rest = line.lstrip(" ")
    indent = line[:len(line) - len(rest)]
    end = next((i for i, c in enumerate(rest) if c not in _KEY), len(rest))
    if not end or rest[0] not in _KEY_START or rest[end:end + 1] != ":":
        return None
    key, after = rest[:end], rest[end + 1:]
    tail = after.lstrip(" ")
    if not tail:
        return indent, key, None
    if tail == after:
        return None  # something right after the colon
    if tail[0] == "#":
        return indent, key, None
    stop = next((i for i, c in enumerate(tail) if c not in _VALUE), len(tail))
    value = tail[:2] if tail[:2] in ("{}", "[]") else tail[:stop]
    if not value or value == "-" or (value[0] == "-" and stop < 2):
        return None
    more = tail[len(value):]
    left = more.lstrip(" ")
    if left and (left == more or left[0] != "#"):
        return None  # no space before what follows, or what follows is not a comment
    return indent, key, value
