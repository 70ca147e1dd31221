"""CI's re-run of PASS_TO_PASS and FAIL_TO_PASS: the base derived from history, not the ledger's word.

A forged ledger can name any base: the agent's own commit (tests already weakened there) or the
root (no test yet). CI derives the base from what it already judged, refuses a base outside that
history, and measures an older one against the newer derived base instead.
"""

from __future__ import annotations

import pytest

from harness.gitio.git import Git
from harness.gitio.tree_source import TreeSource
from harness.history.rerun.base_suite import execute_fail_to_pass, execute_pass_to_pass, measured_base
from harness.history.rerun.execute import CONTRADICTED, REPRODUCES, execute
from harness.history.rerun.plan import Planned
from harness.store import settings
from harness.store.layout import Layout

from support.gitrepo import commit_all_ok, git
from support.protected_project import (
    CALC,
    CHANGED,
    SPEC_CHANGE,
    SUB,
    SUB_TEST,
    TEST_CMD,
    TESTS,
    base_commit,
    protect,
    sign_suite_change,
    write,
)

JUNIT = ".harness/local/junit.xml"


def planned(repo, tid: str, kind: str, recorded_base: str, expect: str = "passed", cases=()) -> Planned:
    return Planned(tid, kind, kind, "rec", TEST_CMD, False, None, (expect, None), f"recorded {kind} {expect}", JUNIT,
                   recorded_base, settings.load_gate(Layout(repo)).suite, list(cases))


def run(kind: str, repo, sha: str, item: Planned, trusted: list[str]) -> tuple[dict, object]:
    from harness.signatures.trust import Signers

    g = Git(repo)
    src = TreeSource(g, g.commit_tree(sha), "commit")
    if kind == "pass_to_pass":
        return execute_pass_to_pass(g, src, item, sha, lambda line: None, trusted, signers=Signers())
    return execute_fail_to_pass(g, src, item, sha, lambda line: None, trusted)


def test_a_recorded_base_that_is_the_derived_one_is_measured(h, repo, base):
    start = base_commit(repo, base)
    write(repo, {"calc.py": CALC + "# faster\n"})
    sha = commit_all_ok(repo, "honest")
    row, problem = run("pass_to_pass", repo, sha, planned(repo, base, "pass_to_pass", start), [start])
    assert problem is None and row["result"] == REPRODUCES and row["base"] == start


def test_a_base_that_is_the_agents_own_commit_is_refused(h, repo, base):
    # The tests were weakened in a commit of the change itself, and the ledger names that commit as base.
    start = base_commit(repo, base)
    write(repo, SPEC_CHANGE)
    own = commit_all_ok(repo, "tampered")
    write(repo, {"calc.py": (repo / "calc.py").read_text() + "# more\n"})
    sha = commit_all_ok(repo, "on top")
    row, problem = run("pass_to_pass", repo, sha, planned(repo, base, "pass_to_pass", own), [start])
    assert row["result"] == CONTRADICTED and problem is not None
    assert "is not in the history this range builds on" in problem.message and start[:12] in problem.message


def test_an_older_base_gives_way_to_the_derived_one_and_its_tests(h, repo, tmp_path):
    # Base forged to the root, before any test existed: measured there, nothing is protected.
    root = git(repo, "rev-list", "--max-parents=0", "HEAD").stdout.split()[0]
    write(repo, {"calc.py": CALC, "tests/test_calc.py": TESTS})
    protect(repo)
    trusted = commit_all_ok(repo, "calc with tests")
    tid = h.ok("task", "new", "x").out.strip()
    write(repo, SPEC_CHANGE)
    sha = commit_all_ok(repo, "tampered")
    row, problem = run("pass_to_pass", repo, sha, planned(repo, tid, "pass_to_pass", root), [trusted])
    assert row["base"] == trusted and row["result"] == CONTRADICTED and problem is not None
    assert "tests.test_calc::test_mul (failed)" in row["lost"]


def test_without_history_to_derive_from_the_recorded_base_is_measured(h, repo, base):
    start = base_commit(repo, base)
    write(repo, SPEC_CHANGE)
    sha = commit_all_ok(repo, "tampered")
    row, problem = run("pass_to_pass", repo, sha, planned(repo, base, "pass_to_pass", start), [])
    assert row["base"] == start and row["result"] == CONTRADICTED and problem is not None


def test_the_derived_base_is_the_newest_commit_shared_with_the_trusted_history(h, repo, base):
    start = base_commit(repo, base)
    g = Git(repo)
    item = planned(repo, base, "pass_to_pass", start)
    write(repo, {"calc.py": CALC + "# a\n"})
    newer = commit_all_ok(repo, "main moved on")
    write(repo, {"calc.py": CALC + "# b\n"})
    sha = commit_all_ok(repo, "the change, on top")
    measured, how, refused = measured_base(g, item, sha, [start, newer])
    assert (measured, refused) == (newer, None) and "recorded" in how and "older" in how


