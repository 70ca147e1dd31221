"""Replay of the finding events: each step needs the fact the harness recorded for it.

The statuses each event may start from are :data:`harness.core.findings.STEPS`; the facts
(a failing reproducer, a failing-then-passing regression test, fresh full-suite evidence)
are checked here, against the same ledger's records.
"""

from __future__ import annotations

from collections.abc import Callable

from harness import paths
from harness.core import finding_binding, rules
from harness.core import findings as finding_rules
from harness.core.chain import LedgerProblem
from harness.core.records import Finding

TYPE_CHECKING = False  # typing's, without importing typing on a hot path (tests/test_layering.py)
if TYPE_CHECKING:
    from typing import Any

    from harness.core.replay import Projection

    Data = dict[str, Any]


def _proposed(proj: Projection, d: Data) -> None:
    fid = rules.need_id("finding", d["id"])
    if fid in proj.findings:
        raise LedgerProblem(f"finding {fid} already exists")
    content = dict(d["content"])
    rules.finding_content(fid, content)
    missing = finding_rules.reproducer_problem(content)
    if missing:
        raise LedgerProblem(f"finding {fid}: {missing}", finding_rules.REPRODUCER_HINT)
    proj.findings[fid] = Finding(**{
        "id": fid, "content": content, "severity": content["severity"], "status": "PROPOSED",
        "attempts": [], "reproduction": None, "regression_test": None, "regression_run": None,
        "fix_commit": None, "full_suite": None, "rejected_reason": None,
        "proposed_on": finding_binding.proposal_site(d),  # None in a ledger from before it was kept
    })


def finding_for(proj: Projection, fid: str, event: str) -> Finding:
    """The finding ``event`` acts on, refused when it does not exist or its status forbids the step."""
    if fid not in proj.findings:
        raise LedgerProblem(f"no finding {fid} in {proj.id}", "known findings: " + (", ".join(proj.findings) or "none"))
    f = proj.findings[fid]
    refusal = finding_rules.step_refusal(f, event)
    if refusal:
        raise LedgerProblem(*refusal)
    return f


def _move(f: Finding, target: str) -> None:
    problem = finding_rules.refusal(f["status"], target, f["id"])
    if problem:
        raise LedgerProblem(problem)
    f["status"] = target


def _reproduced(proj: Projection, d: Data) -> None:
    f = finding_for(proj, d["id"], "finding.reproduced")
    if d["outcome"] not in ("passed", "failed"):
        raise LedgerProblem(f"the reproducer did not run to an exit code ({d['outcome']}): nothing is concluded",
                            "fix the command; a run that never executed is not an attempt")
    if f["status"] == "PROPOSED":
        _move(f, "REPRODUCING")
    attempt = {k: d.get(k) for k in ("command", "argv", "exit_code", "outcome", "tree", "output_tail")}
    if d.get("program") is not None:  # which program ran (absent from attempts recorded before it was kept)
        attempt["program"] = d["program"]
    if d.get("aside"):  # on a tree a set-aside made: never the one to bring back (read 116's F-0415)
        attempt["aside"] = True
    site = f.get("proposed_on")
    if site and site["files"]:
        changed = finding_binding.changed_files(site["files"], d.get("files") or {})
        if changed:  # another script than the reviewer's ran under its name: an attempt, whatever it says
            attempt["changed"] = changed
    confirms = (d["outcome"] == "failed" and f["status"] != "REJECTED"
                and finding_binding.attempt_only(f, attempt) is None)
    decisive = confirms and f["severity"] in finding_rules.NEEDS_REPRODUCER
    # Only its reviewer's reproducer confirms a critical or major finding, as the CLI runs it (read 162's F-0566);
    # a proposal from before its site was kept decides as it did.
    _ran_as_recorded(f, d, "confirms" if decisive else None, bool(decisive and f.get("proposed_on")))
    f["attempts"].append(attempt)
    if f["status"] == "REJECTED":
        return  # a re-check of a rejection: the gate reads whether it still holds on its tree
    # The reproducer failed on the code it was proposed against, with its files as proposed: the defect is real.
    if confirms:
        # The commit it failed on top of: a regression test shown failing --failing-at a commit must
        # descend from it (#27's task F-0010). Not rendered: the finding's YAML stays as it was.
        f["reproduction"] = {**attempt, "head": d.get("head")}
        _move(f, "CONFIRMED")


