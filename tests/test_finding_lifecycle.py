"""Findings (issue 5): the pure lifecycle table, `harness finding …` step by step, the facts each
step needs, hand edits caught by replay and by the commit hook, the gate and the status rates."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest
import yaml

from harness.core import findings as rules
from harness.gitio.git import Git

from support.cli import TO_VERIFYING, Harness, cli, gate_json, status_json, walk_to
from support.flows import ANSWER_REPRODUCER, proposal, propose
from support.gitrepo import git
from support.records import append_event, events, ledger_bytes, tdir
from support.templates import Template, template

PY = sys.executable
FAIL_CMD = ANSWER_REPRODUCER  # exits 1 while the defect exists
PASS_CMD = [PY, "-c", "print('nothing wrong here')"]
MISSING_CMD = ["definitely-not-a-command-xyz"]
REGRESSION_PATH = "tests/test_answer.py"
REGRESSION_CMD = [PY, REGRESSION_PATH]
REGRESSION_TEST = """\
import os, sys
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import app


def test_answer_is_41():
    assert app.answer() == 41


if __name__ == "__main__":
    test_answer_is_41()
"""
FIXED_APP = "def answer():\n    return 41\n"


# =======================================================================================
# Helpers
# =======================================================================================


def fdoc(repo: Path, tid: str, fid: str = "F-0001") -> dict:
    return yaml.safe_load((tdir(repo, tid) / "findings" / f"{fid}.yaml").read_text("utf-8"))


def write_regression_test(repo: Path) -> None:
    (repo / "tests").mkdir(exist_ok=True)
    (repo / REGRESSION_PATH).write_text(REGRESSION_TEST, "utf-8")


def fix_the_bug(repo: Path) -> None:
    (repo / "app.py").write_text(FIXED_APP, "utf-8")


def collect_full_suite(h) -> None:
    h.ok("evidence", "build", "--", PY, "-c", "pass")
    h.ok("evidence", "unit_test", "--", *REGRESSION_CMD)


ORDER = ("REPRODUCING", "CONFIRMED", "FIXING", "FIXED", "VERIFIED", "CLOSED")


def propose_refutable(h, repo: Path, tmp_path: Path, doc) -> None:
    """Propose ``doc`` against code where its reviewer's reproducer (FAIL_CMD) passes, answer() returning 41
    (the claim was wrong about that code), then put answer() back to 42: a rejection needs a run on the code
    the finding was proposed against, which :func:`refute_with_recommended_reproducer` brings back."""
    original = (repo / "app.py").read_text("utf-8")
    (repo / "app.py").write_text(original.replace("return 42", "return 41"), "utf-8")
    try:
        r = propose(h, tmp_path, doc)
        assert r.code == 0, r.text
    finally:
        (repo / "app.py").write_text(original, "utf-8")


def refute_with_recommended_reproducer(h, repo: Path, fid: str) -> None:
    """Run the reviewer's own reproducer (FAIL_CMD) on the code it was proposed against (see
    :func:`propose_refutable`), where it passes: a refuting attempt."""
    original = (repo / "app.py").read_text("utf-8")
    (repo / "app.py").write_text(original.replace("return 42", "return 41"), "utf-8")
    try:
        h.ok("finding", "reproduce", fid)
    finally:
        (repo / "app.py").write_text(original, "utf-8")


def advance(h, repo: Path, fid: str, upto: str) -> None:
    """Move finding ``fid`` (proposed with FAIL_CMD as its reproducer) legitimately to ``upto``."""
    if upto == "REJECTED":
        refute_with_recommended_reproducer(h, repo, fid)
        h.ok("finding", "reject", fid, "--reason", "the value is right")
        return
    steps = ORDER[: ORDER.index(upto) + 1]
    for step in steps:
        if step == "REPRODUCING":
            h.ok("finding", "reproduce", fid, "--", *PASS_CMD)
        elif step == "CONFIRMED":
            h.ok("finding", "reproduce", fid)
        elif step == "FIXING":
            write_regression_test(repo)
            h.ok("finding", "regression", fid, REGRESSION_PATH, "--", *REGRESSION_CMD)
        elif step == "FIXED":
            fix_the_bug(repo)
            h.ok("finding", "fixed", fid)
        elif step == "VERIFIED":
            collect_full_suite(h)
            h.ok("finding", "verify", fid)
        elif step == "CLOSED":
            h.ok("finding", "close", fid)


@pytest.fixture(scope="session")
def ft_template(tmp_path_factory, h_template) -> Template:
    """What ``ft`` copies here: conftest's ``ft`` (a task in a repository that ignores Python's
    caches), built once."""

    def build(repo: Path, h: Harness) -> dict:
        (repo / ".gitignore").write_text("__pycache__/\n.pytest_cache/\n", "utf-8")
        git(repo, "add", ".gitignore")
        git(repo, "commit", "-qm", "ignore caches")
        return {"ft": h.ok("task", "new", "Findings").out.strip()}

    return template(tmp_path_factory, "findings-ft", build, on=h_template)


@pytest.fixture(scope="session")
def f1_template(tmp_path_factory, ft_template) -> Template:
    """What ``f1`` copies: ``ft`` with F-0001 proposed."""

    def build(repo: Path, h: Harness) -> dict:
        r = propose(h, repo.parent, proposal())
        assert r.code == 0, r.text
        return {}

    return template(tmp_path_factory, "findings-f1", build, on=ft_template)


@pytest.fixture
def ft(ft_template, h) -> str:
    """conftest's ``ft``, copied from this module's template; returns the task id."""
    return ft_template.data["ft"]


@pytest.fixture
def f1(f1_template, ft) -> str:
    """One PROPOSED major finding, F-0001, whose recommended reproducer fails on the current code."""
    return "F-0001"


# =======================================================================================
# The pure table: all 64 pairs
# =======================================================================================

EXPECTED_LEGAL = {
    ("PROPOSED", "REPRODUCING"), ("REPRODUCING", "CONFIRMED"), ("REPRODUCING", "REJECTED"),
    ("CONFIRMED", "FIXING"), ("FIXING", "FIXED"), ("FIXED", "VERIFIED"), ("VERIFIED", "CLOSED"),
    ("FIXED", "CONFIRMED"), ("VERIFIED", "CONFIRMED"), ("CLOSED", "CONFIRMED"),  # reopened
}
ALL_STATUSES = ("PROPOSED", "REPRODUCING", "CONFIRMED", "REJECTED", "FIXING", "FIXED", "VERIFIED", "CLOSED")


def test_statuses_are_exactly_the_eight_of_the_seed():
    assert tuple(rules.STATUSES) == ALL_STATUSES


def test_legal_table_is_exactly_the_ten_transitions():
    assert set(rules.LEGAL) == EXPECTED_LEGAL
    assert len(rules.LEGAL) == 10


@pytest.mark.parametrize("current", ALL_STATUSES)
@pytest.mark.parametrize("target", ALL_STATUSES)
def test_every_pair_is_legal_exactly_when_in_the_table(current, target):
    legal = (current, target) in EXPECTED_LEGAL
    assert rules.is_legal(current, target) is legal
    message = rules.refusal(current, target, "F-0007")
    if legal:
        assert message is None
    else:
        assert message is not None
        assert f"{current} → {target}" in message, message
        assert "F-0007" in message


def test_all_pairs_count_is_64_and_54_are_refused():
    pairs = [(a, b) for a in rules.STATUSES for b in rules.STATUSES]
    assert len(pairs) == 64
    refused = [p for p in pairs if rules.refusal(*p, "F-0001") is not None]
    assert len(refused) == 54


def test_rejected_is_called_final_in_the_refusal():
    assert "final" in rules.refusal("REJECTED", "PROPOSED", "F-0001")


def test_closed_is_not_called_final_its_refusal_names_reopen():
    message = rules.refusal("CLOSED", "PROPOSED", "F-0001")
    assert "final" not in message and "harness finding reopen F-0001" in message


# =======================================================================================
# propose
# =======================================================================================

def test_propose_one_mapping_writes_F_0001_with_the_seed_fields(h, ft, repo, tmp_path):
    r = propose(h, tmp_path, proposal())
    assert r.code == 0, r.text
    assert "F-0001" in r.out and "PROPOSED" in r.out
    doc = fdoc(repo, ft)
    for key in ("id", "type", "severity", "category", "status", "title", "claim", "related_requirements",
                "related_invariants", "location", "failure_scenario", "expected_behavior",
                "possible_actual_behavior", "recommended_reproducer", "reproduction", "regression_test",
                "fix", "verification"):
        assert key in doc, key
    assert doc["id"] == "F-0001" and doc["status"] == "PROPOSED"
    assert doc["location"] == {"file": "app.py", "line": 2}
    assert doc["failure_scenario"] == ["import app", "call app.answer()"]
    assert doc["recommended_reproducer"]["command"] == FAIL_CMD
    assert doc["reproduction"]["command"] is None and doc["regression_test"]["path"] is None
    assert events(repo, ft)[-1]["type"] == "finding.proposed"
    assert h("replay").code == 0


def test_propose_a_list_and_a_findings_mapping_assign_ids_in_sequence(h, ft, repo, tmp_path):
    r = propose(h, tmp_path, [proposal(title="one"), proposal(title="two")], "a.yaml")
    assert r.code == 0, r.text
    r = propose(h, tmp_path, {"findings": [proposal(title="three", severity="minor")]}, "b.yaml")
    assert r.code == 0, r.text
    names = sorted(p.name for p in (tdir(repo, ft) / "findings").iterdir())
    assert names == ["F-0001.yaml", "F-0002.yaml", "F-0003.yaml"]
    assert [fdoc(repo, ft, f"F-000{n}")["title"] for n in (1, 2, 3)] == ["one", "two", "three"]
    assert fdoc(repo, ft, "F-0003")["severity"] == "minor"
    assert [e["type"] for e in events(repo, ft)].count("finding.proposed") == 3


def test_proposing_a_finding_the_task_holds_again_is_refused_and_records_nothing(h, ft, repo, tmp_path):
    # Self-found-12: a file proposed twice recorded every finding twice (this repository's F-0181..F-0201).
    assert propose(h, tmp_path, [proposal(title="one"), proposal(title="two")], "a.yaml").code == 0
    again = propose(h, tmp_path, [proposal(title="three"), proposal(title="two")], "b.yaml")
    assert again.code == 1 and "finding 2 of the file is F-0002 again" in again.err, again.text
    twice = propose(h, tmp_path, [proposal(title="four"), proposal(title="four")], "c.yaml")
    assert twice.code == 1 and "finding 2 of the file is finding 1 of this file again" in twice.err, twice.text
    assert [e["type"] for e in events(repo, ft)].count("finding.proposed") == 2
    # What a careless guard would refuse: the same title with another claim is another finding.
    assert propose(h, tmp_path, proposal(title="two", claim="answer() also fails for negative input"), "d.yaml").code == 0


def test_propose_ignores_the_status_and_id_the_file_claims(h, ft, repo, tmp_path):
    r = propose(h, tmp_path, proposal(status="CLOSED", id="F-0042"))
    assert r.code == 0, r.text
    assert not (tdir(repo, ft) / "findings" / "F-0042.yaml").exists()
    doc = fdoc(repo, ft)
    assert doc["id"] == "F-0001" and doc["status"] == "PROPOSED"
    assert events(repo, ft)[-1]["data"]["id"] == "F-0001"
    assert "status" not in events(repo, ft)[-1]["data"]["content"]


@pytest.mark.parametrize("field", ["location", "claim", "failure_scenario", "expected_behavior",
                                   "recommended_reproducer", "severity", "category", "title"])
def test_propose_without_a_required_field_exits_2_naming_it_and_records_nothing(h, ft, repo, tmp_path, field):
    doc = proposal()
    del doc[field]
    before = ledger_bytes(repo, ft)
    r = propose(h, tmp_path, doc)
    assert r.code == 2, r.text
    assert field in r.err
    assert ledger_bytes(repo, ft) == before
    assert list((tdir(repo, ft) / "findings").iterdir()) == []


@pytest.mark.parametrize("field, value", [("claim", ""), ("expected_behavior", ""), ("failure_scenario", []),
                                          ("location", {}), ("recommended_reproducer", {"command": "x"}),
                                          ("severity", "blocker")])
def test_propose_with_an_empty_or_invalid_required_field_exits_2(h, ft, repo, tmp_path, field, value):
    before = ledger_bytes(repo, ft)
    r = propose(h, tmp_path, proposal(**{field: value}))
    assert r.code == 2, r.text
    assert field in r.err
    assert ledger_bytes(repo, ft) == before


def test_propose_a_list_with_one_bad_finding_records_none_of_them(h, ft, repo, tmp_path):
    bad = proposal()
    del bad["claim"]
    before = ledger_bytes(repo, ft)
    r = propose(h, tmp_path, [proposal(), bad])
    assert r.code == 2, r.text
    assert "finding 2" in r.err and "claim" in r.err
    assert ledger_bytes(repo, ft) == before
    assert list((tdir(repo, ft) / "findings").iterdir()) == []


@pytest.mark.parametrize("doc", [[], {"findings": []}, "just text"])
def test_propose_with_no_findings_exits_2(h, ft, repo, tmp_path, doc):
    before = ledger_bytes(repo, ft)
    assert propose(h, tmp_path, doc).code == 2
    assert ledger_bytes(repo, ft) == before


# =======================================================================================
# reproduce
# =======================================================================================

def test_failing_recommended_reproducer_confirms_and_records_the_run(h, f1, ft, repo):
    tree = Git(repo).worktree_source_tree()
    r = h("finding", "reproduce", f1)
    assert r.code == 0, r.text
    assert "CONFIRMED" in r.out
    doc = fdoc(repo, ft)
    assert doc["status"] == "CONFIRMED"
    assert doc["reproduction"]["command"] == shlex.join(FAIL_CMD)
    assert doc["reproduction"]["exit_code"] == 1
    assert doc["reproduction"]["evidence"] == tree
    [attempt] = doc["attempts"]
    assert attempt["outcome"] == "failed" and attempt["exit_code"] == 1 and attempt["tree"] == tree
    assert "REPRO-MARKER 42" in attempt["output_tail"]
    # PROPOSED → REPRODUCING → CONFIRMED comes from one recorded event, replayed by the ledger rules.
    assert events(repo, ft)[-1]["type"] == "finding.reproduced"
    assert h("replay").code == 0


def test_recommended_reproducer_given_as_a_string_is_run(h, ft, repo, tmp_path):
    cmd = f"{PY} -c \"import app, sys; sys.exit(app.answer() != 41)\""
    propose(h, tmp_path, proposal(recommended_reproducer={"type": "custom", "description": "d", "command": cmd}))
    assert h("finding", "reproduce", "F-0001").code == 0
    assert fdoc(repo, ft)["status"] == "CONFIRMED"


def test_passing_reproducer_is_an_attempt_and_the_finding_stays_reproducing(h, f1, ft, repo):
    r = h("finding", "reproduce", f1, "--", *PASS_CMD)
    assert r.code == 0, r.text
    doc = fdoc(repo, ft)
    assert doc["status"] == "REPRODUCING"
    assert doc["reproduction"]["command"] is None
    [attempt] = doc["attempts"]
    assert attempt["outcome"] == "passed" and attempt["exit_code"] == 0
    assert "nothing wrong here" in attempt["output_tail"]
    # a second, failing run then confirms it
    assert h("finding", "reproduce", f1).code == 0
    doc = fdoc(repo, ft)
    assert doc["status"] == "CONFIRMED" and len(doc["attempts"]) == 2


def test_reproducer_that_does_not_exist_is_refused_and_concludes_nothing(h, f1, ft, repo):
    before = ledger_bytes(repo, ft)
    r = h("finding", "reproduce", f1, "--", *MISSING_CMD)
    assert r.code == 1, r.text
    assert "nothing is concluded" in r.err
    assert ledger_bytes(repo, ft) == before
    assert fdoc(repo, ft)["status"] == "PROPOSED" and fdoc(repo, ft)["attempts"] == []


def test_reproducer_that_times_out_is_refused_and_concludes_nothing(h, f1, ft, repo):
    before = ledger_bytes(repo, ft)
    r = h("finding", "reproduce", f1, "--timeout", "0.1", "--", PY, "-c", "import time; time.sleep(30)")
    assert r.code == 1, r.text
    assert "timeout" in r.err and "nothing is concluded" in r.err
    assert ledger_bytes(repo, ft) == before and fdoc(repo, ft)["status"] == "PROPOSED"


def test_reproduce_without_any_command_is_refused(h, ft, repo, tmp_path):
    propose(h, tmp_path, proposal(severity="minor",
                                  recommended_reproducer={"type": "review", "description": "read it"}))
    before = ledger_bytes(repo, ft)
    r = h("finding", "reproduce", "F-0001")
    assert r.code == 1, r.text
    assert "no reproducer command" in r.err
    assert ledger_bytes(repo, ft) == before


def test_reproduce_a_confirmed_finding_is_refused(h, f1, ft, repo):
    advance(h, repo, f1, "CONFIRMED")
    r = h("finding", "reproduce", f1, "--", *PASS_CMD)
    assert r.code == 1
    assert "CONFIRMED" in r.err
    assert fdoc(repo, ft)["status"] == "CONFIRMED"


def test_unknown_finding_is_refused_naming_the_known_ones(h, f1):
    r = h("finding", "reproduce", "F-0099")
    assert r.code == 1
    assert "F-0099" in r.err and "F-0001" in r.err


# =======================================================================================
# reject
# =======================================================================================

def test_reject_a_proposed_finding_without_attempts_is_refused(h, f1, ft, repo):
    before = ledger_bytes(repo, ft)
    r = h("finding", "reject", f1, "--reason", "I do not believe it")
    assert r.code == 1, r.text
    assert "PROPOSED" in r.err
    assert ledger_bytes(repo, ft) == before


def test_reject_after_a_passing_attempt_of_another_command_is_refused(h, f1, ft, repo):
    # `reproduce F -- true` proves nothing about the reviewer's claim.
    h.ok("finding", "reproduce", f1, "--", *PASS_CMD)
    before = ledger_bytes(repo, ft)
    r = h("finding", "reject", f1, "--reason", "could not reproduce")
    assert r.code == 1 and "reviewer's reproducer" in r.err
    assert ledger_bytes(repo, ft) == before and fdoc(repo, ft)["status"] == "REPRODUCING"


def test_reject_after_a_passing_attempt_is_recorded_with_its_reason(h, ft, repo, tmp_path):
    f1 = "F-0001"
    propose_refutable(h, repo, tmp_path, proposal())
    refute_with_recommended_reproducer(h, repo, f1)
    r = h("finding", "reject", f1, "--reason", "the reproducer passes on this code")
    assert r.code == 0, r.text
    doc = fdoc(repo, ft)
    assert doc["status"] == "REJECTED"
    assert doc["rejected_reason"] == "the reproducer passes on this code"
    assert events(repo, ft)[-1]["type"] == "finding.rejected"
    assert h("replay").code == 0
    # REJECTED is final: a later run re-checks the rejection, it never moves the finding
    r = h("finding", "reproduce", f1, "--", *FAIL_CMD)
    assert r.code == 0 and fdoc(repo, ft)["status"] == "REJECTED"
    assert fdoc(repo, ft)["attempts"][-1]["outcome"] == "failed"


def test_reject_with_a_blank_reason_is_refused(h, f1, ft, repo):
    h.ok("finding", "reproduce", f1, "--", *PASS_CMD)
    assert h("finding", "reject", f1, "--reason", "   ").code == 1
    assert fdoc(repo, ft)["status"] == "REPRODUCING"


def test_reject_a_confirmed_finding_is_refused(h, f1, ft, repo):
    advance(h, repo, f1, "CONFIRMED")
    r = h("finding", "reject", f1, "--reason", "inconvenient")
    assert r.code == 1
    assert fdoc(repo, ft)["status"] == "CONFIRMED"


# =======================================================================================
# regression
# =======================================================================================

def test_regression_test_that_fails_now_moves_the_finding_to_fixing(h, f1, ft, repo):
    advance(h, repo, f1, "CONFIRMED")
    write_regression_test(repo)
    r = h("finding", "regression", f1, REGRESSION_PATH, "--", *REGRESSION_CMD)
    assert r.code == 0, r.text
    doc = fdoc(repo, ft)
    assert doc["status"] == "FIXING"
    assert doc["regression_test"]["path"] == REGRESSION_PATH
    assert doc["regression_test"]["argv"] == REGRESSION_CMD
    assert events(repo, ft)[-1]["type"] == "finding.regression"


def test_regression_command_that_does_not_run_the_test_file_is_refused(h, f1, ft, repo):
    # Without `-- COMMAND` the reproducer is the default, but it must actually run PATH:
    # otherwise any existing file (a README) could be passed off as "the regression test".
    advance(h, repo, f1, "CONFIRMED")
    write_regression_test(repo)
    before = ledger_bytes(repo, ft)
    r = h("finding", "regression", f1, REGRESSION_PATH)
    assert r.code == 1, r.text
    assert "does not run tests/test_answer.py" in r.err
    assert ledger_bytes(repo, ft) == before and fdoc(repo, ft)["status"] == "CONFIRMED"


def test_a_regression_test_whose_path_has_a_quote_in_it_is_attached(h, f1, ft, repo):
    # The recorded command is shell-quoted ('it'"'"'s'): the path is found among its arguments.
    advance(h, repo, f1, "CONFIRMED")
    quoted = "tests/it's_answer.py"
    (repo / "tests").mkdir(exist_ok=True)
    (repo / quoted).write_text(REGRESSION_TEST, "utf-8")
    r = h("finding", "regression", f1, quoted, "--", PY, quoted)
    assert r.code == 0, r.text
    assert fdoc(repo, ft)["regression_test"]["path"] == quoted and h("replay").code == 0


def test_regression_command_is_kept_and_rerun_by_verify(h, f1, ft, repo):
    advance(h, repo, f1, "CONFIRMED")
    write_regression_test(repo)
    h.ok("finding", "regression", f1, REGRESSION_PATH, "--", *REGRESSION_CMD)
    doc = fdoc(repo, ft)
    assert doc["status"] == "FIXING"
    assert doc["regression_test"]["argv"] == REGRESSION_CMD
    fix_the_bug(repo)
    h.ok("finding", "fixed", f1)
    collect_full_suite(h)
    assert h("finding", "verify", f1).code == 0  # the same command now passes


def test_regression_path_that_does_not_exist_is_refused(h, f1, ft, repo):
    advance(h, repo, f1, "CONFIRMED")
    before = ledger_bytes(repo, ft)
    r = h("finding", "regression", f1, "tests/test_missing.py", "--", *FAIL_CMD)
    assert r.code == 1, r.text
    assert "does not exist" in r.err
    assert ledger_bytes(repo, ft) == before and fdoc(repo, ft)["status"] == "CONFIRMED"


@pytest.mark.parametrize("where", [".harness/config.yaml", ".harness/tasks/test_in_harness.py"])
def test_regression_path_under_harness_is_refused(h, f1, ft, repo, where):
    advance(h, repo, f1, "CONFIRMED")
    if where.endswith(".py"):
        (repo / where).write_text(REGRESSION_TEST)
    before = ledger_bytes(repo, ft)
    r = h("finding", "regression", f1, where, "--", *FAIL_CMD)
    assert r.code == 1, r.text
    assert ".harness" in r.err
    assert ledger_bytes(repo, ft) == before and fdoc(repo, ft)["status"] == "CONFIRMED"


def test_regression_path_outside_the_repository_or_a_directory_is_refused(h, f1, ft, repo):
    advance(h, repo, f1, "CONFIRMED")
    (repo.parent / "outside_test.py").write_text(REGRESSION_TEST)
    write_regression_test(repo)
    for path in ("../outside_test.py", "tests"):
        r = h("finding", "regression", f1, path, "--", *FAIL_CMD)
        assert r.code == 1, (path, r.text)
    assert fdoc(repo, ft)["status"] == "CONFIRMED"


def test_regression_test_ignored_by_git_is_not_in_the_tree_and_is_refused(h, f1, ft, repo):
    """A git-ignored file is not part of the source tree the harness binds evidence to, and is never
    committed: it cannot guard against the bug coming back."""
    advance(h, repo, f1, "CONFIRMED")
    (repo / ".gitignore").write_text("__pycache__/\n.pytest_cache/\nscratch/\n", "utf-8")
    (repo / "scratch").mkdir()
    (repo / "scratch" / "test_answer.py").write_text(REGRESSION_TEST)
    assert git(repo, "check-ignore", "-q", "scratch/test_answer.py", check=False).returncode == 0
    before = ledger_bytes(repo, ft)
    r = h("finding", "regression", f1, "scratch/test_answer.py", "--", PY, "scratch/test_answer.py")
    assert r.code == 1, r.text
    assert ledger_bytes(repo, ft) == before and fdoc(repo, ft)["status"] == "CONFIRMED"


def test_regression_test_that_passes_now_is_refused_as_never_failed(h, f1, ft, repo):
    advance(h, repo, f1, "CONFIRMED")
    write_regression_test(repo)
    before = ledger_bytes(repo, ft)
    fix_the_bug(repo)  # the test file runs, and passes: it never reproduced the bug
    r = h("finding", "regression", f1, REGRESSION_PATH, "--", *REGRESSION_CMD)
    assert r.code == 1, r.text
    assert "did not fail" in r.err
    assert ledger_bytes(repo, ft) == before and fdoc(repo, ft)["status"] == "CONFIRMED"


def test_regression_command_that_does_not_exist_is_refused(h, f1, ft, repo):
    advance(h, repo, f1, "CONFIRMED")
    write_regression_test(repo)
    r = h("finding", "regression", f1, REGRESSION_PATH, "--", *MISSING_CMD)
    assert r.code == 1, r.text
    assert fdoc(repo, ft)["status"] == "CONFIRMED"


def test_regression_on_a_finding_that_is_not_confirmed_is_refused(h, f1, ft, repo):
    write_regression_test(repo)
    r = h("finding", "regression", f1, REGRESSION_PATH, "--", *REGRESSION_CMD)
    assert r.code == 1
    assert "PROPOSED" in r.err and "CONFIRMED" in r.err


# =======================================================================================
# fixed, verify, close: nothing moves past a step whose fact is missing
# =======================================================================================

def test_fixed_needs_fixing(h, f1, ft, repo):
    advance(h, repo, f1, "CONFIRMED")
    r = h("finding", "fixed", f1)
    assert r.code == 1 and "CONFIRMED" in r.err
    write_regression_test(repo)
    h.ok("finding", "regression", f1, REGRESSION_PATH, "--", *REGRESSION_CMD)
    fix_the_bug(repo)
    assert h("finding", "fixed", f1).code == 0
    doc = fdoc(repo, ft)
    assert doc["status"] == "FIXED"
    assert doc["fix"]["commit"] == git(repo, "rev-parse", "HEAD").stdout.strip()


def test_verify_while_the_regression_test_still_fails_is_refused(h, f1, ft, repo):
    advance(h, repo, f1, "FIXING")
    h.ok("finding", "fixed", f1)  # claimed, but app.py was never changed
    h.ok("evidence", "build", "--", PY, "-c", "pass")
    h.ok("evidence", "unit_test", "--", PY, "-c", "pass")
    before = ledger_bytes(repo, ft)
    r = h("finding", "verify", f1)
    assert r.code == 1, r.text
    assert "still fails" in r.err
    assert ledger_bytes(repo, ft) == before and fdoc(repo, ft)["status"] == "FIXED"


def test_verify_without_any_full_suite_evidence_is_refused_naming_each_type(h, f1, ft, repo):
    advance(h, repo, f1, "FIXED")
    r = h("finding", "verify", f1)
    assert r.code == 1, r.text
    assert "build" in r.err and "unit_test" in r.err
    assert fdoc(repo, ft)["status"] == "FIXED"


def test_verify_with_evidence_collected_before_the_fix_is_refused_as_stale(h, f1, ft, repo):
    advance(h, repo, f1, "FIXING")
    h.ok("evidence", "build", "--", PY, "-c", "pass")
    h.ok("evidence", "unit_test", "--", PY, "-c", "pass")  # passes, but on the unfixed code
    fix_the_bug(repo)
    h.ok("finding", "fixed", f1)
    r = h("finding", "verify", f1)
    assert r.code == 1, r.text
    assert "not fresh" in r.err and "build" in r.err and "unit_test" in r.err
    assert fdoc(repo, ft)["status"] == "FIXED"
    # re-collected on the fixed code, it verifies
    collect_full_suite(h)
    assert h("finding", "verify", f1).code == 0
    assert fdoc(repo, ft)["status"] == "VERIFIED"


def test_verify_with_fresh_but_failing_unit_test_evidence_is_refused(h, f1, ft, repo):
    advance(h, repo, f1, "FIXED")
    h.ok("evidence", "build", "--", PY, "-c", "pass")
    assert h("evidence", "unit_test", "--", PY, "-c", "raise SystemExit(3)").code == 3
    r = h("finding", "verify", f1)
    assert r.code == 1, r.text
    assert "not fresh and passing for: unit_test\n" in r.err  # build is fresh and passing: not named
    assert fdoc(repo, ft)["status"] == "FIXED"


def test_verify_needs_every_required_type_of_gate_yaml(h, f1, ft, repo):
    gate = repo / ".harness" / "gate.yaml"
    gate.write_text(gate.read_text().replace("integration_test: optional", "integration_test: required"))
    advance(h, repo, f1, "FIXED")
    collect_full_suite(h)
    r = h("finding", "verify", f1)
    assert r.code == 1, r.text
    assert "integration_test" in r.err
    h.ok("evidence", "integration_test", "--", PY, "-c", "pass")
    assert h("finding", "verify", f1).code == 0


def test_verify_records_the_passing_regression_run_and_full_suite(h, f1, ft, repo):
    advance(h, repo, f1, "VERIFIED")
    doc = fdoc(repo, ft)
    assert doc["status"] == "VERIFIED"
    assert doc["verification"] == {"regression": "PASS", "full_suite": "PASS"}
    last = events(repo, ft)[-1]
    assert last["type"] == "finding.verified"
    assert last["data"]["regression"]["outcome"] == "passed"
    assert last["data"]["full_suite"]["tree"] == Git(repo).worktree_source_tree()
    assert set(last["data"]["full_suite"]["types"]) == {"build", "unit_test"}


def test_close_without_verified_is_refused(h, f1, ft, repo):
    # walk one step at a time and try to close at each
    assert h("finding", "close", f1).code == 1 and fdoc(repo, ft)["status"] == "PROPOSED"
    h.ok("finding", "reproduce", f1, "--", *PASS_CMD)
    assert h("finding", "close", f1).code == 1 and fdoc(repo, ft)["status"] == "REPRODUCING"
    h.ok("finding", "reproduce", f1)
    assert h("finding", "close", f1).code == 1 and fdoc(repo, ft)["status"] == "CONFIRMED"
    write_regression_test(repo)
    h.ok("finding", "regression", f1, REGRESSION_PATH, "--", *REGRESSION_CMD)
    assert h("finding", "close", f1).code == 1 and fdoc(repo, ft)["status"] == "FIXING"
    fix_the_bug(repo)
    h.ok("finding", "fixed", f1)
    r = h("finding", "close", f1)
    assert r.code == 1 and "FIXED" in r.err and "VERIFIED" in r.err
    assert fdoc(repo, ft)["status"] == "FIXED"


def test_every_status_change_is_one_ledger_event_and_the_file_follows(h, f1, ft, repo):
    expected = [("REPRODUCING", "finding.reproduced"), ("CONFIRMED", "finding.reproduced"),
                ("FIXING", "finding.regression"), ("FIXED", "finding.fixed"),
                ("VERIFIED", "finding.verified"), ("CLOSED", "finding.closed")]
    for status, etype in expected:
        before = len(events(repo, ft))
        advance_one = {"REPRODUCING": lambda: h.ok("finding", "reproduce", f1, "--", *PASS_CMD),
                       "CONFIRMED": lambda: h.ok("finding", "reproduce", f1),
                       "FIXING": lambda: (write_regression_test(repo),
                                          h.ok("finding", "regression", f1, REGRESSION_PATH, "--", *REGRESSION_CMD)),
                       "FIXED": lambda: (fix_the_bug(repo), h.ok("finding", "fixed", f1)),
                       "VERIFIED": lambda: (collect_full_suite(h), h.ok("finding", "verify", f1)),
                       "CLOSED": lambda: h.ok("finding", "close", f1)}[status]
        advance_one()
        evs = events(repo, ft)
        finding_events = [e for e in evs[before:] if e["type"].startswith("finding.")]
        assert [e["type"] for e in finding_events] == [etype], status
        assert finding_events[0]["data"]["id"] == f1
        assert fdoc(repo, ft)["status"] == status
    assert h("replay").code == 0
    r = h("finding", "close", f1)
    assert r.code == 1 and "CLOSED" in r.err


# =======================================================================================
# Hand edits and forged events
# =======================================================================================

def test_hand_edited_status_is_caught_by_replay_naming_the_field(h, f1, ft, repo):
    path = tdir(repo, ft) / "findings" / "F-0001.yaml"
    text = path.read_text("utf-8")
    assert "status: PROPOSED" in text
    path.write_text(text.replace("status: PROPOSED", "status: CLOSED"), "utf-8")
    r = h("replay")
    assert r.code == 2, r.text
    assert "findings/F-0001.yaml" in r.err and "status" in r.err
    assert "PROPOSED" in r.err and "CLOSED" in r.err


def test_hand_edited_finding_status_names_the_finding_command_to_use_instead(h, f1, ft, repo):
    """README: a hand edit of a lifecycle field "is caught by `harness replay` and refused by the commit
    hook, which names the command to use instead" — for task.yaml's state that is `harness transition`,
    for a finding's status it is `harness finding …` (projection.FIX_COMMANDS["findings"])."""
    path = tdir(repo, ft) / "findings" / "F-0001.yaml"
    path.write_text(path.read_text("utf-8").replace("status: PROPOSED", "status: CLOSED"), "utf-8")
    r = h("replay")
    assert r.code == 2, r.text
    [line] = [x for x in r.err.splitlines() if "F-0001.yaml" in x]
    assert "use `harness finding" in line, line


