"""No secret in anything the harness writes or commits: the one redaction boundary of the store,
and the last check that finds what slipped past it (a hand edit, an older version's file).

The store redacts every string of an event before the ledger line is hashed (so the hash chain
stays whole and the projections, rendered from the ledger, inherit it) and refuses to write a
file a writer passed it unredacted. The commit, push and server hooks scan the ``.harness/``
files a change brings with the same rules and refuse one that holds a secret, naming file and
line. Both read values, never the text around them: a JSON record's key names its value
(``"API_TOKEN": null`` is no secret), and the fields that hold the harness's own digests, object
ids and signatures (high-entropy by design) are left alone.
"""

from __future__ import annotations

import functools
import json
import os
import re
from collections.abc import Iterator, Sequence

from harness import paths
from harness.core import stamp_shape
from harness.core.evidence_types import EVIDENCE_TYPES
from harness.core.redact import Redactor, compile_patterns, redact_argv, secret_env

TYPE_CHECKING = False  # typing's, without importing typing on a hot path (tests/test_layering.py)
if TYPE_CHECKING:
    from typing import Any

# Fields whose values the harness computes: digests, git object ids, run ids, SSH signatures and
# the public keys that check them. Never redacted (the hash chain and the digests bind them) and
# never flagged; a schema keeps each to its format.
STRUCTURAL = frozenset({
    "digest", "cases_digest", "tree", "tree_after", "head", "base_commit", "commit", "run_id",
    "signature", "prev", "sha256", "repository", "binding", "source_tree",
})
# What a structural field holds when the harness wrote it: hex ids and digests, run ids, an SSH
# signature block. Anything else under such a name is read like any value (a key is no hiding place).
_STRUCTURAL_VALUE = re.compile(r"(?:sha256:)?[0-9a-f]{7,64}|-----BEGIN SSH SIGNATURE-----[A-Za-z0-9+/=\s]*"
                               r"-----END SSH SIGNATURE-----\s*")


def _structural(key: str | None, value: Any) -> bool:
    """Whether ``value`` under ``key`` is one of the harness's own ids, digests or signatures."""
    return key in STRUCTURAL and (value is None or (isinstance(value, str) and _STRUCTURAL_VALUE.fullmatch(value)
                                                    is not None))
# Lists of a command's words: a secret-named flag's value is a secret whatever it looks like.
ARGV_KEYS = frozenset({"argv", "command"})
# What the harness writes under these keys it makes itself (ids, times, states, types, the gate's own
# words, file names it chooses): a project's patterns (config.yaml `redaction.patterns`, which may be as
# broad as `[A-Z]+-[0-9]+`) are not applied to them or to anything inside them, or REQ-001 and an event's
# type would be redacted out of the ledger. Not a key whose value an agent names (a finding's `category`, a
# contract's `verified_by` test ids: F-0163; a custom type's name is refused, see agents_name_flagged).
# The own rules and detect-secrets' still are. Every other
# value, a key named nowhere here included, is text the project's patterns read (F-0153);
# tests/test_secrets_a_project_names.py holds every free-text field of the schemas out of this set.
HARNESS_WRITTEN = STRUCTURAL | frozenset({
    "base", "base_tree", "created_at", "updated_at", "started_at", "finished_at", "timestamp", "ts", "id", "seq",
    "type", "test_type", "outcome", "status", "state", "from", "to", "priority", "source", "severity",
    "verdict", "kind", "check", "subject", "blockers", "blocker_keys", "blocked_by", "log", "cases", "policy",
    "patterns", "reused_run", "evidence", "related_requirements", "related_invariants", "log_digest",
    "command_digest", "uncovered", "violated",
})
# config.yaml's numbers, which its schema keeps to integers: an integer there is the harness's setting (`harness init`
# writes log_cap_bytes: 8388608, which a project's pattern for account numbers, `\b[0-9]{7,10}\b`, refused at the
# adopting commit: read 63b's F-0164); anything else under those keys is read like any value (read 64's F-0209).
_NUMBERS = frozenset({"tail_bytes", "log_cap_bytes", "stop_block_limit"})
# The notes the harness writes into a log after redacting it (evidence/outputcut.py): their byte counts are the
# harness's words, which such a pattern refused as the recording's own write (read 63b's F-0163). Digits only: a
# command printing the shape had its output redacted before any note was written.
_OWN_NOTES = re.compile(r"\[harness: \d{1,20} bytes of output (?:omitted here; \d{1,20} bytes in all"
                        r"|without a line break omitted)\]")