def _ran_as_recorded(f: Finding, d: Data, decides: str | None, reviewers_only: bool) -> None:
    """Refuse run ``d`` of ``f`` when its argv is not the argument list its command text is: the rules read the
    text, while `finding verify` and the audit's re-run run the argv, so a run naming the reviewer's reproducer and
    holding `true` made `true` the confirming reproducer (read 162's F-0566). Where the text holds the redaction's
    marker the two differ honestly, but then the run decides nothing: not when it ``decides`` ("confirms",
    "reopens") a finding, nor when its text is the reviewer's command, which holds no secret (refused when
    proposed). ``reviewers_only``: only a run of the reviewer's reproducer may do what it ``decides``."""
    import shlex

    argv, command = d.get("argv"), d.get("command")
    recommended = finding_rules.recommended_command(f["content"])
    step = "reopen" if decides == "reopens" else "reproduce"
    hint = f"harness finding {step} {f['id']} (runs the reviewer's reproducer)"
    if argv and not (isinstance(argv, list) and all(isinstance(a, str) for a in argv)
                     and isinstance(command, str) and shlex.join(argv) == command):
        # Imported only here: `harness status` replays every ledger and loads no redaction rules (test_layering.py).
        from harness.core.redact import holds_marker

        redacted = isinstance(command, str) and holds_marker(command)
        if decides or not redacted or command == recommended:
            why = "; kept redacted, it decides nothing" if redacted else ""
            raise LedgerProblem(f"finding {f['id']}: the run's argv {argv!r} is not the argument list of its command "
                                f"`{command}`{why}: verify and the audit would run another command than the rules read",
                                hint)
    if reviewers_only and command != recommended:
        raise LedgerProblem(f"finding {f['id']} is {f['severity']}: only a run of its reviewer's reproducer "
                            f"{decides} it (`{recommended}`), not `{command}`", hint)


def _rejected(proj: Projection, d: Data) -> None:
    if d["id"] in proj.findings:
        f = proj.findings[d["id"]]
        problem = finding_rules.rejection_problem(f)
        if problem and f["status"] in ("PROPOSED", "REPRODUCING"):
            raise LedgerProblem(f"{f['id']} is {f['status']}: {problem}",
                                f"harness finding reproduce {f['id']} (runs the reviewer's reproducer; "
                                "a pass refutes the claim)")
    f = finding_for(proj, d["id"], "finding.rejected")
    rules.need_text(f"finding {f['id']}: rejecting needs a reason; the reason", d.get("reason"))
    _move(f, "REJECTED")
    f["rejected_reason"] = d["reason"]


def _regression(proj: Projection, d: Data) -> None:
    f = finding_for(proj, d["id"], "finding.regression")
    _attach(f, d)
    _move(f, "FIXING")


def _regression_replaced(proj: Projection, d: Data) -> None:
    """Another regression test for a finding past CONFIRMED (moved, renamed, rewritten): it must fail as the
    first did, and once a fix is claimed it must fail on a commit before the fix and pass now. Status kept."""
    f = finding_for(proj, d["id"], "finding.regression_replaced")
    if f["status"] in finding_rules.FIX_CLAIMED:
        if not d.get("failing_at"):
            raise LedgerProblem(f"finding {f['id']} is {f['status']}: the code is fixed, so its new regression test "
                                "can fail only on a commit before the fix", REPLACE_HINT.format(id=f["id"]))
        now = d.get("now") or {}
        if now.get("outcome") != "passed":
            raise LedgerProblem(f"finding {f['id']} is {f['status']}, but its new regression test {d['path']} does "
                                f"not pass on the fixed code ({now.get('outcome')}, exit {now.get('exit_code')})",
                                "a test that fails on the fixed code tests something else, or the fix does not hold")
    _attach(f, d)


