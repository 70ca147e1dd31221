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
    notes: list[str] = field(default_factory=list)      # what a job could not watch or protect, each said once
    said: set[str] = field(default_factory=set, repr=False)  # the notes above, to say each once

    @property
    def exit_code(self) -> int:
        return EXIT_REFUSED if self.refused else EXIT_INVALID if self.missing else 0

    def as_dict(self) -> dict[str, Any]:
        return {"plan": self.plan, "exit_code": self.exit_code, "passed": self.passed, "refused": self.refused,
                "no_verdict": self.missing, **({"notes": self.notes} if self.notes else {})}


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


def _shape_problem(doc: dict[str, Any], fields: dict[str, tuple[type, ...]]) -> str | None:
    """Why ``doc`` lacks a field the aggregate reads, or has it of another type (bool is no integer here), or None."""
    from harness.core.limits import json_kind

    for key, types in fields.items():
        if key not in doc:
            return f"field {key} is absent"
        value = doc[key]
        if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
            return f"field {key} is {json_kind(value)}"
    return None


def _items_problem(doc: dict[str, Any], key: str, required: dict[str, tuple[type, ...]],
                   optional: dict[str, tuple[type, ...]] | None = None) -> str | None:
    """Why an entry of the list ``doc[key]`` is not an object with the ``required`` fields (and the ``optional``
    ones, where present) of their types, or None."""
    from harness.core.limits import json_kind, type_problem

    for i, item in enumerate(doc[key]):
        if not isinstance(item, dict):
            return f"{key}[{i}] is {json_kind(item)}"
        problem = _shape_problem(item, required) or type_problem(item, optional or {})
        if problem:
            return f"{key}[{i}]: {problem}"
    return None


# What the aggregate reads of each file, and the types it reads them as: valid JSON of another shape is
# no plan and no verdict (exit 2, naming the file), never a crash (read 104's F-0366).
PLAN_FIELDS: dict[str, tuple[type, ...]] = {"failed": (int,), "history": (list,), "planned": (list,),
                                            "range": (dict, type(None))}
VERDICT_FIELDS: dict[str, tuple[type, ...]] = {"rerun_only": (str,), "results": (list,), "range": (dict,),
                                               "failed": (int,), "history": (list,), "could_not_run": (int,)}
ROW_FIELDS: dict[str, tuple[type, ...]] = {"commit": (str,), "ok": (bool,)}  # and `reruns`, a list, on the job's own


def plan_problem(doc: dict[str, Any]) -> str | None:
    """Why ``doc`` (a plan by its kind) is not one as `--plan --json` writes it, or None."""
    return _shape_problem(doc, PLAN_FIELDS) or _items_problem(doc, "planned", {"commit": (str,)})


def verdict_problem(doc: dict[str, Any]) -> str | None:
    """Why ``doc`` is not a verdict as `--rerun --only SHA --json` writes it, or None."""
    return _shape_problem(doc, VERDICT_FIELDS) or _items_problem(doc, "results", ROW_FIELDS, {"reruns": (list,)})


def _range_of(doc: dict[str, Any]) -> dict[str, Any] | None:
    """The range a plan or a verdict describes, as compared: every field but its free-text reason, lists of
    commits in one order. Two jobs over the same options compute the same; another --from, --before or --base,
    another mode, the whole history instead of a range, is another range (read 104's F-0365)."""
    scope = doc.get("range")
    if not isinstance(scope, dict):
        return None
    return {k: sorted(v) if isinstance(v, list) and all(isinstance(x, str) for x in v) else v
            for k, v in scope.items() if k != "reason"}


def _range_difference(plan: dict[str, Any] | None, verdict: dict[str, Any] | None) -> str:
    """What differs between the plan's range and a verdict's, for the message."""
    if plan is None or verdict is None:
        return f"range: {'none' if verdict is None else 'a range'} (the plan's: {'none' if plan is None else 'a range'})"
    keys = sorted(k for k in {*plan, *verdict} if plan.get(k) != verdict.get(k))
    return "; ".join(f"{k}: {str(verdict.get(k))[:60]} (the plan's: {str(plan.get(k))[:60]})" for k in keys[:4])


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
    problem = plan_problem(plan)
    if problem:
        out.missing.append(f"{plan_path}: not a plan as `harness audit --plan --json` writes it ({problem})")
        return out
    out.plan = str(plan_path)
    if plan_exit_code(plan):
        out.refused.append(f"{plan_path}: the range's checks refused {plan['failed']} commit(s)"
                           + (" and the push's history" if plan["history"] else ""))
    by_commit = _by_commit(verdicts, _range_of(plan), out)
    planned = [p["commit"] for p in plan["planned"]]
    for extra in sorted(set(by_commit) - set(planned)):
        out.missing.append(f"{extra[:12]}: a verdict for a commit the plan does not list")
    for commit in planned:
        _judge(commit, by_commit.get(commit, []), out)
    return out


def _by_commit(verdicts: list[tuple[Path, dict[str, Any]]], scope: dict[str, Any] | None,
               out: Aggregate) -> dict[str, list[tuple[Path, dict[str, Any]]]]:
    """The verdicts of the plan's range, by the commit each job re-ran; the others are no verdict."""
    by_commit: dict[str, list[tuple[Path, dict[str, Any]]]] = {}
    for path, doc in verdicts:
        problem = verdict_problem(doc)
        if problem:
            out.missing.append(f"{path}: not a verdict as `harness audit --rerun --only SHA --json` writes it "
                               f"({problem})")
        elif (theirs := _range_of(doc)) != scope or scope is None:
            out.missing.append(f"{path}: audited another range, not the plan's ({_range_difference(scope, theirs)})")
        else:
            by_commit.setdefault(doc["rerun_only"], []).append((path, doc))
    return by_commit


def _take_notes(path: Path, doc: dict[str, Any], out: Aggregate) -> None:
    """A job's own notes, said where its verdict is read, each once, on one line: a verdict file is anyone's text, and
    a line break or a terminal escape in it printed a line in the aggregate's own words (self-found 33's F-0583)."""
    notes = doc.get("notes")
    for note in notes if isinstance(notes, list) else ():
        if isinstance(note, str):
            said = f"{path}: " + "".join(c if c.isprintable() else repr(c)[1:-1] for c in note)
            if said not in out.said:
                out.said.add(said)
                out.notes.append(said)


def _judge(commit: str, verdicts: list[tuple[Path, dict[str, Any]]], out: Aggregate) -> None:
    if not verdicts:
        out.missing.append(f"{commit[:12]}: no verdict (its job did not run, or did not upload its --json)")
        return
    ok = True
    for path, doc in verdicts:  # a commit re-run twice passes only if every job reproduced
        _take_notes(path, doc, out)
        row = next((r for r in doc["results"] if r["commit"] == commit), None)
        if doc["failed"] or doc["history"] or (row is not None and not row["ok"]):
            out.refused.append(f"{commit[:12]}: refused ({path}: {doc['failed']} commit(s) failed)")
        elif row is None or "reruns" not in row:
            out.missing.append(f"{commit[:12]}: {path} does not show its re-runs")
        elif doc["could_not_run"]:
            out.missing.append(f"{commit[:12]}: {doc['could_not_run']} re-run(s) could not run ({path})")
        else:
            continue
        ok = False
    if ok:
        out.passed.append(commit)
