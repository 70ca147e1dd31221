"""The quality gate: a pure function from task facts to a verdict.

No model judges anything here. Every blocker is data (:class:`harness.core.blockers.Blocker`): its
check, its kind, what it is about, and a sentence naming the item and the rule;
PASS is only the absence of blockers across all ten checks, in the order of gate_checks.CHECKS.
"""

from __future__ import annotations

import json
import posixpath
from collections.abc import Mapping, Sequence

from harness.core.blockers import Blocker
from harness.core.sha256 import sha256
from harness.core.value_class import dataclass, field

TYPE_CHECKING = False  # typing's, without importing typing on a hot path (tests/test_layering.py)
if TYPE_CHECKING:
    from typing import Any

DECIDING_STATES = ("GATING", "CONVERGED", "DONE")
LABELS = {
    "build": "Build", "lint": "Lint", "typecheck": "Typecheck", "unit_test": "Unit Tests",
    "integration_test": "Integration Tests", "contract_test": "Contract Tests",
    "security": "Security", "review": "Review", "custom": "Custom", "pass_to_pass": "Pass to Pass",
    "fail_to_pass": "Fail to Pass",
}


@dataclass(frozen=True)
class GateInput:
    state: str
    requirements: Sequence[Mapping[str, Any]]  # Requirement: id, priority, status, evidence[]
    invariants: Sequence[Mapping[str, Any]]    # Invariant: id, severity, status, evidence[]
    evidence: dict[str, dict[str, Any]]        # type -> validated evidence record
    pending: dict[str, list[str]]   # type -> started_at of runs prepared but never recorded
    findings: Sequence[Mapping[str, Any]]      # Finding + regression_fresh
    policy: dict                    # the `gate:` mapping of gate.yaml
    tree: str                       # the source tree being judged
    # type -> the argv config.yaml names, through the redaction evidence records go through
    configured: dict[str, list[str]] = field(default_factory=dict)
    # type -> command_digest of config.yaml's own (unredacted) command: see evidence_status
    configured_digests: dict[str, str] = field(default_factory=dict)
    plan: dict[str, list[str]] = field(default_factory=dict)        # REQ/INV id -> contract's verified_by
    # type -> case id -> outcome, for FAIL_TO_PASS (present when a requirement names test cases)
    cases: dict[str, dict[str, str]] = field(default_factory=dict)
    # evidence types config.yaml names now but not at the task's base, with no human approval of it
    introduced: Sequence[str] = field(default_factory=list)
    # {"commit": the task's base, "shallow": bool} when the cited custom types need the base and the repository
    # lacks it (a shallow clone's history stops before it, or the history was rewritten since)
    base_unread: dict[str, Any] | None = None
    # the commit whose commands stood for the base's, when the base predates the harness (reported, not judged)
    adopted_at: str | None = None
    # the commit whose change of config.yaml no approval covers, where the chain of approvals from the base breaks at
    # a commit (None: at the judged tree's own change, or nowhere)
    config_unapproved_at: str | None = None
    # what config.yaml, in a tree no commit holds yet (the working tree, the index), changes from HEAD's that the commit
    # hook refuses with no approval to cover it: {"changes": field names, "rules": commit rules, "why": str | None}
    config_unapproved: dict[str, Any] | None = None


@dataclass
class GateReport:
    verdict: str = "PASS"
    rows: list[tuple[str, str]] = field(default_factory=list)   # (check, result) table
    blockers: list[Blocker] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)              # reported, not blocking
    programs: dict[str, str] = field(default_factory=dict)      # type -> the program its evidence ran

    def block(self, blocker: Blocker) -> None:
        self.blockers.append(blocker)
        self.verdict = "BLOCKED"

    def as_dict(self, tree: str) -> dict:
        return {"verdict": self.verdict, "tree": tree, "checks": [{"check": c, "result": r} for c, r in self.rows],
                "blockers": [b.text for b in self.blockers], "notes": list(self.notes), "programs": dict(self.programs)}


def state_blocker(state: str) -> str:
    """The blocker a task outside the deciding states gets: it says only "not in GATING yet"."""
    return f"state {state}: the gate decides only in GATING"


def command_identity(argv: list[str], junit: str | None, shell: bool) -> dict[str, Any]:
    """What makes a run the configured check: its argv, unredacted; the JUnit report whose failures
    fail it; and, for a command given as one string, whether a shell runs it (with a shell it is a
    script, without one the name of a program)."""
    return {"argv": list(argv), "junit": posixpath.normpath(junit) if junit else None, "shell": shell}


