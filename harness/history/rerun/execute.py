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

The job's re-runs are kept on their commit's own code and apart from each other by one
:class:`~harness.history.rerun.isolation.RerunGuard`: a run whose interpreter would import the
repository's code from the checkout, or that follows a run which changed what it relies on
(poisoning), could not run.
"""

from __future__ import annotations

import contextlib
import shlex
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from harness import paths, runner
from harness.core import value_class
from harness.core.redact import Redactor
from harness.errors import HarnessError
from harness.gitio.git import Git
from harness.gitio.tree_source import TreeSource
from harness.history.change_rules import Problem
from harness.history.incoming import CommitReport
from harness.history.rerun.plan import Planned, plan, redactor
from harness.runner import clean_env
from harness.store import reader, settings

if TYPE_CHECKING:
    from harness.history.rerun.isolation import Job, RerunGuard
    from harness.signatures.trust import Signers

REPRODUCES, CONTRADICTED, UNRUNNABLE = "reproduces", "does not reproduce", "could not run"
# Output that says the program or module is missing from this machine, not that it judged the code.
MISSING_TOOL = ("command not found", "No module named", ": not found", "is not recognized as")
POISON_REMEDY = ("an evidence command must leave CI's machine as it found it: install nothing into its interpreter, "
                 "PATH or HOME, write nothing into the folders above its worktree (its TMPDIR is a folder of its own; "
                 "build into a folder — `pip wheel . -w dist`, `python -m build` — not `pip install .`), "
                 "or fan the re-run out, one job per commit on a fresh runner (docs/ci.md)")
# Where programs find their temporary folder: POSIX's TMPDIR; TEMP and TMP, which Python's tempfile reads too.
TEMP_VARS = ("TMPDIR", "TEMP", "TMP")


@contextlib.contextmanager
def own_folders(env: Mapping[str, str]) -> Iterator[dict[str, str]]:
    """``env`` with a fresh, empty bytecode cache folder (`PYTHONPYCACHEPREFIX`) and temporary folder (:data:`TEMP_VARS`)
    of the run's own, removed after. Its interpreters neither read a `__pycache__` another run could have planted a
    cache in (one whose header matches its source's size and time is trusted), nor write one for a later run to read.
    What its tools write into their temporary folder (a `node_modules`, a `pytest.ini`) is in no folder above a later
    run's worktree, where node and pytest would find it, and is gone before the next run (read 86's F-0298)."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="harness-pycache-") as cache, \
            tempfile.TemporaryDirectory(prefix="harness-tmp-", ignore_cleanup_errors=True) as tmp:
        yield {**env, "PYTHONPYCACHEPREFIX": cache, **dict.fromkeys(TEMP_VARS, tmp)}


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
            hide: Redactor | None = None, env: Mapping[str, str] | None = None) -> tuple[dict, Problem | None]:
    """Run ``item`` in ``cwd`` (in ``env``: default :func:`clean_env`) and judge it against its record."""
    shown = item.command if isinstance(item.command, str) else shlex.join(item.command)
    shown = hide.redact(shown) if hide else shown
    stream(f"{commit[:12]} {item.task} {item.kind} {item.what}: `{shown}` in {cwd} …")
    try:
        report = _fresh_report(cwd, item.junit)
        with own_folders(env if env is not None else clean_env()) as run_env:
            result = runner.run_command(item.command, shell=item.shell, cwd=cwd, timeout=item.timeout, env=run_env,
                                        echo=False, reap=True)
        result, unproved = _judged_by_report(result, report, item.cases, cwd)
    except HarnessError as exc:
        stream(f"  → {UNRUNNABLE}: {exc.message}")
        return ({"task": item.task, "kind": item.kind, "what": item.what, "command": shown, "cwd": str(cwd),
                 "commit": commit, "result": UNRUNNABLE, "error": exc.message}, None)
    verdict = classify(result, item.expect)
    if unproved and verdict == REPRODUCES:  # the run passed, without a case the verdict leans on
        verdict, result = CONTRADICTED, value_class.replace(result, outcome="failed")
    stream(f"  → {verdict} ({result.outcome}, exit {result.exit_code}, {result.duration_s:.1f}s)")
    row: dict[str, Any] = {"task": item.task, "kind": item.kind, "what": item.what, "command": shown, "cwd": str(cwd),
           "commit": commit, "expected": item.expect[0], "outcome": result.outcome, "exit_code": result.exit_code,
           "duration_s": round(result.duration_s, 3), "result": verdict}
    if unproved:
        row["cases_not_passed"] = unproved[:20]
    found = f"re-run `{shown}` {result.outcome} (exit {result.exit_code})" + (
        f"; case(s) the verdict leans on did not pass: {', '.join(unproved[:5])}" if unproved else "")
    return row, contradiction(item, commit, verdict, found,
                               "re-run it honestly, fix the code or the finding, and re-gate")


def contradiction(item: Planned, commit: str, verdict: str, found: str, remedy: str) -> Problem | None:
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


def _judged_by_report(result: runner.RunResult, report: Path | None, cases: Sequence[str],
                      cwd: Path) -> tuple[runner.RunResult, list[str]]:
    """As `harness evidence` judges a run: exit 0 does not outvote a report of failures, or no report.
    Also: of ``cases`` (what FAIL_TO_PASS leans on), those the report does not show passing."""
    from harness.evidence.junit import parse_report
    from harness.evidence.record import tree_relative

    if report is None or result.outcome != "passed":
        return result, []
    try:
        counts, outcomes = parse_report(report) if report.exists() else (None, {})
    except HarnessError:
        counts, outcomes = None, {}
    outcomes = tree_relative(outcomes, cwd)
    unproved = [c for c in cases if outcomes.get(c) != "passed"]
    if counts and counts["tests"] and not counts["failed"] and not counts["errors"]:
        return result, unproved
    return value_class.replace(result, outcome="failed"), unproved


