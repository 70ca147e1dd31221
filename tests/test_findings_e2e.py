"""End to end (issue 5): a contract, an adversarial review, one real bug confirmed, fixed behind a
regression test and closed, one imagined bug rejected, the gate PASS, DONE, and every step committed
through the native git hooks (`harness install`)."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
import yaml

from support.cli import walk_to
from support.flows import finding
from support.gitrepo import git

pytestmark = pytest.mark.e2e  # a whole task committed through the native git hooks

PY = sys.executable
PYTEST = [PY, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
NOTES = "refs/notes/harness"

BUGGY_APP = """\
def answer():
    return 42


def double(x):
    return x + x if x > 0 else 0
"""
FIXED_APP = """\
def answer():
    return 42


def double(x):
    return x + x
"""
UNIT_TESTS = """\
import app


def test_double_positive():
    assert app.double(3) == 6


def test_double_returns_an_int():
    assert isinstance(app.double(2), int)
"""
REGRESSION = """\
import app


def test_double_negative():
    assert app.double(-3) == -6
"""
CONTRACT = {"contract": {
    "acceptance_criteria": ["double(x) is 2*x for every integer x"],
    "requirements": [{"statement": "double(x) returns 2*x for every integer x", "priority": "must",
                      "source": "user", "verified_by": ["unit_test"]}],
    "invariants": [{"statement": "double(x) returns an int for an int", "category": "types",
                    "severity": "major", "verified_by": ["unit_test"]}],
}}


def commit_ok(repo: Path, msg: str) -> str:
    git(repo, "add", "-A")
    proc = git(repo, "commit", "-m", msg, check=False)
    assert proc.returncode == 0, f"commit {msg!r} was refused:\n{proc.stdout}\n{proc.stderr}"
    return git(repo, "rev-parse", "HEAD").stdout.strip()


def fstatus(repo: Path, tid: str, fid: str) -> str:
    return yaml.safe_load((repo / ".harness" / "tasks" / tid / "findings" / f"{fid}.yaml").read_text())["status"]


def test_contract_to_closed_finding_to_gate_pass_to_done_committed_through_the_hooks(h, repo, tmp_path):
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    (repo / ".gitignore").write_text("__pycache__/\n.pytest_cache/\n")
    h.ok("install")
    assert (repo / ".git" / "hooks" / "pre-commit").is_file()
    commit_ok(repo, "harness init")

    # -- contract --------------------------------------------------------------------------------
    tid = h.ok("task", "new", "Doubling", "--description", "implementer notes").out.strip()
    (inbox / "contract.yaml").write_text(yaml.safe_dump(CONTRACT))
    assert h("contract", "check", "--file", str(inbox / "contract.yaml")).code == 0
    h.ok("contract", "apply", "--file", str(inbox / "contract.yaml"))
    commit_ok(repo, "contract")

    # -- implement, verify -----------------------------------------------------------------------
    walk_to(h, "IMPLEMENTING")
    (repo / "app.py").write_text(BUGGY_APP)
    (repo / "tests").mkdir()
    (repo / "tests" / "test_app.py").write_text(UNIT_TESTS)
    (repo / "tests" / "conftest.py").write_text(
        "import os, sys\nsys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))\n")
    walk_to(h, "VERIFYING")
    h.ok("evidence", "build", "--", PY, "-m", "py_compile", "app.py")
    h.ok("evidence", "unit_test", "--", *PYTEST, "tests")

    # -- review ----------------------------------------------------------------------------------
    walk_to(h, "REVIEWING")
    packet = inbox / "packet.md"
    h.ok("review", "packet", "--out", str(packet))
    text = packet.read_text()
    assert "+    return x + x if x > 0 else 0" in text and "`tests/test_app.py`" in text
    assert "double(x) returns 2*x for every integer x" in text and "implementer notes" not in text
    (inbox / "findings.yaml").write_text(yaml.safe_dump({"findings": [
        finding("double drops negative numbers", "double(-3) returns 0",
                "import app, sys; sys.exit(app.double(-3) != -6)"),
        finding("answer is not 42", "answer() returns something else",
                "import app, sys; sys.exit(app.answer() != 42)"),
    ]}))
    r = h("finding", "propose", "--file", str(inbox / "findings.yaml"))
    assert r.code == 0, r.text
    assert "F-0001" in r.out and "F-0002" in r.out

    # -- reproduce: one real, one imagined -----------------------------------------------------------
    walk_to(h, "REPRODUCING")
    h.ok("finding", "reproduce", "F-0001")
    assert fstatus(repo, tid, "F-0001") == "CONFIRMED"
    h.ok("finding", "reproduce", "F-0002")
    assert fstatus(repo, tid, "F-0002") == "REPRODUCING"
    h.ok("finding", "reject", "F-0002", "--reason", "answer() is 42: the reproducer passes")
    assert fstatus(repo, tid, "F-0002") == "REJECTED"
    status = json.loads(h.ok("status", "--json").out)
    assert status["findings"]["rates"]["confirmation_rate"] == 0.5
    assert status["findings"]["rates"]["regression_capture_rate"] == 0.0
    assert "Confirmed finding F-0001 has no regression test" in status["gate_now"]["blockers"]
    commit_ok(repo, "review findings reproduced")

    # -- regression test, fix --------------------------------------------------------------------------
    walk_to(h, "FIXING")
    (repo / "tests" / "test_regression.py").write_text(REGRESSION)
    r = h("finding", "regression", "F-0001", "tests/test_regression.py", "--", *PYTEST, "tests/test_regression.py")
    assert r.code == 0, r.text
    assert fstatus(repo, tid, "F-0001") == "FIXING"
    commit_ok(repo, "regression test for F-0001")
    (repo / "app.py").write_text(FIXED_APP)
    h.ok("finding", "fixed", "F-0001")
    walk_to(h, "VERIFYING")
    assert h("finding", "verify", "F-0001").code == 1  # the evidence predates the fix
    h.ok("evidence", "build", "--", PY, "-m", "py_compile", "app.py")
    h.ok("evidence", "unit_test", "--", *PYTEST, "tests")
    h.ok("finding", "verify", "F-0001")
    h.ok("finding", "close", "F-0001")
    assert fstatus(repo, tid, "F-0001") == "CLOSED"
    h.ok("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "unit_test")
    h.ok("invariant", "set", "INV-001", "--status", "verified", "--evidence", "unit_test")

    # -- gate, done ----------------------------------------------------------------------------------
    walk_to(h, "REVIEWING", "GATING")
    r = h("gate")
    assert r.code == 1 and "F-0002 is open (rejected" in r.out  # refuted before the fix, not on this code
    h.ok("finding", "reproduce", "F-0002")  # the reviewer's reproducer still passes on the final code
    r = h("gate", "--advance")
    assert r.code == 0, r.text
    assert "QUALITY GATE: PASS" in r.out and "CONVERGED" in r.out
    h.ok("transition", "DONE")
    status = json.loads(h.ok("status", "--json").out)
    assert status["state"] == "DONE"
    assert status["findings"]["rates"]["confirmation_rate"] == 0.5
    assert status["findings"]["rates"]["regression_capture_rate"] == 1.0
    assert status["findings"]["major"] == 0
    assert h("replay").code == 0

    done = commit_ok(repo, "DONE: doubling")
    stamp = json.loads(git(repo, "notes", "--ref", NOTES, "show", done).stdout)
    assert stamp["tasks"][tid]["gate"] == "PASS"
    assert git(repo, "status", "--porcelain").stdout.strip() == ""
    r = h.proc("hook", "validate")
    assert r.code == 0, r.text

    # The hooks that accepted all this are live: a hand edit of the closed finding is refused.
    path = repo / ".harness" / "tasks" / tid / "findings" / "F-0001.yaml"
    path.write_text(re.sub(r"(?m)^status: CLOSED$", "status: VERIFIED", path.read_text()))
    git(repo, "add", "-A")
    proc = git(repo, "commit", "-m", "tamper", check=False)
    assert proc.returncode != 0, proc.stdout + proc.stderr
    assert "findings/F-0001.yaml" in proc.stderr and "projection-matches-ledger" in proc.stderr
    assert git(repo, "rev-parse", "HEAD").stdout.strip() == done
