"""Audit commits like the push guard: validate each, re-run what a DONE verdict rests on, stamp."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from harness.errors import EXIT_INVALID, HarnessError

if TYPE_CHECKING:  # hook paths import lazily: these are for the annotations only
    from harness.gitio.git import Git
    from harness.history.change_rules import Problem
    from harness.history.incoming import CommitReport
    from harness.history.rerun.isolation import Job
    from harness.history.rerun.sealed import Sealed
    from harness.signatures.trust import Signers


@dataclass
class AuditResult:
    title: str                               # what the caller is ("audit", "push guard", "pre-receive")
    commits: list[str]
    rows: list[dict[str, Any]] = field(default_factory=list)  # one per commit, as --json prints it
    problems: list[tuple[str, list[Problem]]] = field(default_factory=list)  # (commit, its problems)
    note_disagreements: list[tuple[str, str, str]] = field(default_factory=list)  # (commit, note said, recomputed)
    unrunnable: int = 0                      # re-runs this machine could not run
    scope: dict[str, Any] | None = None      # the range and why it was chosen
    history: list[Problem] = field(default_factory=list)  # the ref replaced rather than extended (rewrite.py)
    rerun_only: str | None = None            # --only: the one commit this job re-ran
    stdout: str | None = None                # the file under stdout was replaced while the re-runs ran (F-0364)
    notes: list[str] = field(default_factory=list)  # what the re-run job could not watch or protect here

    @property
    def failed(self) -> bool:
        return bool(self.problems or self.history)

    @property
    def exit_code(self) -> int:
        """0 clean, 1 refused, 2 a re-run could not run (never a success over what was not checked)."""
        return 1 if self.failed else (EXIT_INVALID if self.unrunnable else 0)

    def as_dict(self) -> dict[str, Any]:
        return {**({"range": self.scope} if self.scope else {}), "checked": list(self.commits),
                "commits": len(self.commits), "failed": sum(not r["ok"] for r in self.rows),
                "could_not_run": self.unrunnable, "results": self.rows, "history": [p.as_dict() for p in self.history],
                **({"rerun_only": self.rerun_only} if self.rerun_only else {}),
                **({"stdout": self.stdout} if self.stdout else {}), **({"notes": self.notes} if self.notes else {})}


def run_audit(git: Git, commits: list[str], title: str, signers: Signers, rerun: bool = False, stamp: bool = True,
              scope: dict[str, Any] | None = None, note_of: Callable[[str], dict[str, Any] | None] | None = None,
              stream: Callable[[str], None] | None = None, rerun_only: str | None = None,
              seal: Sealed | None = None) -> AuditResult:
    """``signers``: whose approvals count beyond each parent's allowed_signers (the command's trust root).
    ``rerun_only``: with ``rerun``, re-run that commit alone (a fan-out job); every commit is still
    checked, the others' re-runs are left to their own jobs and said so, and only that one is stamped.
    ``seal``: armed before the job's guard is made, which precedes every re-run (:func:`sealed`)."""
    from harness.history import stamp as stamping
    from harness.history.incoming import check_commit

    result = AuditResult(title, list(commits), scope=scope, rerun_only=rerun_only if rerun else None)
    job = _job(git, commits, rerun_only, seal) if rerun else None
    if rerun:
        signers.settle()
    for commit in commits:
        _left_running(job, result, f"checking {commit[:12]}", stream)
        report = check_commit(git, commit, signers)
        reruns: list[dict[str, Any]] = []
        unrunnable = 0
        row: dict[str, Any] = {}
        this_job = rerun_only is None or commit == rerun_only
        if rerun and this_job and not report.problems:
            unrunnable = _rerun(git, commit, report, reruns, scope, stream, job, signers)
            result.unrunnable += unrunnable
        # A re-run this machine could not run checked nothing: the commit is not stamped PASS on it.
        verdict = "REFUSED" if report.problems else "UNCHECKED" if unrunnable else "PASS"
        note = note_of(commit) if note_of else None  # read before our own stamp replaces it
        if stamp and this_job and report.gated():
            try:
                stamping.stamp(git, commit, signers, {"verdict": verdict})
            except HarnessError:
                pass  # a note is a record, not the proof: the verdict above stands either way
        if report.problems:
            result.problems.append((commit, list(report.problems)))
        row.update(commit=commit, ok=not report.problems, problems=[p.as_dict() for p in report.problems],
                   gated={v.id: v.gate.verdict for v in report.gated() if v.gate is not None})
        if rerun and this_job:
            row["reruns"] = reruns
        elif rerun:
            row["rerun"] = f"not in this job (--only {(rerun_only or '')[:12]})"
        if note is not None:
            row["note"] = note_summary(note, verdict)
            if not row["note"]["agrees"] and verdict != "UNCHECKED":  # nothing recomputed to disagree with
                said = row["note"]["verdict"] + (f" ({row['note']['problem']})" if "problem" in row["note"] else "")
                result.note_disagreements.append((commit, said, verdict))
        result.rows.append(row)
    _left_running(job, result, "the report", stream)
    if job is not None and job.guard is not None:
        result.notes = list(job.guard.said)  # said as the job went; a fan-out job's document carries them too
    return result