def test_hand_made_finding_file_is_caught_by_replay(h, f1, ft, repo):
    src = tdir(repo, ft) / "findings" / "F-0001.yaml"
    doc = yaml.safe_load(src.read_text())
    doc["id"] = "F-0002"
    (src.parent / "F-0002.yaml").write_text(yaml.safe_dump(doc, sort_keys=False))
    r = h("replay")
    assert r.code == 2, r.text
    assert "F-0002.yaml" in r.err


def commit_everything(repo: Path, msg: str) -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", msg)


def test_hand_edited_status_is_refused_by_the_commit_hook(h, f1, ft, repo):
    commit_everything(repo, "task with a proposed finding")
    path = tdir(repo, ft) / "findings" / "F-0001.yaml"
    path.write_text(path.read_text("utf-8").replace("status: PROPOSED", "status: VERIFIED"), "utf-8")
    git(repo, "add", "-A")
    r = cli(repo, "hook", "validate")
    assert r.returncode == 1, r.stdout + r.stderr
    assert f".harness/tasks/{ft}/findings/F-0001.yaml" in r.stderr
    assert "status" in r.stderr and "projection-matches-ledger" in r.stderr


def test_legitimate_finding_changes_pass_the_commit_hook(h, f1, ft, repo):
    commit_everything(repo, "task with a proposed finding")
    advance(h, repo, f1, "CONFIRMED")
    git(repo, "add", "-A")
    r = cli(repo, "hook", "validate")
    assert r.returncode == 0, r.stdout + r.stderr