# The built-in evidence types' names: wherever they stand (a contract's `verified_by` lists them beside test ids an
# agent names), the harness's words, which a project's pattern as broad as `[a-z]+_[a-z]+` must not redact out of
# a schema's enum (read 63b's F-0173).
_TYPE_NAMES = frozenset(EVIDENCE_TYPES)
_NEW_MARKER = re.compile(r"\[REDACTED:([a-z][a-z0-9_]*)")


def _bare(text: str, red: Redactor) -> str:
    """``text`` without the markers ``red`` writes and white space: what is left when nothing was hidden. Text in a
    marker's shape with another label or suffix stays: a secret may be written inside it (read 83's F-0286)."""
    return "".join(red.without_own_markers(text).split())


@functools.lru_cache(maxsize=4)
def _redactor(literals: tuple[tuple[str, str], ...], patterns: tuple[str, ...]) -> Redactor:
    from harness import detector_patterns

    return compile_patterns(list(patterns), literals=dict(literals), detector=detector_patterns.sources())


@functools.lru_cache(maxsize=8)
def own_rules(red: Redactor) -> Redactor:
    """``red`` without a project's patterns: what reads a value the harness wrote (:data:`HARNESS_WRITTEN`)."""
    return Redactor(tuple(rule for rule in red.rules if rule.name != "custom"), red.stored)


def note_text(note: dict, patterns: Sequence[str] = ()) -> str:
    """A git note's text, redacted with the rules the commit check reads with (the own rules, detect-secrets' plugins,
    this process's secret-named variables and ``patterns``, config.yaml's `redaction.patterns`): every note shares one
    ref, and a plain push sends the note of a commit that push never sends (F-0355). Written as the push reads it
    (:func:`note_secrets`): the words the stamp chooses stay, so the note keeps the stamp's shape (a state, a gate's
    verdict under a pattern as broad as `[A-Z]{5,}`: F-0377); its messages, which may quote a committed file (a commit
    made without the pre-commit stage was never checked), are redacted where they hold a secret by every rule."""
    from harness.core.stamp_shape import is_stamp

    return json.dumps(_note_redacted(note, redactor(patterns), is_stamp(note)), indent=2, sort_keys=True) + "\n"


def _note_redacted(data: Any, red: Redactor, shaped: bool, key: str | None = None) -> Any:
    """``data`` with each string :func:`_note_texts` reads with every rule redacted where they find a secret; one that
    holds only the harness's words stays as it is (`unit_test` under a pattern as broad as `[a-z]+_[a-z]+`)."""
    from harness.core.stamp_shape import OBJECT_IDS, chosen

    if isinstance(data, str):
        if shaped and chosen(key, data):
            return own_rules(red).redact(data) if key not in OBJECT_IDS else data
        redacted = red.redact(data) if _flagged(data, red) else data
        named = redacted == data and key and _flagged(_pair(key, data), own_rules(red))
        return f"[REDACTED:{named}]" if named else redacted  # a secret by the name it goes by
    if isinstance(data, list):
        return [_note_redacted(v, red, shaped, key) for v in data]
    if isinstance(data, dict):
        return {k: _note_redacted(v, red, shaped, k) for k, v in data.items()}
    return data


def note_secrets(raw: bytes, red: Redactor) -> list[tuple[int, str]]:
    """(line, rule) of each secret in a note's text, read as :func:`note_text` writes it. A JSON note of exactly the
    stamp's shape (harness.core.stamp_shape) has the words the harness chose read with its own rules; every other
    value of it, and every value of any other JSON note, with every rule, the project's patterns too: a note written
    with `git notes add` is a person's text, whatever its shape (F-0377). A note that is no JSON object is read as
    text."""
    from harness.core.stamp_shape import is_stamp

    try:
        doc = _loads(raw.decode("utf-8"))
    except ValueError:  # not UTF-8 (UnicodeDecodeError is one), or not JSON
        doc = None
    if not isinstance(doc, dict):
        return secrets_in("note", raw, red)
    text = raw.decode("utf-8")
    return sorted({(_line_of(text, value), rule) for value, own in _note_texts(doc, is_stamp(doc))
                   if (rule := _flagged(value, own_rules(red) if own else red))})