def _regression_moved(proj: Projection, d: Data) -> None:
    """A fixed finding's regression test file moved unchanged (the harness compared its bytes with HEAD's at
    the old path): the test is the one attached, so it keeps the failing run it had; it must pass now."""
    f = finding_for(proj, d["id"], "finding.regression_moved")
    reg = f["regression_test"] or {}
    if d["moved_from"] != reg.get("path"):
        raise LedgerProblem(f"finding {f['id']}: its regression test is {reg.get('path')}, not {d['moved_from']}",
                            "a move names the file the finding's regression test is")
    path = rules.need_text(f"finding {f['id']}: the regression test path", d["path"])
    _in_source_tree(path)
    regression_command_runs(f["id"], path, d["command"])
    same = moved_command(reg, d["moved_from"], path)
    if (d.get("argv") if isinstance(same, list) else d["command"]) != same or \
            sorted(d.get("tests", [])) != sorted(moved_tests(reg, d["moved_from"], path)):
        raise LedgerProblem(f"finding {f['id']}: a moved regression test runs as it did: its command is the old one "
                            f"with {d['moved_from']} renamed {path}, not {d['command']!r}", MOVE_HINT.format(id=f["id"]))
    if d["outcome"] != "passed":
        raise LedgerProblem(f"finding {f['id']} is {f['status']}, but its moved regression test {path} does not pass "
                            f"({d['outcome']}, exit {d.get('exit_code')})", "a moved test runs as it did: check its command")
    f["regression_test"] = {**reg, "path": path, "command": d["command"], "argv": d.get("argv"), "moved_from": d["moved_from"],
                            **({"tests": rules.test_ids(f["id"], d["tests"])} if "tests" in d else {})}


def moved_command(reg: Data, old: str, new: str) -> list[str] | str | None:
    """The regression command ``reg`` recorded, with its test file renamed from ``old`` to ``new``: what a
    moved test runs (the argv when one was recorded, else the command's text)."""
    if reg.get("argv"):
        return [a.replace(old, new) for a in reg["argv"]]
    return reg["command"].replace(old, new) if isinstance(reg.get("command"), str) else None


def moved_tests(reg: Data, old: str, new: str) -> list[str]:
    """The test ids ``reg`` recorded, with their file renamed from ``old`` to ``new``: what a moved test runs."""
    return [t.replace(old, new) for t in reg.get("tests", [])]


MOVE_HINT = ("to run it otherwise, replace it instead: harness finding regression {id} PATH --failing-at "
             "COMMIT-BEFORE-THE-FIX -- COMMAND")
REPLACE_HINT = "harness finding regression {id} PATH --failing-at COMMIT-BEFORE-THE-FIX -- COMMAND-THAT-RUNS-IT"


def _attach(f: Finding, d: Data) -> None:
    """The regression test of ``f``, from a run that failed: on the tree as it was, or on --failing-at's
    commit with the test file as it is (``tree`` is then that overlay's)."""
    path = rules.need_text(f"finding {f['id']}: the regression test path", d["path"])
    _in_source_tree(path)
    regression_command_runs(f["id"], path, d["command"])
    if d["outcome"] != "failed":
        where = f" at {d['failing_at'][:12]}" if d.get("failing_at") else ""
        raise LedgerProblem(f"regression test {path} did not fail{where} ({d['outcome']}, exit {d.get('exit_code')}): "
                            "a regression test must fail when attached — it reproduces the bug before the fix",
                            "make the test fail on the current code, or give --failing-at a commit before the fix")
    f["regression_test"] = {"path": path, "command": d["command"], "argv": d.get("argv"),
                            "failed_tree": d.get("tree"), "failed_head": d.get("head"),
                            **({"failing_at": d["failing_at"]} if d.get("failing_at") else {}),
                            **({"tests": rules.test_ids(f["id"], d["tests"])} if "tests" in d else {})}


