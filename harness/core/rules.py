"""The vocabularies and field rules of task items, in one place.

Replay applies these to every event, so a rule the CLI enforces holds for a ledger written
by hand too; the CLI only offers the same words as choices. Each check raises
:class:`~harness.core.chain.LedgerProblem` with the text the user sees and, where one
exists, the command that does it right.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from harness.core.chain import LedgerProblem
from harness.core.evidence_types import FORMS, is_evidence_type

TYPE_CHECKING = False  # typing's, without importing typing on a hot path (tests/test_layering.py)
if TYPE_CHECKING:
    from typing import Any

REQUIREMENT_STATUSES = ("pending", "implemented", "verified", "blocked")
INVARIANT_STATUSES = ("pending", "verified", "violated")
PRIORITIES = ("must", "should", "could")
SOURCES = ("user", "spec")
SEVERITIES = ("critical", "major", "minor")
MAX_ITERATIONS_CEILING = 100
# ASCII on purpose: str.isalpha() accepts "ünïcode", the files' schema does not.
CATEGORY = re.compile(r"[a-z][a-z0-9_]*", re.ASCII)
CATEGORY_HINT = "use a lower-case ASCII word such as correctness or state_machine"
ID_FORMATS = {
    "task": re.compile(r"TASK-[0-9]{8}-[0-9a-f]{6}", re.ASCII),
    "requirement": re.compile(r"REQ-[0-9]{3,}", re.ASCII),
    "invariant": re.compile(r"INV-[0-9]{3,}", re.ASCII),
    "finding": re.compile(r"F-[0-9]{4,}", re.ASCII),
}


def need_id(kind: str, value: object) -> str:
    if not isinstance(value, str) or not ID_FORMATS[kind].fullmatch(value):
        raise LedgerProblem(f"{kind} id {value!r} is not of the form {ID_FORMATS[kind].pattern}")
    return value


def need_text(what: str, value: object, hint: str | None = None) -> str:
    if not isinstance(value, str) or not value.strip():
        raise LedgerProblem(f"{what} must be non-empty text", hint)
    return value


def need_choice(what: str, value: object, allowed: Sequence[str]) -> str:
    if not isinstance(value, str) or value not in allowed:
        raise LedgerProblem(f"{what} {value!r} is not one of {', '.join(allowed)}")
    return value


def need_evidence_type(what: str, value: object) -> str:
    if not is_evidence_type(value):
        raise LedgerProblem(f"{what} {value!r} is not an evidence type", f"one of {FORMS}")
    assert isinstance(value, str)
    return value


def need_category(what: str, value: object) -> str:
    if not isinstance(value, str) or not CATEGORY.fullmatch(value):
        raise LedgerProblem(f"{what}: category {value!r} is not a lower-case word", CATEGORY_HINT)
    return value


def need_max_iterations(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_ITERATIONS_CEILING:
        raise LedgerProblem(f"max_iterations {value!r} is not a whole number from 1 to {MAX_ITERATIONS_CEILING}")
    return value


def task_created(d: Mapping[str, Any]) -> None:
    need_id("task", d["id"])
    need_text("a task's title", d["title"], 'harness task new "TITLE"')
    if not isinstance(d.get("description", ""), str):
        raise LedgerProblem("a task's description must be text")
    need_max_iterations(d["max_iterations"])


def item_added(kind: str, d: Mapping[str, Any]) -> None:
    """requirement.added / invariant.added: id, statement and the item's vocabularies."""
    item_id = need_id(kind, d["id"])
    need_text(f"{kind} {item_id}: the statement", d["statement"])
    if kind == "requirement":
        need_choice(f"requirement {item_id}: priority", d.get("priority"), PRIORITIES)
        need_choice(f"requirement {item_id}: source", d.get("source"), SOURCES)
    else:
        need_category(f"invariant {item_id}", d.get("category"))
        need_choice(f"invariant {item_id}: severity", d.get("severity"), SEVERITIES)


def test_ids(item_id: str, tests: object) -> list[str]:
    """The test case ids a requirement or a finding's regression test names (FAIL_TO_PASS),
    checked: distinct one-line ids."""
    what = "finding" if item_id.startswith("F-") else "requirement"
    if not isinstance(tests, list) or not all(isinstance(t, str) and t.strip() and "\n" not in t for t in tests):
        raise LedgerProblem(f"{what} {item_id}: tests must be a list of test case ids")
    if len(set(tests)) != len(tests):
        raise LedgerProblem(f"{what} {item_id}: a test case is named twice")
    return list(tests)


def item_set(kind: str, item_id: str, status: object, refs: object,
             evidence: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """The cited evidence types of a requirement.set / invariant.set, checked.

    ``verified`` needs at least one citation, and every cited type must have evidence this
    ledger recorded whose last run passed (the gate also needs it fresh).
    """
    statuses = REQUIREMENT_STATUSES if kind == "requirement" else INVARIANT_STATUSES
    need_choice(f"{kind} {item_id}: status", status, statuses)
    if not isinstance(refs, list) or not all(isinstance(r, str) for r in refs):
        raise LedgerProblem(f"{kind} {item_id}: evidence must be a list of evidence types")
    for ref in refs:
        need_evidence_type(f"{kind} {item_id}: evidence type", ref)
    if len(set(refs)) != len(refs):
        raise LedgerProblem(f"{kind} {item_id}: an evidence type is cited twice")
    if status != "verified":
        return list(refs)
    if not refs:
        raise LedgerProblem(f"{item_id} cannot be verified without evidence (verified needs at least one evidence reference)",
                            "collect it with `harness evidence TYPE`, then `--evidence TYPE`")
    for ref in refs:
        record = evidence.get(ref)
        if record is None:
            raise LedgerProblem(f"{item_id} cites {ref} evidence, but none was collected",
                                f"run `harness evidence {ref}` first")
        if record.get("outcome") != "passed":
            raise LedgerProblem(
                f"{item_id} cites {ref} evidence, whose last run {record.get('outcome')} "
                f"(exit {record.get('exit_code')})", "only passing evidence verifies; fix the code and re-run it")
    return list(refs)


def finding_content(fid: str, content: Mapping[str, Any]) -> None:
    """The fields of a proposal every later step reads (the file schema checks the rest)."""
    need_choice(f"finding {fid}: severity", content.get("severity"), SEVERITIES)
    need_category(f"finding {fid}", content.get("category"))
    need_text(f"finding {fid}: the title", content.get("title"))
    need_text(f"finding {fid}: the claim", content.get("claim"))
