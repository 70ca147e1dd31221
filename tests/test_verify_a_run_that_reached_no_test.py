"""`harness finding verify` on a regression run that reached no test (F-0340).

After `git mv` of a fixed finding's regression test, verify re-runs the recorded command on the old path: pytest
exits 4 (no such file). That run neither passes nor fails, yet it was reported as the test still failing, with
"keep fixing" and verify named again: an agent following it loops on a fix that is done. Such a run is said to
have run no test and names `harness finding regression` (the new path and command in full when the file moved
unchanged); it never verifies. A test that really still fails keeps its words."""

from __future__ import annotations

import shlex

import yaml

from support.cli import walk_to
from support.flows import finding, propose
from support.gitrepo import commit_ok, git
from support.paths import PY
from support.records import append_event, ledger_bytes, tdir

TEST, MOVED = "test_neg.py", "test_negative.py"
NEG = "from calc import neg\n\n\ndef test_neg():\n    assert neg(2) == -2\n"


def _fixed(h, repo, tmp_path) -> list[str]:
    """F-0001 FIXED: its pytest regression test, run by node id, failed when attached and is committed with the
    fix. Returns the regression command."""
    (repo / "calc.py").write_text("def neg(a):\n    return a\n", "utf-8")
    h.ok("requirement", "add", "neg(a) is -a", "--priority", "must")
    walk_to(h, "SPECIFYING", "PLANNED", "IMPLEMENTING", "VERIFYING", "REVIEWING")
    propose(h, tmp_path, {"findings": [finding("neg is wrong", "neg(2) is 2", "import sys; sys.exit(1)", "minor")]})
    h.ok("finding", "reproduce", "F-0001")
    (repo / TEST).write_text(NEG, "utf-8")
    command = [PY, "-m", "pytest", "-q", "-p", "no:cacheprovider", f"{TEST}::test_neg"]
    h.ok("finding", "regression", "F-0001", TEST, "--", *command)
    walk_to(h, "REPRODUCING", "FIXING")
    (repo / "calc.py").write_text("def neg(a):\n    return -a\n", "utf-8")
    h.ok("finding", "fixed", "F-0001")
    git(repo, "add", "-A")
    commit_ok(repo, "neg, with its regression test")
    return command


def _status(h, repo, task) -> str:
    return yaml.safe_load((tdir(repo, task) / "findings" / "F-0001.yaml").read_text("utf-8"))["status"]


def test_verify_after_the_test_moved_says_no_test_ran_and_names_the_test_at_its_new_path(h, repo, task, tmp_path):
    command = _fixed(h, repo, tmp_path)
    git(repo, "mv", TEST, MOVED)
    ledger = ledger_bytes(repo, task)
    r = h("finding", "verify", "F-0001")
    assert r.code == 1, r.text
    assert f"regression test {TEST} ran no test (exit 4" in r.err and "does not verify F-0001" in r.err, r.text
    assert "still fails" not in r.err and "keep fixing" not in r.err and "finding verify" not in r.err, r.text
    renamed = shlex.join([a.replace(TEST, MOVED) for a in command])
    assert f"next: harness finding regression F-0001 {MOVED} -- {renamed}" in r.err, r.text
    assert ledger_bytes(repo, task) == ledger and _status(h, repo, task) == "FIXED"
    # the way out it names works: the moved test is attached where it is, and passes
    h.ok("finding", "regression", "F-0001", MOVED, "--", *shlex.split(renamed))
    assert _status(h, repo, task) == "FIXED"


def test_a_test_moved_and_changed_gets_the_step_without_a_path_it_cannot_be_sure_of(h, repo, task, tmp_path):
    _fixed(h, repo, tmp_path)
    git(repo, "mv", TEST, MOVED)
    (repo / MOVED).write_text(NEG + "\n\ndef test_zero():\n    assert neg(0) == 0\n", "utf-8")
    r = h("finding", "verify", "F-0001")
    assert r.code == 1 and "ran no test (exit 4" in r.err and "keep fixing" not in r.err, r.text
    assert "next: harness finding regression F-0001 NEWPATH -- COMMAND" in r.err and MOVED not in r.err, r.text
    assert _status(h, repo, task) == "FIXED"


def test_a_regression_test_that_really_still_fails_still_says_keep_fixing(h, repo, task, tmp_path):
    _fixed(h, repo, tmp_path)
    (repo / "calc.py").write_text("def neg(a):\n    return a\n", "utf-8")  # the fix undone: the test runs and fails
    r = h("finding", "verify", "F-0001")
    assert r.code == 1 and f"regression test {TEST} still fails (failed, exit 1)" in r.err, r.text
    assert "keep fixing" in r.err and "ran no test" not in r.err, r.text
    assert _status(h, repo, task) == "FIXED"


def test_replay_never_verifies_on_a_run_that_reached_no_test(h, repo, task, tmp_path):
    command = _fixed(h, repo, tmp_path)
    run = {"command": shlex.join(command), "argv": command, "exit_code": 5, "outcome": "failed", "tree": "0" * 40,
           "head": None, "output_tail": "no tests ran in 0.01s\n"}
    append_event(repo, task, "finding.verified",
                 {"id": "F-0001", "regression": run, "full_suite": {"types": ["unit_test"], "tree": "0" * 40},
                  "reproducer": None})
    r = h("replay")
    assert r.code == 2 and f"regression test {TEST} ran no test (exit 5" in r.err and "keep fixing" not in r.err, r.text
