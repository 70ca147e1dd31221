"""Render the YAML documents from a ledger projection, and compare them with the files.

The free-form text people write (titles, descriptions, statements, spec links) is taken
from the file as it is; every field the gate or the state machine reads comes from the
ledger. A difference in such a field is a hand edit, and it is named with the command
that would have made the change legally.
"""

from __future__ import annotations

from collections.abc import Mapping

from harness.core.findings import CLOSED as CLOSED_FINDING
from harness.core.ledger import Projection
from harness.core.records import Finding
from harness.core.rules import PRIORITIES, SEVERITIES
from harness.core.value_class import dataclass

TYPE_CHECKING = False  # typing's, without importing typing on a hot path (tests/test_layering.py)
if TYPE_CHECKING:
    from typing import Any

BASE_VERIFICATION = ("build", "unit_test", "integration_test")
FIX_COMMANDS = {
    "state": "harness transition TARGET",
    "iteration": "harness transition (each GATING → BLOCKED counts one iteration)",
    "max_iterations": "harness task new --max-iterations N (fixed when the task is created)",
    "requirements": "harness requirement add / harness requirement set REQ-ID --status S --evidence TYPE",
    "invariants": "harness invariant add / harness invariant set INV-ID --status S --evidence TYPE",
    "verification": "harness evidence TYPE",
    "findings": "harness finding …",
    "gate": "harness gate",
}
RERENDER = "harness replay --write"
# Fields fixed when an item is added: no command changes them; a new item with the value wanted does.
FIXED_AT_ADD = {
    ("requirements", "priority"): ('harness requirement add "STATEMENT" --priority must',
                                   "a priority is fixed when the requirement is added: add one with the priority wanted"),
    ("requirements", "source"): ('harness requirement add "STATEMENT" --priority must --source user',
                                 "a source is fixed when the requirement is added: add one as wanted"),
    ("invariants", "category"): ('harness invariant add "STATEMENT" --category CATEGORY --severity major',
                                 "a category is fixed when the invariant is added: add one as wanted"),
    ("invariants", "severity"): ('harness invariant add "STATEMENT" --category CATEGORY --severity major',
                                 "a severity is fixed when the invariant is added: add one with the severity wanted"),
}


@dataclass(frozen=True)
class Disagreement:
    file: str
    field: str
    ledger: object
    found: object
    command: str
    note: str = ""  # why that command, when it is not the obvious one

    def message(self) -> str:
        return (f"{self.file}: {self.field}: ledger says {self.ledger!r}, file says {self.found!r}"
                f" — {self.fix()}")

    def fix(self) -> str:
        # The file is wrong, not the ledger: restore it first; the command is how the change is made legally.
        if self.command == RERENDER:
            # What the command is for stays outside the backticks: copied as written, it would be arguments.
            return f"use `{RERENDER}` (re-render from the ledger)"
        note = f" ({self.note})" if self.note else ""
        return f"restore the file with `harness replay --write`, then use `{self.command}`{note}"


def evidence_label(record: Mapping[str, Any]) -> str:
    outcome = record.get("outcome", "unknown")
    return {"passed": "PASS", "failed": "FAIL"}.get(outcome, outcome.upper())


def task_doc(p: Projection, spec: dict | None = None) -> dict:
    reqs, invs = list(p.requirements.values()), list(p.invariants.values())
    verification = {t: "unknown" for t in BASE_VERIFICATION}
    verification.update({t: evidence_label(r) for t, r in sorted(p.evidence.items())})
    findings = list(p.findings.values())
    gate = p.last_gate or {}
    return {"task": {
        "id": p.id, "title": p.title, "description": p.description, "state": p.state,
        "iteration": p.iteration, "max_iterations": p.max_iterations,
        "spec": spec if spec is not None else {"design": None, "plan": None},
        "requirements": {
            "total": len(reqs),
            "verified": sum(r["status"] == "verified" for r in reqs),
            "uncovered": [r["id"] for r in reqs if r["priority"] != "could" and not r["evidence"]],
        },
        "invariants": {
            "total": len(invs),
            "verified": sum(i["status"] == "verified" for i in invs),
            "violated": [i["id"] for i in invs if i["status"] == "violated"],
        },
        "verification": verification,
        "findings": {
            **{sev: sum(f["severity"] == sev and f["status"] not in CLOSED_FINDING for f in findings)
               for sev in ("critical", "major", "minor")},
            "confirmed": sum(f["status"] == "CONFIRMED" for f in findings),
            "proposed": sum(f["status"] == "PROPOSED" for f in findings),
        },
        "gate": {"status": gate.get("verdict", "unknown"), "blocked_by": list(gate.get("blockers", []))},
        "git": {"head": p.head},
        "timestamps": {"created_at": p.created_at, "updated_at": p.updated_at},
    }}


def requirements_doc(p: Projection, statements: dict[str, str] | None = None) -> dict:
    statements = statements or {}
    return {"requirements": [
        {"id": r["id"], "statement": statements.get(r["id"], r["statement"]), "source": r["source"],
         "priority": r["priority"], "status": r["status"], "evidence": list(r["evidence"]),
         **({"tests": list(r["tests"])} if "tests" in r else {})}
        for r in p.requirements.values()
    ]}