def _note_texts(data: Any, shaped: bool, key: str | None = None, listed: bool = False) -> Iterator[tuple[str, bool]]:
    """Each text of a JSON note, and whether it is the harness's word (read with its own rules alone): in a note of
    the stamp's shape the words it chooses (its object ids, hex by its shape, not read at all); in any note a key the
    harness names (`state`, a task's id), and a value in the context of its key. Every other value, a number too."""
    from harness.core.stamp_shape import OBJECT_IDS, chosen

    if isinstance(data, str):
        if not (shaped and key in OBJECT_IDS):
            yield data, shaped and chosen(key, data)
            if key and not listed:
                yield _pair(key, data), True
    elif isinstance(data, (int, float)) and not isinstance(data, bool):
        if not shaped:  # a stamp's numbers are its iterations (harness.core.stamp_shape)
            yield json.dumps(data), False
    elif isinstance(data, list):
        for v in data:
            yield from _note_texts(v, shaped, key, True)
    elif isinstance(data, dict):
        for k, v in data.items():
            yield k, _own_key(k, None)
            yield from _note_texts(v, shaped, k)


def redactor(patterns: Sequence[str] = ()) -> Redactor:
    """The redactor of everything the harness writes: the own patterns, detect-secrets' plugins, this
    process's secret-named variables and ``patterns``, config.yaml's `redaction.patterns` (a value the
    project names as secret is one in a requirement's statement as in a command's output: F-0153).
    One per set of patterns a process: the evidence writer and the store share it."""
    return _redactor(tuple(sorted(secret_env(os.environ).items())), tuple(patterns))


def stored_redactor(patterns: Sequence[str] = ()) -> Redactor:
    """:func:`redactor` as the last check reads committed files with: they were written in other shells, whose
    secret-named variables' markers (`[REDACTED:env:DB_PASSWORD]`) this one cannot list (core.redact.Redactor)."""
    return stored(redactor(patterns))


def unfolded(data: Any, source: str, red: Redactor) -> Any:
    """``data`` parsed from the YAML text ``source``, each secret ``red`` finds in ``source`` only wrapped over lines
    replaced by its marker where the parser joined its pieces again with a space (a folded `>` block, a plain or
    quoted scalar over lines) or a line break: redacting the parsed values alone read two short words (read 155's
    F-0546). A `|` block keeps the breaks, which the store's redaction reads as a wrap; this covers the rest."""
    joins = []
    for name, pieces in red.wrapped_secrets(source):
        # every run of two or more of the pieces, longest first: two secrets on neighbouring lines make one group
        runs = [pieces[i:i + size] for size in range(len(pieces), 1, -1) for i in range(len(pieces) - size + 1)]
        joins += [(sep.join(run), f"[REDACTED:{name}]") for run in runs for sep in (" ", "\n")]
    return _replaced(data, joins) if joins else data


def _replaced(data: Any, joins: list[tuple[str, str]]) -> Any:
    if isinstance(data, str):
        for joined, marker in joins:
            data = data.replace(joined, marker)
        return data
    if isinstance(data, list):
        return [_replaced(v, joins) for v in data]
    if isinstance(data, dict):
        return {k: _replaced(v, joins) for k, v in data.items()}
    return data


@functools.lru_cache(maxsize=4)
def stored(red: Redactor) -> Redactor:
    """``red`` reading what another shell recorded: an `env:` marker of a secret-named variable this shell lacks may
    be the harness's own (core.redact.Redactor)."""
    return Redactor(red.rules, stored=True)


_NAMED_ENV_MARKER = re.compile(r"\[REDACTED:env:\w+\]")


def unnamed_env(data: Any) -> Any:
    """``data`` with each `[REDACTED:env:NAME]` marker written `[REDACTED:env]`: for text no ledger binds to the harness
    (a task's spec links, an approval's commands), which the commit check reads as a person's (history/own_words.py),
    where a variable's name is text a project's pattern may match (`db_password` under `[a-z]+_[a-z]+`: read 72's
    F-0236). The marker without it still says a secret-named variable's value stood there."""
    if isinstance(data, str):
        return _NAMED_ENV_MARKER.sub("[REDACTED:env]", data)
    if isinstance(data, dict):
        return {k: unnamed_env(v) for k, v in data.items()}
    if isinstance(data, list):
        return [unnamed_env(v) for v in data]
    return data


_ONE_WORD = re.compile(r"[^\s\\\"']{1,4096}")


def _pair(key: str | None, value: str) -> str:
    """How a JSON object spells ``key: value``: the context a docker ``"auth": "…"`` is known by.
    Only for a one-word value: text would bring escapes the rules would read as context."""
    return f"{json.dumps(key)}: {json.dumps(value)}" if key and _ONE_WORD.fullmatch(value) else value


