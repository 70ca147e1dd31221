"""`harness review packet` (issue 5, seed §20): what a fresh adversarial reviewer gets, and what not."""

from __future__ import annotations

import re

import pytest
import yaml

from support.cli import walk_to
from support.gitrepo import git

CONTRACT = {"contract": {
    "acceptance_criteria": ["ACCEPT-answer returns forty-one"],
    "requirements": [{"statement": "REQSTMT answer() returns 41", "priority": "must", "verified_by": ["unit_test"]}],
    "invariants": [{"statement": "INVSTMT answer() is an int", "category": "types", "severity": "major",
                    "verified_by": ["unit_test"]}],
    "risks": ["RISK callers compare with 42"],
}}
SECRET = "SECRET NARRATIVE"
REASON = "PRIVATE REASONING about why my code is fine"


def section(text: str, title: str) -> str:
    """The body of ``## title`` up to the next ``## `` heading."""
    m = re.search(rf"^## {re.escape(title)}[^\n]*\n(.*?)(?=^## |\Z)", text, re.S | re.M)
    assert m, f"no section {title!r} in:\n{text}"
    return m.group(1)


def yaml_block(text: str) -> str:
    blocks = re.findall(r"^```yaml\n(.*?)^```", text, re.S | re.M)
    assert len(blocks) == 1, blocks
    return blocks[0]


@pytest.fixture
def reviewed(h, repo, tmp_path) -> tuple[str, str]:
    """A task made with a narrative, a contract applied, transitions with reasons, and a change:
    app.py modified and committed, a test changed, a new untracked module and a new top-level test.
    Returns (task id, packet text)."""
    (repo / "tests").mkdir()
    (repo / "tests" / "test_existing.py").write_text("def test_old():\n    assert True\n")
    (repo / "README.txt").write_text("docs\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "tests before the task")
    tid = h.ok("task", "new", "Make answer right", "--description", SECRET).out.strip()
    cfile = tmp_path / "contract.yaml"
    cfile.write_text(yaml.safe_dump(CONTRACT))
    h.ok("contract", "apply", "--file", str(cfile))
    h.ok("transition", "IMPLEMENTING", "--reason", REASON)
    (repo / "app.py").write_text("def answer():\n    return 41\n")
    git(repo, "commit", "-qam", "COMMIT NARRATIVE: I am sure this is right")
    (repo / "tests" / "test_existing.py").write_text("def test_old():\n    assert 1 + 1 == 2\n")
    (repo / "newmod.py").write_text("UNTRACKED_CONTENT_MARKER = 'brand new'\n")
    (repo / "test_toplevel.py").write_text("def test_top():\n    pass\n")
    h.ok("transition", "VERIFYING", "--reason", REASON)
    out = tmp_path / "packet.md"
    r = h("review", "packet", "--out", str(out))
    assert r.code == 0, r.text
    assert str(out) in r.out
    return tid, out.read_text("utf-8")


def test_packet_contains_the_contract_requirements_and_invariants(reviewed):
    _, text = reviewed
    assert "ACCEPT-answer returns forty-one" in section(text, "Contract")
    assert "REQ-001" in section(text, "Requirements") and "REQSTMT answer() returns 41" in section(text, "Requirements")
    inv = section(text, "Invariants")
    assert "INV-001" in inv and "INVSTMT answer() is an int" in inv and "types" in inv and "major" in inv


def test_packet_diff_covers_committed_modified_and_new_untracked_files(reviewed):
    _, text = reviewed
    diff = section(text, "Diff")
    assert "diff --git a/app.py b/app.py" in diff
    assert "-    return 42" in diff and "+    return 41" in diff
    assert "+UNTRACKED_CONTENT_MARKER = 'brand new'" in diff
    assert "+    assert 1 + 1 == 2" in diff
    assert ".harness" not in diff
    # the change made before the task started is not part of it
    assert "README.txt" not in diff


def test_packet_lists_tests_added_or_changed(reviewed):
    _, text = reviewed
    tests = section(text, "Tests added or changed")
    assert "`tests/test_existing.py`" in tests
    assert "`test_toplevel.py`" in tests
    assert "app.py" not in tests and "newmod.py" not in tests


def test_packet_has_the_reviewer_rules(reviewed):
    _, text = reviewed
    rules = section(text, "Your rules").lower()
    assert "assume the implementation contains defects" in rules
    assert "concrete failure scenarios" in rules
    assert "no style feedback" in rules
    assert "no code changes" in rules
    assert "output only findings" in rules


def test_packet_leaves_out_the_implementers_narrative(reviewed):
    _, text = reviewed
    assert SECRET not in text
    assert REASON not in text
    assert "COMMIT NARRATIVE" not in text


def test_packet_example_finding_validates_through_propose(reviewed, h, repo, tmp_path):
    tid, text = reviewed
    assert "Finding schema" in text
    example = tmp_path / "example.yaml"
    example.write_text(yaml_block(text))
    doc = yaml.safe_load(example.read_text())
    assert len(doc["findings"]) == 1
    r = h("finding", "propose", "--file", str(example))
    assert r.code == 0, r.text
    saved = yaml.safe_load((repo / ".harness" / "tasks" / tid / "findings" / "F-0001.yaml").read_text())
    assert saved["status"] == "PROPOSED"
    assert saved["title"] == doc["findings"][0]["title"]


def test_packet_to_stdout_and_with_an_explicit_base(h, repo, tmp_path):
    h.ok("task", "new", "Base handling")
    (repo / "app.py").write_text("def answer():\n    return 41\n")
    git(repo, "commit", "-qam", "change app")
    (repo / "later.py").write_text("LATER = 1\n")
    text = h.ok("review", "packet").out
    assert "+    return 41" in text and "+LATER = 1" in text
    text = h.ok("review", "packet", "--base", "HEAD").out
    assert "return 41" not in section(text, "Diff")
    assert "+LATER = 1" in text
    head = git(repo, "rev-parse", "HEAD").stdout.strip()
    assert f"Diff base: `{head}`" in text


def test_packet_with_an_unknown_base_exits_2(h, task):
    r = h("review", "packet", "--base", "no-such-rev")
    assert r.code == 2
    assert "no-such-rev" in r.err


def test_packet_without_changes_says_so(h, task):
    text = h.ok("review", "packet").out
    assert "(no changes)" in section(text, "Diff")
    assert "(none" in section(text, "Tests added or changed")


def test_packet_of_a_task_without_contract_still_has_requirements_and_rules(h, task):
    h.ok("requirement", "add", "Interrupted runs resume", "--priority", "must")
    walk_to(h, "SPECIFYING")
    text = h.ok("review", "packet").out
    assert "Interrupted runs resume" in section(text, "Requirements")
    assert "## Your rules" in text


def test_packet_leaves_out_rejection_reasons_of_earlier_findings(reviewed, h, tmp_path):
    _, text = reviewed
    example = tmp_path / "example.yaml"
    # A reviewer whose reproducer passes here: the claim is refuted by its own command.
    block = yaml_block(text)
    example.write_text(block.replace("python -m pytest -q tests/test_recovery.py::test_double_resume", "git --version"))
    h.ok("finding", "propose", "--file", str(example))
    h.ok("finding", "reproduce", "F-0001")
    h.ok("finding", "reject", "F-0001", "--reason", "REJECTION NARRATIVE: the reviewer misread it")
    again = h.ok("review", "packet").out
    assert "REJECTION NARRATIVE" not in again
    assert SECRET not in again and REASON not in again