def _in_source_tree(path: str) -> None:
    if path.startswith("/") or paths.HARNESS in path.split("/") or ".." in path.split("/"):
        raise LedgerProblem(f"regression test {path}: a regression test lives in the source tree, not under .harness/",
                            "give its path relative to the repository root")


def regression_command_runs(fid: str, path: str, command: str | list[str]) -> None:
    """The command recorded for a regression test must name the test it runs."""
    shown = command if isinstance(command, str) else " ".join(command)
    if path not in shown and not _names(path, command):
        raise LedgerProblem(f"the regression command does not run {path}: {shown!r}",
                            f"harness finding regression {fid} {path} -- COMMAND-THAT-RUNS-IT")


def _names(path: str, command: str | list[str]) -> bool:
    """Whether an argument of ``command`` names ``path``: a recorded command is shell-quoted, so a
    path with a quote in it (it's_test.sh) reads differently in the joined text."""
    import shlex

    try:
        args = shlex.split(command) if isinstance(command, str) else command
    except ValueError:
        return False
    return any(path in arg for arg in args)


def _fixed(proj: Projection, d: Data) -> None:
    f = finding_for(proj, d["id"], "finding.fixed")
    _move(f, "FIXED")
    f["fix_commit"] = d.get("commit")


def _verified(proj: Projection, d: Data) -> None:
    f = finding_for(proj, d["id"], "finding.verified")
    reg, fid = d["regression"], f["id"]
    unreached = unreached_test(fid, f["regression_test"] or {}, reg)
    if unreached is not None:
        raise unreached
    if reg["outcome"] != "passed":
        raise LedgerProblem(f"regression test {(f['regression_test'] or {}).get('path')} still fails "
                            f"({reg['outcome']}, exit {reg.get('exit_code')}): verifying needs it to pass",
                            "the fix is not done; keep fixing")
    if reg.get("tree") == (f["regression_test"] or {}).get("failed_tree"):
        raise LedgerProblem(f"finding {fid}: the regression test passes on the very tree it failed on — "
                            "nothing was fixed (a flaky or environment-dependent test)",
                            "a test whose result changes without a code change is flaky or depends on the environment")
    repro = d.get("reproducer") or {}
    if f["reproduction"] and repro.get("outcome") != "passed":
        raise LedgerProblem(f"the reproducer that confirmed {fid} still fails ({repro.get('outcome')}, exit "
                            f"{repro.get('exit_code')}): `{f['reproduction'].get('command')}` — verifying needs it to pass now",
                            "the bug is not fixed — a regression test that now passes does not outvote it")
    suite = d["full_suite"]
    if suite.get("tree") != reg.get("tree"):
        raise LedgerProblem(f"finding {fid}: full-suite evidence must be fresh for the tree the regression test ran on")
    if not suite.get("types"):
        raise LedgerProblem(f"finding {fid}: verifying names no full-suite evidence")
    missing = [t for t in suite["types"] if (rec := proj.evidence.get(t)) is None
               or rec["outcome"] != "passed" or rec["tree"] != suite["tree"]]
    if missing:  # the claim must match evidence this same ledger recorded
        raise LedgerProblem(f"finding {fid}: full-suite evidence is not fresh and passing for: {', '.join(missing)}",
                            "re-collect it on this code: " + "; ".join(f"harness evidence {t}" for t in missing))
    if f["status"] != "CLOSED":  # a CLOSED one verified again on new code (read 96's F-0328) stays closed
        f["status"] = "VERIFIED"
    f["regression_run"], f["full_suite"] = dict(reg), dict(suite)


def no_test_ran(run: Data) -> str | None:
    """Why a failing run decided nothing about its test (pytest's exit 2-5, a summary that counts no failed
    test: :func:`harness.core.test_verdict.no_verdict`), or None: a test ran, or the run passed."""
    import shlex

    from harness.core.test_verdict import no_verdict

    if run.get("outcome") != "failed":
        return None
    argv = run.get("argv")
    if not argv:
        try:
            argv = shlex.split(run.get("command") or "")
        except ValueError:
            return None  # not a command pytest's words can be read from: its exit code decides
    return no_verdict(argv, run.get("exit_code"), run.get("output_tail"))