def redact_data(data: Any, red: Redactor, key: str | None = None, written: bool = False) -> Any:
    """``data`` (an event's, a record's) with every string value redacted, structural fields kept;
    ``written``: inside a value the harness wrote (:data:`HARNESS_WRITTEN`), which a project's patterns skip. A
    secret-named variable's marker under its own name (a record's `env`: evidence/record.py recorded_env) is the
    harness's, whatever the length of the value it stands for (a short one is no rule of this redactor's)."""
    if key in STRUCTURAL:
        return data
    written = written or key in HARNESS_WRITTEN
    rules = own_rules(red) if written else red
    if isinstance(data, str):
        redacted = (own_rules(red) if data in _TYPE_NAMES else rules).redact(data)
        if redacted == data and key and data != f"[REDACTED:env:{key}]" and _flagged(_pair(key, data), own_rules(red)):
            return f"[REDACTED:{_flagged(_pair(key, data), own_rules(red))}]"  # a secret by the name it goes by
        return redacted
    if isinstance(data, list):
        if key in ARGV_KEYS and all(isinstance(a, str) for a in data):
            return redact_argv(data, rules)
        return [redact_data(v, red, None, written) for v in data]
    if isinstance(data, dict):
        return {k: redact_data(v, red, k, written) for k, v in data.items()}
    return data


def _flagged(value: str, red: Redactor) -> str | None:
    """The rule that finds a secret in ``value``, or None. Markers rewritten (and the space between
    them), nothing else, is no secret: a project's pattern as broad as `.+` makes one marker of an
    argv of markers."""
    return _judged(value, red.redact(value), red)


def _judged(value: str, redacted: str, red: Redactor) -> str | None:
    """:func:`_flagged` of ``value``, which ``red`` redacts to ``redacted``."""
    if redacted == value or _bare(redacted, red) == _bare(value, red):
        return None
    if _only_own_words(value, red):
        return None  # only the harness's own words were found (`verification.unit_test`, `approved_by`: read 75)
    before = set(_NEW_MARKER.findall(value))
    return next((name for name in _NEW_MARKER.findall(redacted) if name not in before), "secret")


# A word with an underscore standing alone (a dotted path's part too): the shape of the harness's own words that a
# project's pattern as broad as `[a-z]+_[a-z]+` matches in text the harness or a person writes about it.
_OWN_WORD = re.compile(r"(?<![\w-])[a-z][a-z0-9]*(?:_[a-z0-9]+)+(?![\w-])")


def _only_own_words(value: str, red: Redactor) -> bool:
    """Whether what ``red`` finds in ``value`` is a project's pattern matching the harness's own words alone: every
    match of each project pattern lies inside one of them, and no other rule finds anything. A match reaching past
    the word (`integration_test:PASSWORD@db…`) is a finding (read 77's F-0269)."""
    words = [m.span() for m in _OWN_WORD.finditer(value) if m.group() in _harness_words()]
    if not words:
        return False
    customs = [m.span() for rule in red.rules if rule.name == "custom" for m in rule.regex.finditer(value)]
    inside = all(any(a <= start and end <= b for a, b in words) for start, end in customs)
    own = own_rules(red)
    return inside and _bare(own.redact(value), own) == _bare(value, own)


# The fields of a note the stamp writes (harness.core.stamp_shape; `verdict`: the audit's): no schema names them, and a
# push reads a note's keys as text (F-0355), which a project's pattern as broad as `[a-z]+_[a-z]+` must not refuse.
_NOTE_FIELDS = stamp_shape.REQUIRED | stamp_shape.OPTIONAL | stamp_shape.TASK_FIELDS


@functools.lru_cache(maxsize=1)
def _harness_words() -> frozenset[str]:
    """The harness's own words: its schemas' field names, its evidence types, an approval's fields, a note's."""
    from harness.core.approvals import BOUND_FIELDS, SIGNED_FIELDS

    return _schema_words() | _TYPE_NAMES | frozenset(SIGNED_FIELDS) | frozenset(BOUND_FIELDS) | _NOTE_FIELDS


def _values(data: Any, key: str | None = None, written: bool = False, own: bool = True) -> Iterator[tuple[str, bool]]:
    """Each text ``data`` holds, and whether the harness wrote it (a project's patterns skip it):
    values, keys, and a value in the context of its key. ``own``: the file is one the harness writes; in
    another, a key named like the ledger's (`evidence:`, `id:`) says nothing of who wrote its value (read 75's
    F-0257: config.yaml's commands were never read with the project's patterns)."""
    if _structural(key, data):
        return
    # Under a structural key only the harness's ids are its own; anything else there is read like any value (F-0209).
    written = written or (own and key in HARNESS_WRITTEN and key not in STRUCTURAL)
    if isinstance(data, str):
        yield data, (written and not _named_by_agent(data)) or data in _TYPE_NAMES
        if key:
            yield _pair(key, data), True
    elif isinstance(data, list):  # an argv's words joined are read by _argv_flagged, as redact_argv wrote them
        for v in data:
            yield from _values(v, None, written, own)
    elif isinstance(data, dict):
        for k, v in data.items():
            if isinstance(k, str):
                yield k, _own_key(k, key)  # a key is text the file holds, as a value is
            yield from _values(v, k if isinstance(k, str) else None, written, own)