def command_digest(identity: Mapping[str, Any]) -> str:
    """sha-256 of a :func:`command_identity`. An evidence record keeps it only for a run of
    config.yaml's own command (committed text, no secret of the run's), so the gate can tell
    apart two commands that redaction made look alike, and a run without the configured report."""
    return sha256(json.dumps(identity, ensure_ascii=False, sort_keys=True).encode("utf-8")).hexdigest()


def evidence_status(record: dict | None, tree: str, pending: list[str],
                    configured: list[str] | None = None,
                    configured_digest: str | None = None) -> tuple[str, str | None]:
    """(status, why) for one evidence type against ``tree``: PASS, FAIL, STALE, MISSING,
    UNKNOWN (a run never reported), CHANGED (the source changed while it ran), OTHER (not
    the command config.yaml names for this type)."""
    if pending:
        return "UNKNOWN", f"a run started {pending[-1]} never recorded an outcome (harness crashed or was killed)"
    if record is None:
        return "MISSING", None
    if configured is not None and configured_digest is not None and "command_digest" in record:
        # The digest `harness evidence` took of the unredacted command it ran, kept only for
        # config.yaml's own: a redaction pattern matching whole arguments (`.+`) makes any
        # command of the same length look like the configured one, and a secret-named variable
        # whose value is an argument makes the configured one look like another.
        if record["command_digest"] != configured_digest:
            return "OTHER", (f"it ran `{record['command']}`, not the configured `{' '.join(configured)}` as "
                             "config.yaml names it (with its JUnit report and shell, where it names them)")
    # Records from before the digest: equal, element by element, after the same redaction. A
    # marker stands for one known value, never for whatever was there.
    elif configured is not None and record.get("argv") != configured:
        return "OTHER", f"it ran `{record['command']}`, not the configured `{' '.join(configured)}`"
    if record["outcome"] != "passed":
        return "FAIL", f"{record['outcome']} (exit {record.get('exit_code')})"
    if record.get("tree_after") == record["tree"]:
        return "CHANGED", ("a file of the source was written while it ran (or a folder of it renamed) and its tree is "
                           f"{record['tree'][:12]} again: what passed is not that tree for certain")
    if record.get("tree_after"):
        return "CHANGED", (f"the source changed while it ran ({record['tree'][:12]} → {record['tree_after'][:12]}): "
                           "what passed is neither version for certain")
    if record["tree"] != tree:
        return "STALE", f"collected on source tree {record['tree'][:12]}, the source is now {tree[:12]}"
    return "PASS", None


def label(etype: str) -> str:
    """The report's name of a type: a built-in type's, or `Custom: NAME` for a named custom type."""
    return LABELS.get(etype) or f"Custom: {etype.removeprefix('custom.')}"


def judged_types(g: GateInput) -> list[str]:
    """The built-in types, then every named custom type anything here speaks of: gate.yaml, config.yaml,
    a record, a run never reported, or a citation."""
    named = {*g.policy["verification"], *g.configured, *g.evidence, *g.pending,
             *(t for item in [*g.requirements, *g.invariants] for t in item["evidence"])}
    return [*LABELS, *sorted(named - set(LABELS))]


PHRASE = {"PASS": "passing", "FAIL": "failing", "STALE": "stale", "MISSING": "missing",
          "UNKNOWN": "of unknown outcome", "CHANGED": "from a run during which the source changed",
          "OTHER": "not from the configured command"}


def evaluate(g: GateInput) -> GateReport:
    from harness.core.gate_checks import CHECKS, Judging  # the checks read this module's vocabulary

    statuses = {t: evidence_status(g.evidence.get(t), g.tree, g.pending.get(t, []), g.configured.get(t),
                                   g.configured_digests.get(t))
                for t in judged_types(g)}
    judging = Judging(g, statuses, stale_ok=not g.policy["evidence"]["must_match_head"])
    report = GateReport(programs={t: ran_program(rec) for t, rec in sorted(g.evidence.items())})
    for _name, check in CHECKS:
        result = check(judging)
        report.rows += result.rows
        report.notes += result.notes
        for blocker in result.blockers:
            report.block(blocker)
    return report


def ran_program(record: dict[str, Any]) -> str:
    """What a record says ran, by its resolved path: `python3` names whichever comes first on PATH."""
    program = record.get("program")
    if not program:
        return "program not recorded" if record.get("outcome") != "not_found" else "program not found"
    real = record.get("program_real")
    return program + (f" → {real}" if real else "")