# -- suite-change approvals in the re-run -----------------------------------------------------------------

def test_a_suite_change_approval_for_the_measured_base_excuses_its_cases(h, repo, approver):
    tid, key = approver
    start = base_commit(repo, tid)
    sign_suite_change(repo, tid, CHANGED, key)
    write(repo, SPEC_CHANGE)
    sha = commit_all_ok(repo, "mul's spec changed, approved")
    row, problem = run("pass_to_pass", repo, sha, planned(repo, tid, "pass_to_pass", start), [start])
    assert problem is None and row["result"] == REPRODUCES and row["base"] == start and row["lost"] == []


def test_a_suite_change_approval_for_an_older_base_excuses_nothing_on_a_newer_one(h, repo, approver):
    # The task was opened on the older commit and fast-forwarded to main: its approval speaks to the older
    # base's cases, and the re-run measures the cases as the newer base (derived from history) has them.
    tid, key = approver
    start = base_commit(repo, tid)
    write(repo, {"calc.py": CALC + "# main moved on\n"})
    newer = commit_all_ok(repo, "main moved on")
    sign_suite_change(repo, tid, CHANGED, key)
    write(repo, SPEC_CHANGE)
    sha = commit_all_ok(repo, "mul's spec changed")
    row, problem = run("pass_to_pass", repo, sha, planned(repo, tid, "pass_to_pass", start), [newer])
    assert row["base"] == newer and row["result"] == CONTRADICTED and problem is not None
    assert {f"{case} (failed)" for case in CHANGED} <= set(row["lost"])


# -- FAIL_TO_PASS measured again ------------------------------------------------------------------------

@pytest.mark.parametrize("case, contradicted", [("tests.test_calc::test_sub", False), ("tests.test_calc::test_add", True)])
def test_ci_refuses_a_proving_case_that_passes_without_the_change(h, repo, base, case, contradicted):
    start = base_commit(repo, base)
    write(repo, {"calc.py": SUB, "tests/test_calc.py": TESTS + SUB_TEST})
    sha = commit_all_ok(repo, "sub, with its test")
    row, problem = run("fail_to_pass", repo, sha, planned(repo, base, "fail_to_pass", start, cases=[case]), [start])
    assert (row["result"] == CONTRADICTED) is contradicted and (problem is not None) is contradicted
    assert [case in g and "passes without the change" in g for g in row["gaps"]] == ([True] if contradicted else [])


def test_the_suites_run_must_show_every_proving_case_passing(h, repo, base):
    g = Git(repo)
    write(repo, {"calc.py": SUB, "tests/test_calc.py": TESTS + SUB_TEST})
    sha = commit_all_ok(repo, "sub, with its test")
    with g.temp_worktree(sha) as path:
        item = Planned(base, "evidence", "unit_test", "rec", TEST_CMD, False, None, ("passed", 0), "recorded", JUNIT,
                       cases=["tests.test_calc::test_sub", "tests.test_calc::test_gone"])
        row, problem = execute(item, path, sha, lambda line: None)
    assert row["result"] == CONTRADICTED and row["cases_not_passed"] == ["tests.test_calc::test_gone"]
    assert problem is not None and "tests.test_calc::test_gone" in problem.message


def test_the_plan_re_measures_fail_to_pass_with_the_cases_a_verdict_leans_on(h, repo, base):
    from harness.history.rerun.plan import plan
    from harness.store import reader

    write(repo, {"calc.py": SUB, "tests/test_calc.py": TESTS + SUB_TEST})
    h.ok("requirement", "add", "sub works", "--priority", "must")
    h.ok("evidence", "unit_test")
    h.ok("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "unit_test",
         "--tests", "tests/test_calc.py::test_sub")
    sha = commit_all_ok(repo, "sub")
    g = Git(repo)
    src = TreeSource(g, g.commit_tree(sha), "commit")
    items = plan(src, sha, reader.load_task(src, base), settings.parse_gate(src.read(".harness/gate.yaml")), [])
    by_kind = {i.what: i for i in items}
    assert by_kind["fail_to_pass"].cases == ["tests.test_calc::test_sub"]
    assert by_kind["unit_test"].cases == ["tests.test_calc::test_sub"]


