"""Evidence that proves nothing fails: a log edited after it was recorded fails replay, and a JUnit report listing no test case fails the run."""

from __future__ import annotations

import hashlib

import pytest

from support.processes import py
from support.records import record


def test_log_edited_after_it_was_recorded_fails_replay_but_a_missing_log_does_not(h, repo, task):
    assert h("evidence", "build", "--", *py("print('built ok')")).code == 0
    rec = record(repo, task, "build")
    path = repo / ".harness/tasks" / task / "evidence/build.log"
    assert rec["log_digest"] == hashlib.sha256(path.read_bytes()).hexdigest()
    assert h("replay").code == 0
    path.write_text("built ok, honestly\n")
    r = h("replay")
    assert r.code == 2 and "build.log" in r.err and "edited after it was recorded" in r.err
    path.unlink()
    r = h("replay")
    assert r.code == 0 and "build.log" not in r.text


@pytest.mark.parametrize(("report", "failed"), [
    ('<testsuite name="s" tests="0"/>', None),
    ('<testsuites><testsuite name="s" tests="0"></testsuite></testsuites>', None),
    ('<testsuite name="s" tests="3" failures="3"></testsuite>', 3),
])
def test_junit_report_listing_no_test_case_does_not_pass(h, repo, task, report, failed):
    (repo / ".gitignore").write_text("reports/\n")
    r = h("evidence", "unit_test", "--junit", "reports/junit.xml", "--", *py(f"""
        import os
        os.makedirs('reports', exist_ok=True)
        open('reports/junit.xml', 'w').write({report!r})
    """))
    assert r.code == 1, r.text
    rec = record(repo, task, "unit_test")
    assert rec["exit_code"] == 0 and rec["outcome"] == "failed"
    assert rec["failed"] == failed
    if failed is None:
        assert rec["error"] == "JUnit report reports/junit.xml has no test cases"