def done_tasks(report: CommitReport) -> list[str]:
    """The tasks this commit marks DONE: what `--rerun` re-executes the verdicts of."""
    return [v.id for v in report.gated() if v.after == "DONE"]


def planned_runs(git: Git, commit: str, report: CommitReport,
                 problems: list[Problem]) -> tuple[TreeSource | None, list[Planned]]:
    """What `--rerun` would execute at ``commit`` (nothing run); what cannot be planned goes to ``problems``."""
    done = done_tasks(report)
    if not done:
        return None, []
    src = TreeSource(git, git.commit_tree(commit), f"commit {commit[:12]}")
    policy = settings.parse_gate(src.read(paths.GATE) or b"")
    return src, [p for tid in done for p in plan(src, commit, reader.load_task(src, tid), policy, problems)]


def rerun_done(git: Git, commit: str, report: CommitReport, signers: Signers, runs: list | None = None,
               stream: Callable[[str], None] | None = None, trusted: Sequence[str] = (),
               job: Job | None = None) -> list[Problem]:
    """Re-run what every task this commit marks DONE rests on; rows are appended to ``runs``.
    ``signers``: the audit's trust root (approvals of a suite change are verified against it, else
    against the commit's allowed_signers).
    ``trusted``: commits whose history this audit already judged (PASS_TO_PASS's base is derived from it).
    ``job``: the audit's, whose one guard keeps its re-runs apart and on the commit's own code (made
    when a first run is planned); without one, a guard for this commit's runs alone."""
    from harness.history.rerun.isolation import RerunGuard, first_word

    runs = runs if runs is not None else []
    stream = stream or (lambda line: None)
    problems: list[Problem] = []
    src, planned = planned_runs(git, commit, report, problems)
    if src is None or not planned:
        return problems
    guard = job.get() if job is not None else RerunGuard(git)
    from harness.history.rerun.script_pythons import scripted_pythons

    scripted = [p for item in planned for p in scripted_pythons(item.command, src.read_or_none)]  # (#24's F-0010, F-0011)
    guard.learn([*(p for item in planned if (p := first_word(item.command))), *scripted])
    for note in guard.notes():
        stream(f"note: {note}")
    todo = list(planned)
    try:
        with git.temp_worktree(commit) as path:
            _run_planned(git, src, commit, path, todo, guard, runs, problems, stream, trusted, signers)
    except HarnessError as exc:  # the worktree could not be made as the commit records it (a submodule)
        for item in todo:
            runs.append(_not_run(item, commit, exc.message + (f" — {exc.hint}" if exc.hint else ""), stream))
    return problems


def _run_planned(git: Git, src: TreeSource, commit: str, path: Path, todo: list[Planned], guard: RerunGuard,
                 runs: list, problems: list[Problem], stream: Callable[[str], None], trusted: Sequence[str],
                 signers: Signers) -> None:
    """Run ``todo`` (emptied as it goes) in the worktree ``path``, each checked by ``guard`` after."""
    from harness.history.rerun.base_suite import execute_fail_to_pass, execute_pass_to_pass

    hide = redactor(src)
    try:
        env: dict[str, str] | None = guard.verified_env(path, clean_env())
        refused = None
    except HarnessError as exc:
        env, refused = None, exc.message + (f" — {exc.hint}" if exc.hint else "")
    while todo:
        item = todo.pop(0)
        blocked = guard.poisoned or (refused if item.kind not in ("pass_to_pass", "fail_to_pass") else None)
        if blocked:
            runs.append(_not_run(item, commit, blocked, stream))
            continue
        if item.kind == "pass_to_pass":
            row, problem = execute_pass_to_pass(git, src, item, commit, stream, trusted, guard.verified_env,
                                                signers=signers)
        elif item.kind == "fail_to_pass":
            row, problem = execute_fail_to_pass(git, src, item, commit, stream, trusted, guard.verified_env)
        else:
            if env is not None:  # a module an earlier command (the build) generated in the tree is no more absent
                guard.release_built(path)
            row, problem = execute(item, path, commit, stream, hide, env)
            if env is not None and (tree := guard.imports_from(path)):  # the checkout's code, from the tree instead
                row["imports_from"] = tree
        _checked(guard, item, commit, row, stream)
        runs.append(row)
        if problem:
            problems.append(problem)


def _checked(guard: RerunGuard, item: Planned, commit: str, row: dict, stream: Callable[[str], None]) -> None:
    """After a run: what it changed of what later runs rely on makes it poisoning (could not run,
    unless it was contradicted anyway: a refusal stands)."""
    shown = f"`{row['command']}`" if row.get("command") else item.kind
    changed = guard.after(commit, f"{item.task} {item.what} {shown}")
    if not changed:
        return
    row["poisoned"] = changed[:20]
    if row.get("result") != CONTRADICTED:
        row["result"] = UNRUNNABLE
        row["error"] = f"{guard.poisoned} — {POISON_REMEDY}"
    stream(f"  → poisoning: {guard.poisoned}; nothing more runs in this job — {POISON_REMEDY}")


def _not_run(item: Planned, commit: str, why: str, stream: Callable[[str], None]) -> dict[str, Any]:
    stream(f"{commit[:12]} {item.task} {item.kind} {item.what}: not run → {UNRUNNABLE}: {why}")
    return {"task": item.task, "kind": item.kind, "what": item.what, "commit": commit, "result": UNRUNNABLE,
            "error": why}