def test_the_audit_hands_the_history_it_judged_to_the_re_run(h, repo, base, monkeypatch):
    from harness.history.audit import run_audit
    from harness.history.rerun import execute as rerun
    from harness.signatures.trust import Signers

    seen: list = []
    monkeypatch.setattr(rerun, "rerun_done", lambda git, commit, report, signers, runs, stream, trusted, job: seen.append(trusted) or [])
    start = base_commit(repo, base)
    write(repo, {"calc.py": CALC + "# x\n"})
    sha = commit_all_ok(repo, "x")
    report = run_audit(Git(repo), [sha], "audit", Signers(), rerun=True, stamp=False, scope={"excluded": [start]})
    assert seen == [[start]] and not report.failed


# -- found by a third adversarial review (F-0022..F-0033 of TASK-20261203-1dafdf) --------------------

def test_ci_refuses_a_proving_case_never_collected_without_the_change(h, repo, base):
    start = base_commit(repo, base)
    write(repo, {"calc.py": SUB, "tests/test_calc.py": TESTS + SUB_TEST})
    sha = commit_all_ok(repo, "sub, with its test")
    item = planned(repo, base, "fail_to_pass", start, cases=["tests.test_calc::test_never_written"])
    row, problem = run("fail_to_pass", repo, sha, item, [start])
    assert row["result"] == CONTRADICTED and problem is not None and "not collected" in problem.message


def test_ci_refuses_a_fail_to_pass_record_when_no_case_can_run_without_the_change(h, repo, base):
    start = base_commit(repo, base)
    # Every test imports a module the commit does not hold (ignored where it was written): none runs anywhere.
    write(repo, {"calc.py": SUB, "tests/test_calc.py": "from _generated import K\n" + TESTS + SUB_TEST})
    sha = commit_all_ok(repo, "sub, tests that need a generated module")
    item = planned(repo, base, "fail_to_pass", start, cases=["tests.test_calc::test_sub"])
    row, problem = run("fail_to_pass", repo, sha, item, [start])
    assert row["result"] == CONTRADICTED and problem is not None and "no case passed" in problem.message
    assert "not code the change adds" in problem.message, problem.message


def test_ci_accepts_no_case_passing_without_the_change_when_the_only_module_imports_the_change_s_code(h, repo, base):
    # Read 93's F-0338, measured again: every test imports a module the change adds, so on the base's source none
    # runs; the base's own tests run here, so that is the change's doing.
    start = base_commit(repo, base)
    write(repo, {"newmod.py": "def sub(a, b):\n    return a - b\n",
                 "tests/test_calc.py": "from newmod import sub\n" + TESTS + SUB_TEST.replace("from calc import sub", "pass")})
    sha = commit_all_ok(repo, "sub in a new module")
    item = planned(repo, base, "fail_to_pass", start, cases=["tests.test_calc::test_sub"])
    row, problem = run("fail_to_pass", repo, sha, item, [start])
    assert row["result"] == REPRODUCES and problem is None, row


def test_a_feature_branchs_earlier_push_is_no_base_to_derive_from(h, repo, base):
    start = base_commit(repo, base)
    git(repo, "switch", "-q", "-c", "feature")
    write(repo, SPEC_CHANGE)
    earlier_push = commit_all_ok(repo, "tampered, pushed to the feature branch")
    write(repo, {"calc.py": (repo / "calc.py").read_text() + "# more\n"})
    sha = commit_all_ok(repo, "the DONE commit, pushed next")
    row, problem = run("pass_to_pass", repo, sha, planned(repo, base, "pass_to_pass", start), [earlier_push])
    assert row["base"] == start and row["result"] == CONTRADICTED and problem is not None


# -- an old test the change's conftest.py stops on the base's source (F-0349) -----------------------------------

@pytest.mark.parametrize("case, contradicted", [("tests.test_sub::test_sub", False), ("tests.test_calc::test_add", True)])
def test_ci_refuses_an_old_case_a_conftest_import_failure_stops_without_the_change(h, repo, base, case, contradicted):
    # CI judges as the local gate does: test_add passed in the base's own run, so the conftest that cannot import sub
    # there does not make it fail without the change; the new test_sub, which the base never had, does.
    start = base_commit(repo, base)
    write(repo, {"calc.py": SUB, "tests/conftest.py": "from calc import sub  # noqa: F401\n",
                 "tests/test_sub.py": "from calc import sub\n\n\ndef test_sub():\n    assert sub(5, 3) == 2\n"})
    sha = commit_all_ok(repo, "sub, with a conftest importing it")
    row, problem = run("fail_to_pass", repo, sha, planned(repo, base, "fail_to_pass", start, cases=[case]), [start])
    assert (row["result"] == CONTRADICTED) is contradicted and (problem is not None) is contradicted, row
    assert [case in g and "passes without the change" in g for g in row["gaps"]] == ([True] if contradicted else [])