def invariants_doc(p: Projection, statements: dict[str, str] | None = None) -> dict:
    statements = statements or {}
    return {"invariants": [
        {"id": i["id"], "statement": statements.get(i["id"], i["statement"]), "category": i["category"],
         "severity": i["severity"], "status": i["status"], "verification": list(i["evidence"])}
        for i in p.invariants.values()
    ]}


def finding_doc(f: Finding) -> dict[str, Any]:
    """findings/F-NNNN.yaml: the proposal as recorded, with its lifecycle facts."""
    c = f["content"]
    repro, reg, run = f["reproduction"] or {}, f["regression_test"] or {}, f["regression_run"] or {}
    return {
        "id": f["id"], "type": c.get("type", "suspected_defect"), "severity": c["severity"],
        "category": c["category"], "status": f["status"], "title": c["title"], "claim": c["claim"],
        "related_requirements": list(c.get("related_requirements") or []),
        "related_invariants": list(c.get("related_invariants") or []),
        "location": {"file": (c.get("location") or {}).get("file"), "line": (c.get("location") or {}).get("line")},
        "failure_scenario": list(c["failure_scenario"]),
        "expected_behavior": c["expected_behavior"],
        "possible_actual_behavior": c.get("possible_actual_behavior", ""),
        "recommended_reproducer": dict(c["recommended_reproducer"]),
        "reproduction": {"command": repro.get("command"), "exit_code": repro.get("exit_code"), "evidence": repro.get("tree")},
        "attempts": [dict(a) for a in f["attempts"]],
        "regression_test": {"path": reg.get("path"), "command": reg.get("command"), "argv": reg.get("argv"),
                            **({"tests": list(reg["tests"])} if reg.get("tests") else {}),
                            **({"failing_at": reg["failing_at"]} if reg.get("failing_at") else {})},
        "fix": {"commit": f["fix_commit"]},
        "verification": {
            "regression": {"passed": "PASS", "failed": "FAIL"}.get(str(run.get("outcome")), "unknown"),
            "full_suite": "PASS" if f["full_suite"] else "unknown",
        },
        "rejected_reason": f["rejected_reason"],
    }



def freeform_of_task(doc: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """(title/description overrides, spec) as written in task.yaml."""
    task = doc.get("task") or {}
    return {k: task[k] for k in ("title", "description") if k in task}, task.get("spec")


def statements_of(doc: dict[str, Any], key: str) -> dict[str, str]:
    return {item["id"]: item["statement"] for item in doc.get(key) or []
            if isinstance(item, dict) and isinstance(item.get("id"), str) and isinstance(item.get("statement"), str)}


def compare(file: str, expected: object, found: object, path: str = "") -> list[Disagreement]:
    """Field-by-field differences; lists of items with ids are matched by id."""
    if isinstance(expected, dict) and isinstance(found, dict):
        out: list[Disagreement] = []
        for key in sorted(set(expected) | set(found), key=str):
            sub = f"{path}.{key}" if path else str(key)
            if key not in found:
                out.append(_dis(file, sub, expected[key], "<missing>"))
            elif key not in expected:
                out.append(_dis(file, sub, "<absent>", found[key]))
            else:
                out.extend(compare(file, expected[key], found[key], sub))
        return out
    if isinstance(expected, list) and isinstance(found, list) and _is_id_list(expected) and _is_id_list(found):
        want = {i["id"]: i for i in expected}
        have = {i["id"]: i for i in found}
        if len(have) != len(found):
            return [_dis(file, path, [i["id"] for i in expected], [i["id"] for i in found])]
        return compare(file, want, have, path)
    return [] if expected == found else [_dis(file, path, expected, found)]


def _is_id_list(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(i, dict) and "id" in i for i in value) and bool(value)


def _dis(file: str, path: str, ledger: object, found: object) -> Disagreement:
    parts = [p for p in path.split(".") if p != "task"]
    # The first path part that names a lifecycle field decides which command owns it.
    key = next((p for p in parts if p in FIX_COMMANDS), None)
    if key is None and "/findings/" in file:
        key = "findings"
    if key is None and file.endswith(("requirements.yaml", "invariants.yaml")):
        key = "requirements" if file.endswith("requirements.yaml") else "invariants"
    if key in ("requirements", "invariants") and parts and (key, parts[-1]) in FIXED_AT_ADD:
        command, note = FIXED_AT_ADD[(key, parts[-1])]
        if parts[-1] in ("priority", "severity") and found in (*PRIORITIES, *SEVERITIES):  # the value the edit wanted
            command = command.replace(f"--{parts[-1]} must", f"--{parts[-1]} {found}").replace(
                f"--{parts[-1]} major", f"--{parts[-1]} {found}")
        return Disagreement(file, path, ledger, found, command, note)
    return Disagreement(file, path, ledger, found, FIX_COMMANDS.get(key, RERENDER) if key else RERENDER)