def test_deleted_finding_file_is_refused_at_commit(h, f1, ft, repo):
    commit_everything(repo, "task with a proposed finding")
    git(repo, "rm", "-q", f".harness/tasks/{ft}/findings/F-0001.yaml")
    r = cli(repo, "hook", "validate")
    assert r.returncode == 1, r.stdout + r.stderr
    assert "findings-never-deleted" in r.stderr
    assert f".harness/tasks/{ft}/findings/F-0001.yaml" in r.stderr


def test_forged_verify_event_skipping_fixed_is_refused_by_replay(h, f1, ft, repo):
    advance(h, repo, f1, "FIXING")
    h.ok("evidence", "build", "--", PY, "-c", "pass")
    h.ok("evidence", "unit_test", "--", PY, "-c", "pass")  # so the skipped step is the only broken rule
    tree = Git(repo).worktree_source_tree()
    append_event(repo, ft, "finding.verified", {
        "id": f1, "regression": {"outcome": "passed", "tree": tree}, "full_suite": {"types": ["build", "unit_test"], "tree": tree}})
    r = h("replay")
    assert r.code == 2, r.text
    assert "FIXING → VERIFIED" in r.err


@pytest.mark.parametrize("evidence", ["none", "stale", "fresh"])
def test_forged_verification_without_full_suite_evidence_is_refused_by_replay(h, f1, ft, repo, evidence):
    """`finding verify` needs passing evidence of every required type on the regression run's tree. The
    evidence facts are in the same ledger (evidence.collected), so replay — which "applies each event
    through the same rules the CLI enforces" — can and must refuse a hand-appended verification that
    cites a full suite which never ran on that tree (none at all, or only on the code before the fix).
    With fresh passing evidence the same appended event is a legal history (the control case)."""
    advance(h, repo, f1, "FIXING")
    if evidence == "stale":
        h.ok("evidence", "build", "--", PY, "-c", "pass")
        h.ok("evidence", "unit_test", "--", PY, "-c", "pass")  # on the code before the fix
    fix_the_bug(repo)
    h.ok("finding", "fixed", f1)
    if evidence == "fresh":
        collect_full_suite(h)
    else:
        assert h("finding", "verify", f1).code == 1  # the CLI refuses: no fresh full suite
    tree = Git(repo).worktree_source_tree()
    run = {"command": shlex.join(REGRESSION_CMD), "argv": REGRESSION_CMD, "exit_code": 0, "outcome": "passed",
           "tree": tree, "head": None, "output_tail": ""}
    confirming = {**run, "command": shlex.join(FAIL_CMD), "argv": FAIL_CMD}
    append_event(repo, ft, "finding.verified", {
        "id": f1, "regression": run, "full_suite": {"types": ["build", "unit_test"], "tree": tree},
        "reproducer": confirming})
    h("replay", "--write")  # re-render the YAML files as the forger would (refused for an illegal ledger)
    r = h("replay")
    if evidence == "fresh":
        assert r.code == 0, r.text
        return
    assert r.code == 2, r.text
    assert "events.jsonl" in r.err and "F-0001" in r.err
    git(repo, "add", "-A")
    assert cli(repo, "hook", "validate").returncode == 1