def _argv_flagged(data: Any, red: Redactor, key: str | None = None) -> bool:
    """Whether an argv list holds what redact_argv hides: a secret-named flag's value (``--password hunter2``), or a
    secret its words joined reveal (the writer's reading, read 65's F-0214)."""
    if key in STRUCTURAL:
        return False
    if isinstance(data, list):
        if key in ARGV_KEYS and all(isinstance(a, str) for a in data) and redact_argv(data, red) != data:
            return True
        return any(_argv_flagged(v, red) for v in data)
    if isinstance(data, dict):
        return any(_argv_flagged(v, red, k) for k, v in data.items())
    return False


_IDS = re.compile(r"TASK-[0-9]{8}-[0-9a-f]{6}|(?:REQ|INV)-[0-9]{3,}|F-[0-9]{4,}")


def _own_key(key: str, parent: str | None) -> bool:
    """Whether a key is the harness's word (a schema's field, one of its ids, a built-in type, a variable's name in a
    record's `env`), which a project's pattern as broad as `[a-z]+_[a-z]+` must not refuse; any other key is text
    like a value (read 64's F-0209)."""
    return (key in _harness_words() or _IDS.fullmatch(key) is not None
            or (parent == "env" and _ENV_NAME.fullmatch(key) is not None))


_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,127}")


@functools.lru_cache(maxsize=1)
def _schema_words() -> frozenset[str]:
    """Every property name the harness's schemas name."""
    from harness import resources

    words: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            words.update(node.get("properties", {}) if isinstance(node.get("properties"), dict) else ())
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    for name in resources.schema_names():  # the cached loader validation shares: each file is read once
        walk(resources.schema(name))
    return frozenset(words)


def _named_by_agent(text: str) -> bool:
    """A custom evidence type (`custom.NAME`): the harness writes it under `type`, in a file's name and as
    a key, but its name is whoever ran `harness evidence custom.NAME` (#28's task F-0157)."""
    return text.startswith(CUSTOM_PREFIX)


CUSTOM_PREFIX = "custom."


def agents_name_flagged(data: Any, red: Redactor) -> str | None:
    """The rule that flags a custom evidence type's name anywhere in ``data`` (a value or a key), or None.
    A name is not redacted (a file is named after it): what holds a secret is refused."""
    if isinstance(data, str):
        return _flagged(data, red) if _named_by_agent(data) else None
    items = data.items() if isinstance(data, dict) else enumerate(data) if isinstance(data, list) else ()
    for k, v in items:
        found = (agents_name_flagged(k, red) if isinstance(k, str) else None) or agents_name_flagged(v, red)
        if found:
            return found
    return None


def name_flagged(part: str, red: Redactor) -> str | None:
    """The rule that finds a secret in one part of a `.harness/` path (a folder's or a file's name, which a commit
    carries and a push sends as it does a file's text), or None. A name the harness gives is read by its own rules
    alone, as a key of its records is (:func:`_own_key`): a project's pattern as broad as `[a-z]+_[a-z]+` must not
    refuse `unit_test.json` (read 83's F-0288)."""
    return _flagged(part, own_rules(red) if _own_name(part) else red)


# What follows an id or an evidence type in the name of a file the harness writes (`F-0001.yaml`, `unit_test.cases`).
_OWN_EXTENSIONS = frozenset({"json", "log", "cases", "yaml"})


def _own_name(part: str) -> bool:
    """Whether a path's part is a name the harness gives: one of its files or folders, an id, a built-in evidence
    type's file. A custom type's (`custom.NAME.log`) is the agent's, read like any text (:func:`_named_by_agent`)."""
    stem, _, extension = part.partition(".")
    return (part in _own_files() or _IDS.fullmatch(part) is not None
            or ((stem in _TYPE_NAMES or _IDS.fullmatch(stem) is not None) and extension in _OWN_EXTENSIONS))


