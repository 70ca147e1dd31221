"""The shape of the note the stamp writes (harness.history.stamp): the one JSON note whose words a push reads as the
harness's own. Anyone can write a note (`git notes add`), so a JSON object is the stamp's only when it holds exactly
what the stamp writes, each word the harness chooses taken from its own enums; any other is a person's text (F-0377).
"""

from __future__ import annotations

import re

from harness.core.evidence_types import EVIDENCE_TYPES
from harness.core.states import STATES

GATE_VERDICTS = ("PASS", "BLOCKED", "INVALID_HARNESS_STATE")  # harness.core.gate's, and the stamp's own for a task
AUDIT_VERDICTS = ("PASS", "REFUSED", "UNCHECKED")  # what `harness audit` adds to the stamp it writes (history/audit.py)
REQUIRED = frozenset({"harness", "commit", "source_tree", "tasks"})
OPTIONAL = frozenset({"error", "verdict"})
TASK_FIELDS = frozenset({"error", "state", "iteration", "gate", "blockers", "fresh_evidence"})
# Git's object ids (SHA-1, SHA-256), as the stamp writes them: hex the rules never read (high-entropy by design).
OBJECT_IDS = frozenset({"commit", "source_tree"})
_OBJECT_ID = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")
# A release's version (harness.__version__), from an older or a newer harness too: digits, dots, a pre-release tag.
_VERSION = re.compile(r"[0-9]{1,6}(?:\.[0-9]{1,6}){0,3}(?:(?:a|b|rc|\.post|\.dev)[0-9]{1,6}){0,3}")


def texts(value: object) -> bool:
    """A list of strings (a stamp's `blockers`, `fresh_evidence`; the patterns its cache keeps)."""
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


# What the value of each field may be. `error` and `blockers` are messages (they may quote a committed file), and a
# custom evidence type's name in `fresh_evidence` is an agent's: text the rules read as any text.
_FITS = {
    "harness": lambda v: isinstance(v, str) and _VERSION.fullmatch(v) is not None,
    "commit": lambda v: isinstance(v, str) and _OBJECT_ID.fullmatch(v) is not None,
    "source_tree": lambda v: isinstance(v, str) and _OBJECT_ID.fullmatch(v) is not None,
    "verdict": lambda v: isinstance(v, str) and v in AUDIT_VERDICTS,
    "state": lambda v: isinstance(v, str) and v in STATES,
    "gate": lambda v: isinstance(v, str) and v in GATE_VERDICTS,
    "iteration": lambda v: isinstance(v, int) and not isinstance(v, bool) and v >= 0,
    "error": lambda v: isinstance(v, str),
    "blockers": texts,
    "fresh_evidence": texts,
}
# The fields whose value, in a note of the stamp's shape, is a word the harness chose from its enums.
_CHOSEN = frozenset({"harness", "commit", "source_tree", "verdict", "state", "gate"})


def is_stamp(note: object) -> bool:
    """Whether ``note`` (a note's text, parsed) is exactly what the stamp writes: its fields and no other, each value
    of its kind, and each task's entry one the stamp writes (the error it could not be read for, or its state and
    iteration with the gate's verdict, blockers and fresh evidence)."""
    if not (isinstance(note, dict) and REQUIRED <= note.keys() <= REQUIRED | OPTIONAL):
        return False
    tasks = note["tasks"]
    return (all(_FITS[k](v) for k, v in note.items() if k != "tasks") and isinstance(tasks, dict)
            and all(isinstance(tid, str) and _task_entry(entry) for tid, entry in tasks.items()))


def _task_entry(entry: object) -> bool:
    if not isinstance(entry, dict) or not entry.keys() <= TASK_FIELDS:
        return False
    kind = {"error"} if "error" in entry else {"state", "iteration"}
    return kind <= entry.keys() and (kind == {"state", "iteration"} or len(entry) == 1) and all(
        _FITS[k](v) for k, v in entry.items())


def chosen(key: str | None, value: object) -> bool:
    """Whether ``value`` under ``key`` of a note :func:`is_stamp` accepts is a word the harness chose (a state, a
    verdict, its version, an object id, a built-in evidence type's name): no secret by a project's pattern, however
    broad. A message, a task's id and a custom type's name are not."""
    return key in _CHOSEN or (key == "fresh_evidence" and value in EVIDENCE_TYPES)