def test_forged_rejection_without_a_passing_attempt_is_refused_by_replay(h, f1, ft, repo):
    append_event(repo, ft, "finding.rejected", {"id": f1, "reason": "no"})
    r = h("replay")
    assert r.code == 2, r.text
    assert "did not fail" in r.err


def test_forged_close_of_a_proposed_finding_is_refused_by_replay(h, f1, ft, repo):
    append_event(repo, ft, "finding.closed", {"id": f1})
    r = h("replay")
    assert r.code == 2, r.text
    assert "PROPOSED → CLOSED" in r.err


def test_forged_regression_that_passed_is_refused_by_replay(h, f1, ft, repo):
    advance(h, repo, f1, "CONFIRMED")
    append_event(repo, ft, "finding.regression", {"id": f1, "outcome": "passed", "path": REGRESSION_PATH,
                                                  "command": shlex.join(REGRESSION_CMD)})
    r = h("replay")
    assert r.code == 2, r.text
    assert "must fail when attached" in r.err


# =======================================================================================
# Gate integration
# =======================================================================================

@pytest.fixture(scope="session")
def gating_template(tmp_path_factory, ft_template) -> Template:
    """What ``gating`` copies: ``ft`` in GATING with everything but findings passing."""

    def build(repo: Path, h: Harness) -> dict:
        h.ok("requirement", "add", "answer() returns 41", "--priority", "must")
        walk_to(h, *TO_VERIFYING)
        recollect(h)
        h.ok("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "unit_test")
        walk_to(h, "REVIEWING", "GATING")
        r = gate(h)
        assert r["verdict"] == "PASS", r
        return {}

    return template(tmp_path_factory, "findings-gating", build, on=ft_template)


@pytest.fixture
def gating(gating_template, ft) -> str:
    """The task in GATING with everything but findings passing: `harness gate` says PASS."""
    return ft


def recollect(h) -> None:
    h.ok("evidence", "build", "--", PY, "-c", "pass")
    h.ok("evidence", "unit_test", "--", PY, "-c", "pass")


def gate(h) -> dict:
    r = h("gate", "--json")
    assert r.code in (0, 1), r.text
    doc = json.loads(r.out)
    assert (r.code == 0) == (doc["verdict"] == "PASS")
    return doc


def test_gate_open_major_finding_blocks_naming_it(h, gating, tmp_path):
    propose(h, tmp_path, proposal(severity="major"))
    g = gate(h)
    assert g["verdict"] == "BLOCKED"
    assert g["blockers"] == ["Major finding F-0001 is open"]


def test_gate_open_critical_finding_blocks(h, gating, tmp_path):
    propose(h, tmp_path, proposal(severity="critical"))
    g = gate(h)
    assert g["blockers"] == ["Critical finding F-0001 is open"]


@pytest.mark.parametrize("upto", [None, "REPRODUCING"])
def test_gate_open_minor_finding_does_not_block_with_the_default_policy(h, gating, repo, tmp_path, upto):
    propose(h, tmp_path, proposal(severity="minor"))
    if upto:
        advance(h, repo, "F-0001", upto)
    assert gate(h)["verdict"] == "PASS"


def test_gate_confirmed_finding_without_regression_test_blocks(h, gating, repo, tmp_path):
    propose(h, tmp_path, proposal(severity="minor"))
    advance(h, repo, "F-0001", "CONFIRMED")
    g = gate(h)
    assert g["blockers"] == ["Confirmed finding F-0001 has no regression test"]


def test_gate_confirmed_major_blocks_as_open_and_as_regression_debt(h, gating, repo, tmp_path):
    propose(h, tmp_path, proposal(severity="major"))
    advance(h, repo, "F-0001", "CONFIRMED")
    g = gate(h)
    assert "Major finding F-0001 is open" in g["blockers"]
    assert "Confirmed finding F-0001 has no regression test" in g["blockers"]


@pytest.mark.parametrize("upto", ["FIXING", "FIXED"])
def test_gate_unverified_regression_test_blocks(h, gating, repo, tmp_path, upto):
    propose(h, tmp_path, proposal(severity="minor"))
    advance(h, repo, "F-0001", upto)
    recollect(h)
    g = gate(h)
    assert g["blockers"] == ["Finding F-0001 regression test not verified yet"]


def test_gate_rejected_major_blocks_until_refuted_on_the_gated_tree(h, gating, repo, tmp_path):
    propose_refutable(h, repo, tmp_path, proposal(severity="major"))
    advance(h, repo, "F-0001", "REJECTED")  # refuted on a tree where answer() was 41
    doc = gate(h)
    assert doc["verdict"] == "BLOCKED" and any("F-0001 is open (rejected" in b for b in doc["blockers"])
    (repo / "app.py").write_text((repo / "app.py").read_text().replace("return 42", "return 41"))
    recollect(h)
    h.ok("finding", "reproduce", "F-0001")  # the reviewer's reproducer passes on the gated tree
    assert gate(h)["verdict"] == "PASS"


def test_a_rejection_made_on_a_temporarily_fixed_tree_does_not_hold(h, gating, repo, tmp_path):
    propose_refutable(h, repo, tmp_path, proposal(severity="major"))
    advance(h, repo, "F-0001", "REJECTED")  # refuted while app.py briefly returned 41; the bug is back
    assert gate(h)["verdict"] == "BLOCKED"
    h.ok("finding", "reproduce", "F-0001")  # re-checked on the real code: the reproducer fails
    doc = gate(h)
    assert doc["verdict"] == "BLOCKED" and any("F-0001 is open (rejected" in b for b in doc["blockers"])


def test_gate_verified_finding_passes_then_blocks_when_the_code_changes_after_verify(h, gating, repo, tmp_path):
    propose(h, tmp_path, proposal(severity="major"))
    advance(h, repo, "F-0001", "VERIFIED")
    recollect(h)
    assert gate(h)["verdict"] == "PASS"
    (repo / "app.py").write_text(FIXED_APP + "\n# touched after verify\n")
    recollect(h)  # the full suite is fresh again; the regression run is not
    g = gate(h)
    assert g["blockers"] == ["Finding F-0001 regression evidence is stale"]
    # re-verifying on the new code refreshes the regression run
    h.ok("evidence", "unit_test", "--", *REGRESSION_CMD)
    h.ok("finding", "verify", "F-0001")
    assert gate(h)["verdict"] == "PASS"


def test_gate_closed_finding_blocks_when_the_code_changes_after_it_was_verified(h, gating, repo, tmp_path):
    """Read 96's F-0328: closing a finding no longer releases it from its regression run on the gated tree;
    `finding verify` runs it (and the confirming reproducer) again on the new code, and it stays CLOSED."""
    propose(h, tmp_path, proposal(severity="critical"))
    advance(h, repo, "F-0001", "CLOSED")
    recollect(h)
    assert gate(h)["verdict"] == "PASS"  # closed on the tree it was verified on: nothing to do
    (repo / "app.py").write_text(FIXED_APP + "\n# later change\n")
    recollect(h)
    g = gate(h)
    assert g["blockers"] == ["Finding F-0001 regression evidence is stale"], g
    assert "harness finding verify F-0001" in h("gate").out
    h.ok("evidence", "unit_test", "--", *REGRESSION_CMD)
    h.ok("finding", "verify", "F-0001")
    assert fdoc(repo, gating)["status"] == "CLOSED"
    assert gate(h)["verdict"] == "PASS"
    assert h("replay").code == 0


def test_a_closed_finding_whose_fix_is_undone_blocks_and_cannot_be_verified_again(h, gating, repo, tmp_path):
    """Read 96's F-0328: close, revert the fix, delete the regression test: the gate blocked, and `verify`
    refuses (the regression test is gone or fails), the finding still CLOSED."""
    propose(h, tmp_path, proposal(severity="critical"))
    advance(h, repo, "F-0001", "CLOSED")
    (repo / "app.py").write_text("def answer():\n    return 42\n")
    (repo / REGRESSION_PATH).unlink()
    recollect(h)
    assert gate(h)["blockers"] == ["Finding F-0001 regression evidence is stale"]
    assert h("finding", "verify", "F-0001").code != 0
    assert fdoc(repo, gating)["status"] == "CLOSED"
    assert gate(h)["verdict"] == "BLOCKED"


def test_status_gate_now_names_the_open_finding(h, f1):
    doc = status_json(h)
    assert "Major finding F-0001 is open" in doc["gate_now"]["blockers"]


# =======================================================================================
# Status: confirmation and regression capture rates; Milestone 3
# =======================================================================================

def test_status_rates_are_null_without_findings(h, ft):
    rates = status_json(h)["findings"]["rates"]
    assert rates["confirmation_rate"] is None and rates["regression_capture_rate"] is None


def test_proposed_major_is_open_for_the_gate_but_not_a_confirmed_bug(h, f1):
    doc = status_json(h)
    f = doc["findings"]
    assert f["major"] == 1 and f["proposed"] == 1
    assert f["confirmed"] == 0
    assert f["rates"]["confirmed"] == 0 and f["rates"]["proposed"] == 1
    assert f["rates"]["confirmation_rate"] == 0.0
    assert f["rates"]["regression_capture_rate"] is None


def test_status_rates_follow_the_lifecycle(h, ft, repo, tmp_path):
    imagined = proposal(title="imagined", severity="minor")
    imagined["recommended_reproducer"]["command"] = PASS_CMD  # this reviewer's reproducer passes
    propose(h, tmp_path, [proposal(title="real"), imagined])
    h.ok("finding", "reproduce", "F-0001")
    rates = status_json(h)["findings"]["rates"]
    assert rates["confirmation_rate"] == 0.5
    assert rates["regression_capture_rate"] == 0.0
    h.ok("finding", "reproduce", "F-0002")
    h.ok("finding", "reject", "F-0002", "--reason", "the reviewer's reproducer passes")
    rates = status_json(h)["findings"]["rates"]
    assert rates["confirmation_rate"] == 0.5  # a rejection is still a proposal that was not confirmed
    write_regression_test(repo)
    h.ok("finding", "regression", "F-0001", REGRESSION_PATH, "--", *REGRESSION_CMD)
    rates = status_json(h)["findings"]["rates"]
    assert rates["confirmation_rate"] == 0.5 and rates["regression_capture_rate"] == 1.0
    fix_the_bug(repo)
    h.ok("finding", "fixed", "F-0001")
    collect_full_suite(h)
    h.ok("finding", "verify", "F-0001")
    h.ok("finding", "close", "F-0001")
    rates = status_json(h)["findings"]["rates"]  # CLOSED was confirmed once: it still counts
    assert rates["confirmation_rate"] == 0.5 and rates["regression_capture_rate"] == 1.0
    text = h.ok("status").out
    assert "confirmation rate 50%" in text and "regression capture 100%" in text
    listed = json.loads(h.ok("finding", "list", "--json").out)
    assert [f["status"] for f in listed["findings"]] == ["CLOSED", "REJECTED"]
    assert listed["rates"]["confirmation_rate"] == 0.5


def test_milestone3_reproducer_fails_confirmed_and_cannot_reproduce_rejected(h, ft, repo, tmp_path):
    imagined = proposal(title="imagined")
    imagined["recommended_reproducer"]["command"] = PASS_CMD   # this reviewer's reproducer passes
    propose(h, tmp_path, [proposal(title="real"), imagined])
    h.ok("finding", "reproduce", "F-0001")                      # PROPOSED → REPRODUCING → CONFIRMED
    h.ok("finding", "reproduce", "F-0002")                      # PROPOSED → REPRODUCING (it passed)
    assert fdoc(repo, ft, "F-0002")["status"] == "REPRODUCING"
    h.ok("finding", "reject", "F-0002", "--reason", "cannot reproduce")
    assert fdoc(repo, ft, "F-0001")["status"] == "CONFIRMED"
    assert fdoc(repo, ft, "F-0002")["status"] == "REJECTED"
    doc = status_json(h)
    assert "Confirmed finding F-0001 has no regression test" in doc["gate_now"]["blockers"]
    assert not any("F-0002" in b for b in doc["gate_now"]["blockers"])


# =======================================================================================
# reopen: a fix that does not hold any more, shown by the reviewer's reproducer failing again
# =======================================================================================

def undo_the_fix(repo: Path) -> None:
    (repo / "app.py").write_text((repo / "app.py").read_text("utf-8").replace("return 41", "return 42"), "utf-8")


@pytest.mark.parametrize("upto", ["FIXED", "VERIFIED", "CLOSED"])
def test_reopen_after_the_fix_is_undone_moves_the_finding_back_to_confirmed(h, f1, ft, repo, upto):
    advance(h, repo, f1, upto)
    undo_the_fix(repo)
    r = h("finding", "reopen", f1)
    assert r.code == 0, r.text
    assert "CONFIRMED" in r.out
    doc = fdoc(repo, ft)
    assert doc["status"] == "CONFIRMED"
    # The fix's facts are gone: a new regression test that fails now, then a fix, take it on again.
    assert doc["regression_test"]["path"] is None and doc["fix"] == {"commit": None}
    assert doc["verification"] == {"regression": "unknown", "full_suite": "unknown"}
    last = events(repo, ft)[-1]
    assert last["type"] == "finding.reopened" and last["data"]["outcome"] == "failed"
    assert last["data"]["tree"] == Git(repo).worktree_source_tree()
    assert doc["attempts"][-1]["outcome"] == "failed" and doc["reproduction"]["exit_code"] == 1
    assert h("replay").code == 0


def test_reopen_while_the_fix_holds_is_refused_and_records_nothing(h, f1, ft, repo):
    advance(h, repo, f1, "FIXED")
    before = ledger_bytes(repo, ft)
    r = h("finding", "reopen", f1)
    assert r.code == 1, r.text
    assert "did not fail" in r.err and "nothing recorded" in r.err
    assert ledger_bytes(repo, ft) == before and fdoc(repo, ft)["status"] == "FIXED"


@pytest.mark.parametrize("upto", ["PROPOSED", "REPRODUCING", "CONFIRMED", "FIXING", "REJECTED"])
def test_reopen_of_a_finding_not_fixed_is_refused_before_anything_runs(h, f1, ft, repo, tmp_path, upto):
    fid = f1
    if upto == "REJECTED":
        propose_refutable(h, repo, tmp_path, proposal(title="another claim"))
        fid = "F-0002"
    if upto != "PROPOSED":
        advance(h, repo, fid, upto)
    before = ledger_bytes(repo, ft)
    r = h("finding", "reopen", fid)
    assert r.code == 1, r.text
    assert f"cannot reopen a {upto} finding" in r.err and "FIXED or VERIFIED or CLOSED" in r.err
    assert ledger_bytes(repo, ft) == before


def test_a_reopened_finding_takes_a_new_regression_test_and_fix(h, f1, ft, repo):
    advance(h, repo, f1, "FIXED")
    undo_the_fix(repo)
    h.ok("finding", "reopen", f1)
    h.ok("finding", "regression", f1, REGRESSION_PATH, "--", *REGRESSION_CMD)  # the old test fails again: attached
    fix_the_bug(repo)
    h.ok("finding", "fixed", f1)
    collect_full_suite(h)
    h.ok("finding", "verify", f1)
    assert fdoc(repo, ft)["status"] == "VERIFIED"
    assert [e["type"] for e in events(repo, ft)].count("finding.regression") == 2


def test_the_gate_counts_a_reopened_major_finding_against_it_again(h, f1, ft, repo):
    advance(h, repo, f1, "FIXED")
    undo_the_fix(repo)
    _, fixed = gate_json(h)
    assert f"Confirmed finding {f1} has no regression test" not in fixed["blockers"]
    h.ok("finding", "reopen", f1)
    _, report = gate_json(h)
    assert f"Confirmed finding {f1} has no regression test" in report["blockers"], report["blockers"]
    assert f"Major finding {f1} is open" in report["blockers"]


def _forged_reopen(h, repo, ft, f1, **over) -> dict:
    tree = Git(repo).worktree_source_tree()
    data = {"id": f1, "command": shlex.join(FAIL_CMD), "argv": list(FAIL_CMD), "exit_code": 1, "outcome": "failed",
            "tree": tree, "head": Git(repo).head(), "output_tail": "", "files": {}, **over}
    append_event(repo, ft, "finding.reopened", data)
    return data


@pytest.mark.parametrize(("over", "says"), [
    ({"outcome": "passed", "exit_code": 0}, "did not fail (passed, exit 0)"),
    ({"command": shlex.join(MISSING_CMD), "argv": list(MISSING_CMD)}, "only a run of its reviewer's reproducer"),
    ({"outcome": "timeout", "exit_code": None}, "did not fail (timeout"),
])
def test_a_forged_reopen_without_a_failing_run_of_the_reviewers_reproducer_is_refused_by_replay(
        h, f1, ft, repo, over, says):
    advance(h, repo, f1, "FIXED")
    _forged_reopen(h, repo, ft, f1, **over)
    r = h("replay")
    assert r.code == 2, r.text
    assert says in r.err


def test_a_forged_reopen_of_a_finding_being_fixed_is_refused_by_replay(h, f1, ft, repo):
    advance(h, repo, f1, "FIXING")
    _forged_reopen(h, repo, ft, f1)
    r = h("replay")
    assert r.code == 2, r.text
    assert "cannot reopen a FIXING finding" in r.err


def _fixed_with_a_script_reproducer(h, repo, tmp_path) -> None:
    """F-0001 FIXED, its reviewer's reproducer a script of the repository (`python repro.py`), bound as proposed."""
    (repo / "repro.py").write_text("import app, sys\nsys.exit(0 if app.answer() == 41 else 1)\n", "utf-8")
    git(repo, "add", "repro.py")
    git(repo, "commit", "-qm", "the reviewer's script")
    assert propose(h, tmp_path, proposal(recommended_reproducer={
        "type": "unit_test", "description": "d", "command": [PY, "repro.py"]})).code == 0
    h.ok("finding", "reproduce", "F-0001")
    write_regression_test(repo)
    h.ok("finding", "regression", "F-0001", REGRESSION_PATH, "--", *REGRESSION_CMD)
    fix_the_bug(repo)
    h.ok("finding", "fixed", "F-0001")


def test_a_forged_reopen_of_the_reviewers_script_as_changed_is_refused_by_replay(h, ft, repo, tmp_path):
    _fixed_with_a_script_reproducer(h, repo, tmp_path)
    append_event(repo, ft, "finding.reopened", {
        "id": "F-0001", "command": shlex.join([PY, "repro.py"]), "argv": [PY, "repro.py"], "exit_code": 1,
        "outcome": "failed", "tree": Git(repo).worktree_source_tree(), "head": None, "output_tail": "",
        "files": {"repro.py": None}})
    r = h("replay")
    assert r.code == 2, r.text
    assert "repro.py is not as its reviewer proposed it" in r.err


def test_reopen_of_a_reviewers_script_edited_to_fail_is_refused(h, ft, repo, tmp_path):
    _fixed_with_a_script_reproducer(h, repo, tmp_path)
    (repo / "repro.py").write_text("import sys\nsys.exit(1)\n", "utf-8")  # the fix holds; the script lies
    before = ledger_bytes(repo, ft)
    r = h("finding", "reopen", "F-0001")
    assert r.code == 1, r.text
    assert "repro.py is not as its reviewer proposed it" in r.err
    assert ledger_bytes(repo, ft) == before and fdoc(repo, ft)["status"] == "FIXED"


def test_convergence_calls_a_verified_finding_reopened_a_repeated_regression():
    from harness.core.converge import repeated_regression

    content = proposal()
    events_ = [{"type": "finding.proposed", "data": {"id": "F-0001", "content": content}},
               {"type": "finding.reproduced", "data": {"id": "F-0001", "outcome": "failed"}},
               {"type": "finding.verified", "data": {"id": "F-0001"}}]
    assert repeated_regression(events_) is None
    found = repeated_regression([*events_, {"type": "finding.reopened", "data": {"id": "F-0001", "outcome": "failed"}}])
    assert found is not None and "F-0001" in found and "reopened" in found


def test_reopen_of_a_minor_finding_without_a_reviewers_reproducer_is_refused(h, ft, repo, tmp_path):
    assert propose(h, tmp_path, proposal(severity="minor", recommended_reproducer={
        "type": "unit_test", "description": "no command"})).code == 0
    h.ok("finding", "reproduce", "F-0001", "--", *FAIL_CMD)
    write_regression_test(repo)
    h.ok("finding", "regression", "F-0001", REGRESSION_PATH, "--", *REGRESSION_CMD)
    fix_the_bug(repo)
    h.ok("finding", "fixed", "F-0001")
    undo_the_fix(repo)
    before = ledger_bytes(repo, ft)
    r = h("finding", "reopen", "F-0001")
    assert r.code == 1, r.text
    assert "no reviewer's reproducer" in r.err and "propose the defect again" in r.err
    assert ledger_bytes(repo, ft) == before


# =======================================================================================
# A run fact's argv is what its command says (read 162's F-0566): the rules read the command's text, while
# `finding verify` and the audit's re-run run the argv, so a hand-appended run naming one and holding the
# other would make `true` the confirming reproducer
# =======================================================================================

OWN_FAILING_CMD = [PY, "-c", "import sys; sys.exit(1)"]
SPLIT_SECRET = ["-H", "Authorization:", "Bearer", "Zq8vT3kLmN0pQrStUvWxYz0123456789abcdef"]  # kept redacted as a whole


def _forged_run(h, repo, ft, fid, **over) -> None:
    """A finding.reproduced appended by hand: a failing run of the reviewer's reproducer on the proposed code."""
    append_event(repo, ft, "finding.reproduced", {
        "id": fid, "command": shlex.join(FAIL_CMD), "argv": list(FAIL_CMD), "exit_code": 1, "outcome": "failed",
        "tree": Git(repo).worktree_source_tree(), "head": Git(repo).head(), "output_tail": "", "files": {}, **over})


def test_f0566_a_forged_reopen_whose_argv_is_not_the_reviewers_command_is_refused_by_replay(h, f1, ft, repo):
    advance(h, repo, f1, "VERIFIED")
    undo_the_fix(repo)
    _forged_reopen(h, repo, ft, f1, argv=["true"])  # the reviewer's command text, `true` to run
    r = h("replay", "--write")  # re-render the files as the forger would: refused for an illegal ledger
    assert r.code == 2, r.text
    assert "argv ['true'] is not the argument list of its command" in r.err, r.err


@pytest.mark.parametrize(("argv", "outcome", "code"), [
    (OWN_FAILING_CMD, "failed", 1),  # would confirm it, and be what verify runs as the confirming reproducer
    (["true"], "passed", 0),  # would refute it, and be what the audit re-runs for the rejection
])
def test_f0566_a_forged_reproduce_whose_argv_is_not_its_command_is_refused_by_replay(
        h, f1, ft, repo, argv, outcome, code):
    _forged_run(h, repo, ft, f1, argv=argv, outcome=outcome, exit_code=code)
    r = h("replay", "--write")  # re-render the files as the forger would: refused for an illegal ledger
    assert r.code == 2, r.text
    assert f"argv {argv!r} is not the argument list of its command" in r.err, r.err


def test_f0566_a_forged_failing_run_of_another_command_does_not_confirm_a_major_finding(h, f1, ft, repo):
    _forged_run(h, repo, ft, f1, command=shlex.join(OWN_FAILING_CMD), argv=OWN_FAILING_CMD)
    r = h("replay", "--write")  # re-render the files as the forger would: refused for an illegal ledger
    assert r.code == 2, r.text
    assert "only a run of its reviewer's reproducer confirms it" in r.err, r.err


def test_f0566_a_forged_redacted_run_of_the_reviewers_command_with_another_argv_is_refused(h, ft, repo):
    """A reviewer's command holding a marker (an older harness kept it redacted): the marker is no licence for a
    run of that command to run something else, here a passing `true` a rejection and its re-check would read."""
    doc = proposal()
    doc["recommended_reproducer"]["command"] = [*FAIL_CMD, "[REDACTED:github_token]"]
    append_event(repo, ft, "finding.proposed", {"id": "F-0001", "content": doc})
    _forged_run(h, repo, ft, "F-0001", command=rules.recommended_command(doc), argv=["true"], outcome="passed",
                exit_code=0)
    r = h("replay", "--write")  # re-render the files as the forger would: refused for an illegal ledger
    assert r.code == 2, r.text
    assert "argv ['true'] is not the argument list of its command" in r.err, r.err


def test_f0566_a_redacted_run_confirms_no_major_finding_proposed_before_its_site_was_kept(h, ft, repo):
    append_event(repo, ft, "finding.proposed", {"id": "F-0001", "content": proposal()})  # as an older harness kept it
    own = [*OWN_FAILING_CMD, *SPLIT_SECRET]
    _forged_run(h, repo, ft, "F-0001", command=shlex.join([*OWN_FAILING_CMD, "-H", "Authorization:",
                                                             "[REDACTED:authorization]"]), argv=own)
    r = h("replay", "--write")  # re-render the files as the forger would: refused for an illegal ledger
    assert r.code == 2, r.text
    assert "is not the argument list of its command" in r.err and "redacted" in r.err, r.err


def test_f0566_a_run_of_another_command_still_confirms_a_major_finding_proposed_before_its_site_was_kept(
        h, ft, repo):
    """An old ledger decides as it did: its proposal kept no site, and replay took any failing run then."""
    append_event(repo, ft, "finding.proposed", {"id": "F-0001", "content": proposal()})
    _forged_run(h, repo, ft, "F-0001", command=shlex.join(OWN_FAILING_CMD), argv=OWN_FAILING_CMD)
    assert h("replay", "--write").code == 0
    assert fdoc(repo, ft)["status"] == "CONFIRMED" and h("replay").code == 0


def test_f0566_honest_reproduce_verify_and_reopen_still_replay(h, f1, ft, repo):
    advance(h, repo, f1, "VERIFIED")
    undo_the_fix(repo)
    h.ok("finding", "reopen", f1)
    assert fdoc(repo, ft)["status"] == "CONFIRMED" and h("replay").code == 0
    assert events(repo, ft)[-1]["data"]["argv"] == list(FAIL_CMD)


def test_f0566_a_minor_finding_confirmed_by_the_implementers_own_command_still_replays(h, ft, repo, tmp_path):
    assert propose(h, tmp_path, proposal(severity="minor")).code == 0
    h.ok("finding", "reproduce", "F-0001", "--", *OWN_FAILING_CMD)
    assert fdoc(repo, ft)["status"] == "CONFIRMED" and h("replay").code == 0


@pytest.mark.parametrize(("severity", "run", "status"), [
    ("major", [PY, "-c", "pass"], "REPRODUCING"),  # an attempt: another command, and it passed
    ("minor", OWN_FAILING_CMD, "CONFIRMED"),  # a minor finding is confirmed by any failing run
])
def test_f0566_a_run_whose_command_was_kept_redacted_still_replays(h, ft, repo, tmp_path, severity, run, status):
    assert propose(h, tmp_path, proposal(severity=severity)).code == 0
    h.ok("finding", "reproduce", "F-0001", "--", *run, *SPLIT_SECRET)
    kept = events(repo, ft)[-1]["data"]
    assert "[REDACTED:" in kept["command"] and shlex.join(kept["argv"]) != kept["command"]  # the case at hand
    assert fdoc(repo, ft)["status"] == status and h("replay").code == 0


def test_f0568_reopen_runs_a_reviewers_reproducer_given_as_one_string_split_as_reproduce_does(h, ft, repo, tmp_path):
    assert propose(h, tmp_path, proposal(recommended_reproducer={
        "type": "unit_test", "description": "one string", "command": shlex.join(FAIL_CMD)})).code == 0
    h.ok("finding", "reproduce", "F-0001")
    write_regression_test(repo)
    h.ok("finding", "regression", "F-0001", REGRESSION_PATH, "--", *REGRESSION_CMD)
    fix_the_bug(repo)
    h.ok("finding", "fixed", "F-0001")
    undo_the_fix(repo)
    r = h("finding", "reopen", "F-0001")
    assert r.code == 0, r.text
    assert fdoc(repo, ft)["status"] == "CONFIRMED"
    assert events(repo, ft)[-1]["data"]["argv"] == list(FAIL_CMD)