@functools.cache
def _own_files() -> frozenset[str]:
    """The names of the files and folders the harness keeps in `.harness/`: its own, and a task's."""
    from harness.store.reader import TASK_FILES

    own = (paths.HARNESS, paths.CONFIG, paths.GATE, paths.APPROVALS, paths.ALLOWED_SIGNERS, paths.TASKS, paths.LOCAL)
    return (frozenset(rel.rpartition("/")[2] for rel in own) | frozenset(TASK_FILES)
            | {"events.jsonl", "evidence", "findings", ".gitignore"})


def _in_data(data: Any, red: Redactor, own: bool = True) -> str | None:
    for value, written in _values(data, own=own):
        found = _flagged(value, own_rules(red) if written else red)
        if found:
            return found
    return "secret_flag" if _argv_flagged(data, red) else None


def _line_of(raw: str, value: str) -> int:
    for spelled in (value, json.dumps(value)[1:-1], json.dumps(value, ensure_ascii=False)[1:-1],
                    value.partition(": ")[2][1:-1]):
        at = raw.find(spelled[:200])
        if at >= 0:
            return raw.count("\n", 0, at) + 1
    return 1


def secrets_in(rel: str, raw: bytes, red: Redactor | None = None, own: bool = False) -> list[tuple[int, str]]:
    """(line, rule) of each secret in the file ``rel`` holding ``raw``; empty when it holds none."""
    return sorted({(line, rule) for line, rule, _ in flagged_values(rel, raw, red, own)})


def flagged_values(rel: str, raw: bytes, red: Redactor | None = None, own: bool = False) -> list[tuple[int, str, str]]:
    """(line, rule, the value it was found in) of each secret in the file ``rel`` holding ``raw``: a line
    of a ledger or a text file, a string of a JSON record, the whole of a YAML scalar (which may span
    lines: its first line alone says nothing of the others).

    ``own``: the harness wrote the file (a writer checking itself, or the commit check of a file whose
    provenance it knows: harness.history.own_words), so its own words stand: the byte counts of its log
    notes and, read with a stored redactor, an `env:` marker of a variable another shell had. Not
    otherwise: text a person wrote in either shape is read as any text (read 64's F-0210)."""
    red = red or redactor()
    text = raw.decode("utf-8", errors="surrogateescape")
    if not own:
        red = _strict(red)
    elif "[harness: " in text:
        text = _OWN_NOTES.sub("[harness: a note]", text)
    if rel.endswith(".jsonl"):
        return _jsonl_values(text, red, own)
    whole = None
    if not rel.endswith((".json", ".yaml", ".yml")):
        whole = red.redact(text)
        if whole == text:
            return []  # the common case, in one pass: nothing anywhere (a parser can join what lines split)
    if rel.endswith(".json"):
        return _json_values(text, red, own)
    if rel.endswith((".yaml", ".yml")):
        found_yaml = _yaml(text, red, own, _PATTERNS_KEY if rel == paths.CONFIG else frozenset())
        if found_yaml is not None:
            return found_yaml + ([] if own else _wrapped_in_lines(text, red))  # its own: the dumper's folds
    return _lines(text, red, whole)


def _wrapped_in_lines(text: str, red: Redactor) -> list[tuple[int, str, str]]:
    """Each secret a YAML file's lines hold wrapped over them (its first line, the rule, its pieces): the parse joins a
    folded block's or a plain scalar's lines with a space, where each piece alone is no token's shape, so its values
    read clean (read 159's F-0557). By the harness's own rules and detect-secrets': a project's pattern (which may be
    as broad as `.+`) names values, and lines joined are none."""
    if "\n" not in text:
        return []
    found = own_rules(red).wrapped_secrets(text)
    values = list(_strings(_loads_yaml(text))) if found else []
    out = []
    for name, pieces in found:
        # reported as the value the parse gives (the pieces joined by a space or a break): a value the ledger holds is
        # the harness's own words, rendered from it (harness.history.own_words), as any value of the file
        joined = {sep.join(pieces) for sep in (" ", "\n")}
        value = next((v for v in values if any(j in v for j in joined)), "\n".join(pieces))
        out.append((text.count("\n", 0, text.find(pieces[0])) + 1, name, value))
    return out


def _loads_yaml(text: str) -> Any:
    import yaml

    try:
        return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except (yaml.YAMLError, RecursionError, ValueError):
        return None


def _strings(data: Any) -> Iterator[str]:
    if isinstance(data, str):
        yield data
    elif isinstance(data, dict):
        for value in data.values():
            yield from _strings(value)
    elif isinstance(data, list):
        for value in data:
            yield from _strings(value)