def sealed() -> Sealed:
    """What keeps the auditing process from code its re-runs could write (read 164's F-0563), for the whole command
    (the audit and its report): handed to :func:`run_audit`, which arms it before the first re-run is prepared; an
    audit that re-runs nothing pays nothing for it (the preload is over a second)."""
    from harness.history.rerun.sealed import Sealed

    return Sealed()


def _left_running(job: Job | None, result: AuditResult, before: str, stream: Callable[[str], None] | None) -> None:
    """What the job's re-runs rely on, compared again before ``before``: a process a re-run left (one that left its
    group too) may have changed it since that run was judged (read 68's F-0230). Poisoning: nothing more runs, and
    the job's verdict cannot stand (could not run, exit 2, unless a commit was refused anyway)."""
    from harness.history.rerun.execute import POISON_REMEDY

    guard = job.guard if job is not None else None
    if guard is None or guard.baseline is None or guard.poisoned is not None:
        return
    found = guard.left_behind(before)
    if found:
        result.unrunnable += 1
        if result.rows:
            result.rows[-1]["left_running"] = found[:20]
        if stream:
            stream(f"  → poisoning: {guard.poisoned}; nothing more runs in this job — {POISON_REMEDY}")


def _rerun(git: Git, commit: str, report: CommitReport, reruns: list[dict[str, Any]], scope: dict[str, Any] | None,
           stream: Callable[[str], None] | None, job: Job | None, signers: Signers) -> int:
    """Re-run what ``commit``'s DONE rests on (rows into ``reruns``, refusals into its report), under
    the job's one guard; how many runs could not run."""
    from harness.history.rerun.execute import UNRUNNABLE, rerun_done

    # What the audit already judged (a push's previous tip, a pull request's target): the
    # history PASS_TO_PASS's base is derived from, never the ledger's word alone.
    trusted = (scope or {}).get("excluded") or []
    assert job is not None  # made whenever the audit re-runs
    report.problems.extend(rerun_done(git, commit, report, signers, reruns, stream, trusted, job))
    return sum(r["result"] == UNRUNNABLE for r in reruns)


def _job(git: Git, commits: list[str], rerun_only: str | None, seal: Sealed | None) -> Job:
    """The audit's one re-run job. Its guard is made before the first re-run (none if nothing is
    re-run), fingerprinting the interpreters every commit's configured commands start, a later
    commit's own included, before anything runs; ``seal`` is armed first: nothing a re-run could write
    exists yet, and from then on the audit loads no module."""
    from harness.history.rerun.isolation import Job, RerunGuard, configured_programs

    def make() -> RerunGuard:
        if seal is not None:
            seal.arm()
        # A seal that cannot hold: nothing runs in this job (could not run), not even a probe (read 171's F-0580).
        return RerunGuard(git, configured_programs(git, [rerun_only] if rerun_only else commits),
                          poisoned=seal.reachable if seal is not None else None)

    return Job(make)


def note_summary(note: dict[str, Any], verdict: str) -> dict[str, Any]:
    """What the commit's note says of it, beside the recomputed verdict. A stamp without a verdict
    of its own says BLOCKED only for a task it holds in CONVERGED or DONE without a gate pass: a
    task still in progress is blocked by its state, which says nothing against the commit. A note
    whose values have not their types (anyone can write a note) says nothing, and is reported so."""
    from harness.core.states import GATED_STATES

    problem = note_problem(note)
    if problem:
        return {"verdict": "UNREADABLE", "agrees": False, "problem": problem}
    tasks = note.get("tasks") or {}
    held = [t for t in tasks.values() if t.get("state") in GATED_STATES]
    said = note.get("verdict") or ("PASS" if all(t.get("gate") in (None, "PASS") for t in held) else "BLOCKED")
    return {"verdict": said, "agrees": (said == "PASS") == (verdict == "PASS")}


def note_problem(note: dict[str, Any]) -> str | None:
    """Why ``note`` is not a stamp as the harness writes one (the fields the audit reads), or None."""
    from harness.core.limits import json_kind, type_problem

    problem = type_problem(note, {"verdict": (str,), "tasks": (dict,)})
    if problem:
        return problem
    for tid, task in (note.get("tasks") or {}).items():
        if not isinstance(task, dict):
            return f"tasks.{tid[:80]} is {json_kind(task)}"
        problem = type_problem(task, {"state": (str,), "gate": (str,)})
        if problem:
            return f"tasks.{tid[:80]}: {problem}"
    return None