def unreached_test(fid: str, test: Data, run: Data, moved_to: str | None = None) -> LedgerProblem | None:
    """Why verifying ``fid`` on ``run`` of its regression test ``test`` is refused because the run reached no
    test: it neither passes nor fails, and "keep fixing" would loop on a fix that may be done (a test file
    moved with `git mv` is no longer where the command names it, F-0340). ``moved_to``: the file's new
    path, when the caller saw it moved unchanged; its hint then names the step in full. None: a test ran."""
    import shlex

    why = no_test_ran(run)
    if why is None:
        return None
    path = test.get("path")
    command = moved_command(test, path, moved_to) if moved_to and path else None
    if command:
        shown = shlex.join(command) if isinstance(command, list) else command
        hint = (f"{path} moved unchanged to {moved_to}: attached there, the test keeps the failing run it had\n"
                f"  next: harness finding regression {fid} {moved_to} -- {shown}")
    else:
        hint = ("if its file moved or was renamed, attach it where it is now; if it no longer collects, make it "
                f"collect (`pytest --collect-only NODE_ID`)\n  next: harness finding regression {fid} NEWPATH -- COMMAND")
    return LedgerProblem(f"regression test {path} ran no test (exit {run.get('exit_code')}: {why}): a run that "
                         f"reaches no test neither passes nor fails, so it does not verify {fid}", hint)


def _closed(proj: Projection, d: Data) -> None:
    _move(finding_for(proj, d["id"], "finding.closed"), "CLOSED")


def _reopened(proj: Projection, d: Data) -> None:
    """A fixed finding back to CONFIRMED: its reviewer's reproducer, run unchanged with its files as proposed,
    failed on later code. The fix's facts go (a new regression test must fail, then a fix); the run is kept."""
    f = finding_for(proj, d["id"], "finding.reopened")
    recommended = finding_rules.recommended_command(f["content"])
    if recommended is None:
        raise LedgerProblem(f"finding {f['id']} has no reviewer's reproducer: no run can show its defect is back",
                            "propose the defect again, with a reproducer, as a new finding")
    _ran_as_recorded(f, d, "reopens", True)
    attempt = {k: d.get(k) for k in ("command", "argv", "program", "exit_code", "outcome", "tree", "output_tail")}
    changed = finding_binding.changed_files((f.get("proposed_on") or {}).get("files") or {}, d.get("files") or {})
    if changed:
        raise LedgerProblem(f"finding {f['id']}: {', '.join(changed)} is not as its reviewer proposed it: a run "
                            "of it is not the reviewer's reproducer", "restore the reproducer's files as proposed")
    if d["outcome"] != "failed" or no_test_ran(d) is not None:
        raise LedgerProblem(f"finding {f['id']}'s reproducer did not fail ({d['outcome']}, exit {d.get('exit_code')}"
                            f"{': ' + str(no_test_ran(d)) if d['outcome'] == 'failed' else ''}): nothing reopens it",
                            "a finding is reopened only by a failing run of its reviewer's reproducer")
    f["attempts"].append(attempt)
    _move(f, "CONFIRMED")
    f["reproduction"] = {**attempt, "head": d.get("head")}
    f["regression_test"] = f["regression_run"] = f["fix_commit"] = f["full_suite"] = None


HANDLERS: dict[str, Callable[[Projection, Data], None]] = {
    "finding.proposed": _proposed,
    "finding.reproduced": _reproduced,
    "finding.rejected": _rejected,
    "finding.regression": _regression,
    "finding.regression_replaced": _regression_replaced,
    "finding.regression_moved": _regression_moved,
    "finding.fixed": _fixed,
    "finding.verified": _verified,
    "finding.closed": _closed,
    "finding.reopened": _reopened,
}