def _jsonl_values(text: str, red: Redactor, own: bool) -> list[tuple[int, str, str]]:
    """Secrets in a `.jsonl` file: each line that is JSON read as data, as a ledger's records are; and when a line is
    not JSON the file is (partly) a person's text, read whole as :func:`_lines` reads any text file (read 87's F-0304:
    curl's password on a line continued with `\\`, a wrapped hex dump passed in `notes.jsonl`)."""
    lines = text.split("\n")
    values = [_json_or_text(line) for line in lines]
    out = [(n, found, line) for n, (line, value) in enumerate(zip(lines, values, strict=True), 1)
           if line.strip() and value is not _TEXT and (found := _in_data(value, red, own))]
    if any(value is _TEXT for value in values):
        out += _text_of_jsonl(text, lines, values, red, bool(out))
    return sorted(set(out))


_TEXT = object()  # what a line of a .jsonl file that is no JSON holds


def _json_or_text(line: str) -> Any:
    if not line.strip():
        return None
    try:
        return _loads(line)
    except ValueError:
        return _TEXT


def _text_of_jsonl(text: str, lines: list[str], values: list[Any], red: Redactor,
                   found: bool) -> list[tuple[int, str, str]]:
    """The secrets of a `.jsonl` file's text: every line but its records (a JSON object or array; a JSON scalar,
    `"-u admin:PASSWORD"`, may continue a line of text), read whole at their own line numbers. A record's line is
    blank in that reading; so what the whole file's redaction finds across a record, when nothing else was
    (``found``), is reported at line 1: a file that redacts otherwise is never accepted (read 87's F-0304)."""
    kept = "\n".join("" if isinstance(value, (dict, list)) else line for line, value in zip(lines, values, strict=True))
    out = _lines(kept, red)
    if not out and not found and (in_whole := _flagged(text, red)):
        out.append((1, in_whole, text))
    return out


@functools.lru_cache(maxsize=4)
def _strict(red: Redactor) -> Redactor:
    return Redactor(red.rules) if red.stored else red


# config.yaml's `redaction.patterns` hold patterns, not values: read with themselves, one matching its own spelling
# (`ACCT (?P<secret>\S+)`) could never be committed (read 77's F-0271). The harness's own rules still read them.
_PATTERNS_KEY = frozenset({"patterns"})


def _json_values(text: str, red: Redactor, own: bool = True) -> list[tuple[int, str, str]]:
    try:
        doc = _loads(text)
    except ValueError:
        return _lines(text, red)
    out = []
    for value, written in _values(doc, own=own):
        found = _flagged(value, own_rules(red) if written else red)
        if found:
            out.append((_line_of(text, value), found, value))
    if not out and _argv_flagged(doc, red):
        out.append((1, "secret_flag", text))
    return out


def _loads(text: str) -> Any:
    """``text`` as JSON, every value kept: a key given twice keeps only its last value in a dict, so the ones
    before it are kept under the key and their place (read 63b's F-0177: a secret hidden by a duplicate)."""
    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        doc = dict(items)
        if len(doc) < len(items):
            doc.update({f"{k} (given again, #{n})": v for n, (k, v) in enumerate(items) if doc[k] is not v})
        return doc

    return json.loads(text, object_pairs_hook=pairs)


def _lines(text: str, red: Redactor, whole: str | None = None) -> list[tuple[int, str, str]]:
    """Secrets in a text's lines, each read alone, and what only the whole text (``whole``, redacted) shows: a curl
    command continued over lines with `\\`, a hex dump wrapped at 60 columns, a quoted-printable soft line break
    hide their secret from every line alone (read 83's F-0285)."""
    lines = text.split("\n")
    redacted = [red.redact(line) for line in lines]
    out = [(n, found, line) for n, (line, done) in enumerate(zip(lines, redacted, strict=True), 1)
           if (found := _judged(line, done, red))]
    whole = red.redact(text) if whole is None else whole
    if whole != "\n".join(redacted):  # the lines alone do not account for all the whole text hides
        out += _across_lines(lines, whole.split("\n"), red, {n for n, _, _ in out})
        if not out and (found := _judged(text, whole, red)):
            out.append((1, found, text))  # never a file that redacts otherwise accepted without a line named
    return sorted(out)


