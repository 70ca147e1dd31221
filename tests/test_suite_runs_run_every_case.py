"""PASS_TO_PASS and FAIL_TO_PASS compare case lists, so their runs run every case (read 93's F-0341): a test
command with `-x`, `--maxfail=N` or `--sw` (on its command line or in the configuration's addopts) stops at the
first failure, and every case after it would read as missing."""

from __future__ import annotations

import pytest

from support.cli import gate_json
from support.gitrepo import commit_all_ok
from support.paths import PY
from support.protected_project import CALC, SUB, SUB_TEST, TEST_CMD, TESTS, protect, write
from support.records import record

WRAPPER = [PY, "run_tests.py", "-q", "-p", "no:cacheprovider", "--junitxml=.harness/local/junit.xml"]
STOPPING = {"-x": TEST_CMD + ["-x"], "maxfail": TEST_CMD + ["--maxfail=1"], "addopts": TEST_CMD, "wrapper": WRAPPER}


def stopping_base(h, repo, how: str) -> str:
    write(repo, {"calc.py": CALC, "tests/test_calc.py": TESTS,
                 **({"pytest.ini": "[pytest]\naddopts = --exitfirst\n"} if how in ("addopts", "wrapper") else {}),
                 "run_tests.py": "import sys\n\nimport pytest\n\nsys.exit(pytest.main(sys.argv[1:]))\n"})
    protect(repo, command=STOPPING[how])
    commit_all_ok(repo, "calc with tests, a test command that stops at the first failure")
    return h.ok("task", "new", "x").out.strip()


DIV_TEST = "\n\ndef test_div():\n    from calc import div\n    assert div(6, 3) == 2\n"


@pytest.mark.parametrize("how", sorted(STOPPING))
def test_a_second_new_test_is_collected_without_the_change(h, repo, how):
    stopping_base(h, repo, how)
    write(repo, {"calc.py": SUB + "\n\ndef div(a, b):\n    return a / b\n",
                 "tests/test_calc.py": TESTS + SUB_TEST + DIV_TEST})
    h.ok("requirement", "add", "sub(a, b) returns a - b", "--priority", "must")
    h.ok("requirement", "add", "div(a, b) returns a / b", "--priority", "must")
    h.ok("evidence", "unit_test")
    for rid, case in (("REQ-001", "test_sub"), ("REQ-002", "test_div")):
        h.ok("requirement", "set", rid, "--status", "verified", "--evidence", "unit_test",
             "--tests", f"tests/test_calc.py::{case}")
    assert h("evidence", "fail_to_pass").code == 0
    assert [b for b in gate_json(h)[1]["blockers"] if b.startswith("REQ-")] == []


@pytest.mark.parametrize("how", sorted(STOPPING))
def test_a_base_case_the_change_breaks_is_lost_and_no_case_after_it(h, repo, how):
    # Still refused: the broken case is lost; the cases after it ran and passed, and are not "missing".
    tid = stopping_base(h, repo, how)
    write(repo, {"calc.py": CALC.replace("return a + b", "return a - b")})
    r = h("evidence", "pass_to_pass")
    assert r.code == 1, r.text
    rec = record(repo, tid, "pass_to_pass")
    assert {item["case"]: item["how"] for item in rec["pass_to_pass"]["lost"]} == {
        "tests.test_calc::test_add": "failed"}, rec["pass_to_pass"]


def test_a_command_that_is_not_pytest_itself_runs_as_configured(h, repo):
    # A script that starts pytest is given no words of pytest's (it may take none): its pytest reads them from the
    # environment, so the run still goes past the first failure its addopts' --exitfirst would stop at.
    tid = stopping_base(h, repo, "wrapper")
    write(repo, {"calc.py": CALC.replace("return a + b", "return a - b")})
    assert h("evidence", "pass_to_pass").code == 1
    rec = record(repo, tid, "pass_to_pass")
    assert rec["argv"][1:] == WRAPPER[1:] and len(rec["pass_to_pass"]["lost"]) == 1, rec["pass_to_pass"]
