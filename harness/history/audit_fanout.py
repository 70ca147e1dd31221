"""`harness audit --rerun` fanned out over CI jobs: plan, one commit per job, aggregate.

`--plan` checks every commit of the range as the audit does (no re-run) and lists the commits
that mark a task DONE with what a re-run would execute at each. Each job then runs `--rerun
--only SHA` (one commit's re-runs; the range's checks again, which are cheap). `--aggregate`
reads the plan and the jobs' `--json` verdicts and passes only when the plan's checks passed
and every planned commit has a verdict of its own, from a job over the same range, that
reproduced: a missing verdict is never a pass.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from harness.errors import EXIT_INVALID, EXIT_REFUSED

if TYPE_CHECKING:
    from harness.gitio.git import Git
    from harness.history.change_rules import Problem
    from harness.signatures.trust import Signers

PLAN_KIND = "harness-audit-plan"


def plan_audit(git: Git, commits: list[str], scope: dict[str, Any], history: list[Problem],
               signers: Signers) -> dict[str, Any]:
    """The plan (as `--plan --json` prints it): every commit checked (approvals against ``signers``, the
    audit's trust root, else each parent's allowed_signers), nothing re-run, nothing stamped."""
    from harness.history.incoming import check_commit
    from harness.history.rerun.execute import done_tasks, planned_runs

    rows, planned = [], []
    for commit in commits:
        report = check_commit(git, commit, signers)
        problems = [p.as_dict() for p in report.problems]
        rows.append({"commit": commit, "ok": not problems, "problems": problems,
                     "gated": {v.id: v.gate.verdict for v in report.gated() if v.gate is not None}})
        if not done_tasks(report):
            continue
        unplanned: list[Problem] = []
        _, runs = planned_runs(git, commit, report, unplanned)
        planned.append({"commit": commit, "tasks": done_tasks(report), "checks_ok": not problems,
                        "runs": [{"task": r.task, "kind": r.kind, "what": r.what} for r in runs],
                        # what the re-run job will refuse before running anything (e.g. no configured command)
                        "rerun_problems": [p.as_dict() for p in unplanned]})
    return {"kind": PLAN_KIND, "range": scope, "checked": list(commits), "commits": len(commits),
            "failed": sum(not r["ok"] for r in rows), "history": [p.as_dict() for p in history],
            "results": rows, "rerun": "planned, not run: each planned commit's re-run is `harness audit "
            "--rerun --only SHA` over the same range", "planned": planned,
            "matrix": [p["commit"] for p in planned]}


def plan_exit_code(doc: dict[str, Any]) -> int:
    """As an audit without --rerun: 1 when a commit's checks or the push's history were refused."""
    return EXIT_REFUSED if doc["failed"] or doc["history"] else 0


@dataclass
class Aggregate:
    plan: str | None = None                   # the plan's file
    refused: list[str] = field(default_factory=list)    # what says the work does not hold (exit 1)
    missing: list[str] = field(default_factory=list)    # what leaves a verdict unknown (exit 2)
    passed: list[str] = field(default_factory=list)     # planned commits whose job reproduced

    @property
    def exit_code(self) -> int:
        return EXIT_REFUSED if self.refused else EXIT_INVALID if self.missing else 0

    def as_dict(self) -> dict[str, Any]:
        return {"plan": self.plan, "exit_code": self.exit_code, "passed": self.passed, "refused": self.refused,
                "no_verdict": self.missing}


def _load(path: Path, out: Aggregate) -> dict[str, Any] | None:
    from harness.core.limits import decode_json

    try:
        doc = decode_json(path.read_text("utf-8"))
    except (OSError, ValueError) as exc:
        out.missing.append(f"{path}: not a JSON verdict ({exc})")
        return None
    if not isinstance(doc, dict):
        out.missing.append(f"{path}: not a JSON object")
        return None
    return doc


def aggregate(paths: list[Path]) -> Aggregate:
    """Judge a fanned-out re-run from its plan and the jobs' verdicts (files in any order)."""
    out = Aggregate()
    docs = [(p, d) for p in paths if (d := _load(p, out)) is not None]
    plans = [(p, d) for p, d in docs if d.get("kind") == PLAN_KIND]
    if len(plans) != 1:
        out.missing.append(f"{len(plans)} plan(s) among the files (`harness audit --plan --json`): exactly one "
                           "is needed, to know which commits must have a verdict")
        return out
    (plan_path, plan), verdicts = plans[0], [(p, d) for p, d in docs if d.get("kind") != PLAN_KIND]
    out.plan = str(plan_path)
    if plan_exit_code(plan):
        out.refused.append(f"{plan_path}: the range's checks refused {plan['failed']} commit(s)"
                           + (" and the push's history" if plan["history"] else ""))
    by_commit: dict[str, list[tuple[Path, dict[str, Any]]]] = {}
    tip = (plan.get("range") or {}).get("tip")
    for path, doc in verdicts:
        only = doc.get("rerun_only")
        if not isinstance(only, str) or not isinstance(doc.get("results"), list):
            out.missing.append(f"{path}: not the --json of `harness audit --rerun --only SHA`")
        elif (doc.get("range") or {}).get("tip") != tip:
            out.missing.append(f"{path}: audited a range ending at {str((doc.get('range') or {}).get('tip'))[:12]}, "
                               f"not the plan's ({str(tip)[:12]})")
        else:
            by_commit.setdefault(only, []).append((path, doc))
    planned = [p["commit"] for p in plan.get("planned") or []]
    for extra in sorted(set(by_commit) - set(planned)):
        out.missing.append(f"{extra[:12]}: a verdict for a commit the plan does not list")
    for commit in planned:
        _judge(commit, by_commit.get(commit, []), out)
    return out


def _judge(commit: str, verdicts: list[tuple[Path, dict[str, Any]]], out: Aggregate) -> None:
    if not verdicts:
        out.missing.append(f"{commit[:12]}: no verdict (its job did not run, or did not upload its --json)")
        return
    ok = True
    for path, doc in verdicts:  # a commit re-run twice passes only if every job reproduced
        row = next((r for r in doc["results"] if isinstance(r, dict) and r.get("commit") == commit), None)
        if doc.get("failed") or doc.get("history") or (row is not None and not row.get("ok")):
            out.refused.append(f"{commit[:12]}: refused ({path}: {doc.get('failed')} commit(s) failed)")
        elif row is None or "reruns" not in row:
            out.missing.append(f"{commit[:12]}: {path} does not show its re-runs")
        elif doc.get("could_not_run"):
            out.missing.append(f"{commit[:12]}: {doc['could_not_run']} re-run(s) could not run ({path})")
        else:
            continue
        ok = False
    if ok:
        out.passed.append(commit)