def _across_lines(lines: list[str], whole: list[str], red: Redactor, named: set[int]) -> list[tuple[int, str, str]]:
    """The secrets the whole text's redaction (``whole``, split into its lines) finds that no line of ``named`` (the
    numbers of the lines already reported) holds: each run of lines it changed, aligned with the lines as written,
    is judged together and reported at each of its lines."""
    from difflib import SequenceMatcher

    out = []
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, lines, whole).get_opcodes():
        if tag == "equal" or named.intersection(range(i1 + 1, i2 + 1)):
            continue
        found = _judged("\n".join(lines[i1:i2]), "\n".join(whole[j1:j2]), red)
        if found:
            out += [(n, found, lines[n - 1]) for n in range(i1 + 1, i2 + 1)]
    return out


def _yaml(text: str, red: Redactor, own: bool = True, keys: frozenset[str] = frozenset()) -> list[tuple[int, str, str]] | None:
    """Secrets in the scalar values of a YAML file (None: it does not parse; read its lines)."""
    import yaml

    loader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    # Without a leading byte-order mark: libyaml's marks do not count it, and the spans read off them must fall on
    # the text they index (read 58's F-0132). It is no line: the line numbers stay.
    text = text[1:] if text.startswith("\ufeff") else text
    try:
        root = yaml.compose(text, Loader=loader)
    except (yaml.YAMLError, RecursionError, ValueError):
        return None
    out: list[tuple[int, str, str]] = []
    stack: list[tuple[Any, str | None, bool]] = [(root, None, False)] if root is not None else []
    while stack:
        node, key, written = stack.pop()
        if isinstance(node, yaml.ScalarNode) and _structural(key, None if node.tag.endswith(":null") else node.value):
            continue  # one of the harness's ids; anything else under such a key is read (read 63b's F-0176)
        written = written or key in keys or (own and key in HARNESS_WRITTEN and key not in STRUCTURAL)  # (F-0209, F-0257)
        rules = own_rules(red) if written or (isinstance(node, yaml.ScalarNode) and (
            node.value in _TYPE_NAMES or (key in _NUMBERS and node.tag.endswith(":int")))) else red
        if isinstance(node, yaml.ScalarNode):
            found = _flagged(str(node.value), rules) or (key and _flagged(_pair(key, str(node.value)), own_rules(red)))
            if found:
                out.append((node.start_mark.line + 1, found, str(node.value)))
        elif isinstance(node, yaml.SequenceNode):
            values = [v.value for v in node.value if isinstance(v, yaml.ScalarNode)]
            if key in ARGV_KEYS and len(values) == len(node.value) and redact_argv(values, rules, joined=False) != values:
                out.append((node.start_mark.line + 1, "secret_flag", "\n".join(values)))
            stack.extend((v, None, written) for v in node.value)
        elif isinstance(node, yaml.MappingNode):
            for k, _ in node.value:  # a key is text the file holds, as in JSON (read 63b's F-0175)
                key_rules = own_rules(red) if _own_key(str(k.value), key) else red
                in_key = _flagged(str(k.value), key_rules) if isinstance(k, yaml.ScalarNode) else None
                if in_key:
                    out.append((k.start_mark.line + 1, in_key, str(k.value)))
            stack.extend((v, k.value if isinstance(k, yaml.ScalarNode) else None, written) for k, v in node.value)
    return out + _in_comments(text, root, red)


def _in_comments(text: str, root: Any, red: Redactor) -> list[tuple[int, str, str]]:
    """Secrets outside the scalars of a YAML text (comments, anchors, tags, directives: F-0117, F-0121, F-0122), with
    the project's patterns too (read 75's F-0258: a comment in a task's requirements.yaml carried a project value);
    but a line `harness init` writes (config.yaml's commented-out fields, which a pattern as broad as
    `[a-z]+_[a-z]+` matches) is the harness's, read by its own rules."""
    from harness.store.yaml_outside_scalars import outside_scalars

    own, written = own_rules(red), _template_lines()
    return [(line, found, rest) for line, rest in outside_scalars(text, root)
            if (found := _flagged(rest, own if rest.strip() in written else red))]


@functools.cache
def _template_lines() -> frozenset[str]:
    """The text outside the scalars of each line of the files `harness init` writes (config.yaml, gate.yaml)."""
    import yaml

    from harness import resources
    from harness.store.yaml_outside_scalars import outside_scalars

    lines: set[str] = set()
    for name in ("config.yaml", "gate.yaml"):
        try:  # as _in_comments sees them: the text outside the scalars (a comment after a key too: read 77's F-0270)
            text = resources.template(name).decode("utf-8")
            root = yaml.compose(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
        except (OSError, UnicodeDecodeError, yaml.YAMLError):
            continue
        lines |= {rest.strip() for _, rest in outside_scalars(text, root)}
    return frozenset(lines)
