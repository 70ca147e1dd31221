"""`harness audit --rerun`: re-execute everything a DONE verdict rests on, at that commit.

The only defence against a fully consistent forgery (records and ledger both rewritten to
agree) and against a laptop whose environment bent a run: execute again, elsewhere, on
exactly the committed tree — the configured evidence commands, the reviewer's reproducer
of every rejected finding (it must still pass: the claim stays refuted), the reproducer
and the regression test of every verified or closed finding (both must pass) — in a
temporary worktree, with a clean environment, and compare with the record.

Each run has one of three results: "reproduces"; "does not reproduce" (the record is
contradicted: a refusal); "could not run" (this machine lacks what the command needs: a
setup problem to fix here, not a verdict about the work).
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Callable
from pathlib import Path
from typing import Any

from harness import runner
from harness.core.redact import Redactor
from harness.errors import HarnessError
from harness.gitio.git import Git
from harness.gitio.tree_source import TreeSource
from harness.guard.history import CommitReport
from harness.guard.rerun_plan import Planned, plan, redactor
from harness.guard.validate import Problem
from harness.store import reader, settings

REPRODUCES, CONTRADICTED, UNRUNNABLE = "reproduces", "does not reproduce", "could not run"
# What a CI machine may pass on: where programs are, who and where it is, how text is encoded.
# Everything else (PYTHONPATH, PYTEST_ADDOPTS, GIT_*, LD_PRELOAD, …) could bend the run.
KEPT_ENV = ("PATH", "HOME", "USER", "LOGNAME", "LANG", "LC_ALL", "LC_CTYPE", "TMPDIR", "TEMP", "TMP", "TERM",
            "SHELL", "SYSTEMROOT", "CI")
# Output that says the program or module is missing from this machine, not that it judged the code.
MISSING_TOOL = ("command not found", "No module named", ": not found", "is not recognized as")


def clean_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k in KEPT_ENV}


def classify(result: runner.RunResult, expect: tuple[str | None, int | None]) -> str:
    outcome, code = expect
    if result.outcome == outcome and (code is None or result.exit_code == code):
        return REPRODUCES
    tail = (result.combined.head + result.combined.tail).decode("utf-8", "replace")
    if result.outcome in ("not_found", "not_executable") or result.exit_code in (126, 127) \
            or (result.outcome == "failed" and any(m in tail for m in MISSING_TOOL)):
        return UNRUNNABLE  # never a success either: exit 2
    return CONTRADICTED


def execute(item: Planned, cwd: Path, commit: str, stream: Callable[[str], None],
            hide: Redactor | None = None) -> tuple[dict, Problem | None]:
    shown = item.command if isinstance(item.command, str) else shlex.join(item.command)
    shown = hide.redact(shown) if hide else shown
    stream(f"{commit[:12]} {item.task} {item.kind} {item.what}: `{shown}` in {cwd} …")
    try:
        report = _fresh_report(cwd, item.junit)
        result = runner.run_command(item.command, shell=item.shell, cwd=cwd, timeout=item.timeout,
                                    env=clean_env(), echo=False)
        result = _judged_by_report(result, report)
    except HarnessError as exc:
        stream(f"  → {UNRUNNABLE}: {exc.message}")
        return ({"task": item.task, "kind": item.kind, "what": item.what, "command": shown, "cwd": str(cwd),
                 "commit": commit, "result": UNRUNNABLE, "error": exc.message}, None)
    verdict = classify(result, item.expect)
    stream(f"  → {verdict} ({result.outcome}, exit {result.exit_code}, {result.duration_s:.1f}s)")
    row = {"task": item.task, "kind": item.kind, "what": item.what, "command": shown, "cwd": str(cwd),
           "commit": commit, "expected": item.expect[0], "outcome": result.outcome, "exit_code": result.exit_code,
           "duration_s": round(result.duration_s, 3), "result": verdict}
    return row, _contradiction(item, commit, verdict, f"re-run `{shown}` {result.outcome} (exit {result.exit_code})",
                               "re-run it honestly, fix the code or the finding, and re-gate")


def _contradiction(item: Planned, commit: str, verdict: str, found: str, remedy: str) -> Problem | None:
    """The refusal a run that contradicts its record makes (None for any other verdict)."""
    if verdict != CONTRADICTED:
        return None
    return Problem(item.record, "rerun-reproduces", f"{item.task} at {commit[:12]}: {item.claim}; {found} — {CONTRADICTED}",
                   f"the record does not reproduce on a clean machine: {remedy}")


def _fresh_report(cwd: Path, junit: str | None) -> Path | None:
    """Where the run writes its JUnit report, with none there yet (an earlier run's would pass for it)."""
    if not junit:
        return None
    report = cwd / junit
    report.unlink(missing_ok=True)
    report.parent.mkdir(parents=True, exist_ok=True)
    return report


def _judged_by_report(result: runner.RunResult, report: Path | None) -> runner.RunResult:
    """As `harness evidence` judges a run: exit 0 does not outvote a report of failures, or no report."""
    import dataclasses

    from harness.junit import parse_junit

    if report is None or result.outcome != "passed":
        return result
    try:
        counts = parse_junit(report) if report.exists() else None
    except HarnessError:
        counts = None
    if counts and counts["tests"] and not counts["failed"] and not counts["errors"]:
        return result
    return dataclasses.replace(result, outcome="failed")


def execute_pass_to_pass(git: Git, src: TreeSource, item: Planned, commit: str,
                         stream: Callable[[str], None]) -> tuple[dict, Problem | None]:
    """PASS_TO_PASS measured again at ``commit`` against the task's base, in CI's clean environment."""
    from harness.pass_to_pass import remeasure

    stream(f"{commit[:12]} {item.task} pass_to_pass: the base's protected files over the commit, base "
           f"{(item.base or 'none')[:12]} …")
    row: dict[str, Any] = {"task": item.task, "kind": item.kind, "what": item.what, "commit": commit,
                           "expected": item.expect[0]}
    try:
        from harness.pass_to_pass import approved_cases

        excusable = approved_cases(git, item.base, src.read(".harness/approvals.jsonl"), [src]) if item.base else set()
        outcome, lost = remeasure(git, commit, item.base, item.suite or {}, settings.config_of(src), clean_env(),
                                  excusable)
    except HarnessError as exc:
        outcome, lost, row["error"] = None, [], exc.message
    verdict = UNRUNNABLE if outcome is None else REPRODUCES if outcome == item.expect[0] else CONTRADICTED
    row.update(outcome=outcome, lost=[f"{c} ({how})" for c, how in lost[:20]], result=verdict)
    stream(f"  → {verdict} ({outcome or 'no report'}, {len(lost)} base case(s) lost)")
    return row, _contradiction(item, commit, verdict, f"measured again it {outcome} ({len(lost)} base case(s) lost: "
                               f"{', '.join(row['lost'][:5])})", "restore the tests as the base had them (or have a "
                               "human approve the change), fix the code, and re-gate")


def rerun_done(git: Git, commit: str, report: CommitReport, runs: list | None = None,
               stream: Callable[[str], None] | None = None) -> list[Problem]:
    """Re-run what every task this commit marks DONE rests on; rows are appended to ``runs``."""
    done = [v for v in report.gated() if v.after == "DONE"]
    if not done:
        return []
    runs = runs if runs is not None else []
    stream = stream or (lambda line: None)
    src = TreeSource(git, git.commit_tree(commit), f"commit {commit[:12]}")
    policy = settings.parse_gate(src.read(".harness/gate.yaml") or b"")
    problems: list[Problem] = []
    planned = [p for v in done for p in plan(src, commit, reader.load_task(src, v.id), policy, problems)]
    if not planned:
        return problems
    hide = redactor(src)
    with git.temp_worktree(commit) as path:
        for item in planned:
            if item.kind == "pass_to_pass":
                row, problem = execute_pass_to_pass(git, src, item, commit, stream)
            else:
                row, problem = execute(item, path, commit, stream, hide)
            runs.append(row)
            if problem:
                problems.append(problem)
    return problems
