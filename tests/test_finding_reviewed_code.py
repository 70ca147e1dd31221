"""A finding is bound to the code that was reviewed and to the reviewer's files wherever they are (read 98):
a script in .harness/local/ or outside the repository is bound (F-0344); a proposal made while the task is
reviewed binds to the tree it entered REVIEWING on (F-0343); a run on other code names a way back to the
proposal's tree that works on uncommitted work (F-0345); a rejection's re-check of a pytest node id survives a
case added elsewhere in its file (F-0346)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import yaml

from support.cli import TO_VERIFYING, walk_to
from support.flows import collect_all, proposal, propose
from support.records import events, tdir

PY = sys.executable
SCRIPT = "import os, sys\nsys.path.insert(0, os.getcwd())\nimport app\nsys.exit(0 if app.answer() == 41 else 1)\n"
EXIT_0 = "import sys\nsys.exit(0)\n"
FIXED = "def answer():\n    return 41\n"


def status(repo: Path, tid: str, fid: str = "F-0001") -> str:
    return yaml.safe_load((tdir(repo, tid) / "findings" / f"{fid}.yaml").read_text("utf-8"))["status"]


def with_script(path: Path, name: str) -> dict:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(SCRIPT, "utf-8")
    doc = proposal()
    doc["recommended_reproducer"]["command"] = [PY, name]
    return doc


def to_reviewing(h) -> None:
    walk_to(h, *TO_VERIFYING)
    collect_all(h)
    walk_to(h, "REVIEWING")


def sh(repo: Path, command: str) -> None:
    subprocess.run(command, shell=True, cwd=repo, check=True, capture_output=True)


# -- F-0344: the reviewer's script is bound wherever it is --------------------------------------------------------

def test_a_reviewers_script_in_harness_local_is_bound_and_its_rewrite_rejects_nothing(h, ft, repo, tmp_path):
    assert propose(h, tmp_path, with_script(repo / ".harness/local/repro.py", ".harness/local/repro.py")).code == 0
    assert ".harness/local/repro.py" in events(repo, ft)[-1]["data"]["files"]
    (repo / ".harness/local/repro.py").write_text(EXIT_0, "utf-8")
    r = h("finding", "reproduce", "F-0001")
    assert r.code == 0 and "only an attempt" in r.out and ".harness/local/repro.py" in r.out, r.text
    r = h("finding", "reject", "F-0001", "--reason", "the reviewer's reproducer passes")
    assert r.code == 1 and status(repo, ft) == "REPRODUCING", r.text


def test_a_reviewers_script_outside_the_repository_is_bound_by_its_absolute_path(h, ft, repo, tmp_path):
    outside = tmp_path / "review" / "repro.py"
    assert propose(h, tmp_path, with_script(outside, str(outside))).code == 0
    assert str(outside) in events(repo, ft)[-1]["data"]["files"]
    outside.write_text(EXIT_0, "utf-8")
    r = h("finding", "reproduce", "F-0001")
    assert r.code == 0 and "only an attempt" in r.out, r.text
    # Still allowed: put back as proposed, it is the reviewer's reproducer and confirms.
    outside.write_text(SCRIPT, "utf-8")
    h.ok("finding", "reproduce", "F-0001")
    assert status(repo, ft) == "CONFIRMED" and h("replay").code == 0


def test_the_harness_own_task_records_are_still_not_bound(h, ft, repo, tmp_path):
    doc = proposal()
    ledger = f".harness/tasks/{ft}/events.jsonl"
    doc["recommended_reproducer"]["command"] = [PY, "-c", "import sys, app; sys.exit(app.answer() != 41)", ledger]
    assert propose(h, tmp_path, doc).code == 0
    assert events(repo, ft)[-1]["data"]["files"] == {}
    h.ok("finding", "reproduce", "F-0001")
    assert status(repo, ft) == "CONFIRMED"


# -- F-0343: a proposal made while the task is reviewed is about the reviewed code -------------------------------

def test_a_fix_made_before_proposing_binds_the_proposal_to_the_reviewed_code(h, ft, repo, tmp_path):
    to_reviewing(h)
    reviewed = [e for e in events(repo, ft) if e["data"].get("to") == "REVIEWING"][-1]["data"]["tree"]
    (repo / "app.py").write_text(FIXED, "utf-8")  # fixed silently between the review and the proposal
    r = propose(h, tmp_path, proposal())
    assert r.code == 0 and "bound to the reviewed code" in r.out, r.text
    assert events(repo, ft)[-1]["data"]["tree"] == reviewed
    r = h("finding", "reproduce", "F-0001")
    assert r.code == 0 and "only an attempt" in r.out, r.text
    r = h("finding", "reject", "F-0001", "--reason", "answer() is 41: the reviewer's reproducer passes")
    assert r.code == 1 and status(repo, ft) == "REPRODUCING", r.text


def test_a_proposal_on_the_reviewed_code_confirms_as_before(h, ft, repo, tmp_path):
    to_reviewing(h)
    r = propose(h, tmp_path, proposal())
    assert r.code == 0 and "reviewed code" not in r.out, r.text
    h.ok("finding", "reproduce", "F-0001")
    assert status(repo, ft) == "CONFIRMED"


def test_a_proposal_made_outside_a_review_binds_to_the_working_tree(h, ft, repo, tmp_path):
    walk_to(h, *TO_VERIFYING)
    (repo / "app.py").write_text(FIXED, "utf-8")
    assert propose(h, tmp_path, proposal()).code == 0
    h.ok("finding", "reproduce", "F-0001")
    h.ok("finding", "reject", "F-0001", "--reason", "answer() is 41")
    assert status(repo, ft) == "REJECTED"


# -- F-0345: the way back to the proposal's tree works on uncommitted work ---------------------------------------

def test_the_named_way_to_the_proposed_code_and_back_works_on_uncommitted_work(h, ft, repo, tmp_path):
    (repo / "extra.py").write_text("X = 1\n", "utf-8")                        # the task's work, uncommitted
    assert propose(h, tmp_path, proposal()).code == 0
    (repo / "NOTES.md").write_text("# notes\n", "utf-8")                      # an unrelated edit after it
    (repo / "extra.py").write_text("X = 2\n", "utf-8")
    r = h("finding", "reproduce", "F-0001")
    assert r.code == 0 and "only an attempt" in r.out, r.text
    there = re.search(r"put your changes aside \(`([^`]*)`\)", r.out).group(1)
    back = re.search(r"bring them back \(`([^`]*)`\)", r.out).group(1)
    sh(repo, there)
    h.ok("finding", "reproduce", "F-0001")
    assert status(repo, ft) == "CONFIRMED"
    sh(repo, back)
    assert (repo / "NOTES.md").read_text("utf-8") == "# notes\n" and (repo / "extra.py").read_text("utf-8") == "X = 2\n"


# -- F-0346: a rejection's re-check of a node id survives another case added to its file -------------------------

TEST_FILE = "import app\n\n\ndef test_answer():\n    assert app.answer() == 42\n"


def rejected_node_id(h, ft, repo, tmp_path) -> None:
    (repo / "checks").mkdir()
    (repo / "checks/test_app.py").write_text(TEST_FILE, "utf-8")
    doc = proposal()
    doc["recommended_reproducer"]["command"] = [PY, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                                                "checks/test_app.py::test_answer"]
    assert propose(h, tmp_path, doc).code == 0
    h.ok("finding", "reproduce", "F-0001")
    h.ok("finding", "reject", "F-0001", "--reason", "answer() is 42 as the requirement says")


def test_a_case_added_to_the_node_ids_file_after_a_rejection_keeps_it_re_checkable(h, ft, repo, tmp_path):
    rejected_node_id(h, ft, repo, tmp_path)
    with (repo / "checks/test_app.py").open("a", encoding="utf-8") as f:
        f.write("\n\ndef test_more():\n    assert app.answer() > 0\n")
    r = h("finding", "reproduce", "F-0001")
    assert r.code == 0 and "no re-check" not in r.out, r.text
    assert json.loads(h.ok("status", "--json").out)["findings"]["major"] == 0


def test_an_edit_of_the_named_test_itself_is_still_no_re_check(h, ft, repo, tmp_path):
    rejected_node_id(h, ft, repo, tmp_path)
    (repo / "checks/test_app.py").write_text(TEST_FILE.replace("== 42", "!= 0"), "utf-8")
    r = h("finding", "reproduce", "F-0001")
    assert r.code == 0 and "no re-check" in r.out and "checks/test_app.py" in r.out, r.text
    assert json.loads(h.ok("status", "--json").out)["findings"]["major"] == 1
