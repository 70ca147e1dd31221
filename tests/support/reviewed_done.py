"""A task taken to DONE through a review, for `harness audit --rerun`'s tests: F-0001 confirmed, regression-tested,
fixed, verified and closed; F-0002 rejected (tests/test_audit_rerun_findings.py, and the auditor's own imports)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import yaml

from support.cli import TO_VERIFYING, walk_to
from support.flows import finding
from support.gitrepo import commit_all_ok
from support.records import PASS_CMD, configure

PY = sys.executable
APP = "def answer():\n    return {answer}\n\n\ndef double(x):\n    return {double}\n"
DOUBLE_CHECK = "import app, sys; sys.exit(app.double(-3) != -6)"
ANSWER_CHECK = "import app, sys; sys.exit(app.answer() != 42)"


def shadow_bin(tmp_path: Path, name: str, script: str) -> Path:
    folder = tmp_path / f"bin-{name}"
    folder.mkdir(exist_ok=True)
    path = folder / name
    path.write_text(f"#!/bin/sh\n{script}\n")
    path.chmod(0o755)
    return folder


def with_path(monkeypatch, folder: Path | None, fn) -> None:
    """Run ``fn`` with ``folder`` first on PATH (the laptop's bent environment), then restore."""
    if folder is None:
        fn()
        return
    old = os.environ["PATH"]
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{old}")
    try:
        fn()
    finally:
        monkeypatch.setenv("PATH", old)


def done_with_findings(h, repo: Path, tmp_path: Path, monkeypatch, *, answer: int = 42,
                       reject_cmd: list[str] | None = None, reject_bin: Path | None = None,
                       verify_bin: Path | None = None, after_reject=None, recheck=None) -> tuple[str, str, str]:
    """A task taken to DONE through a review: F-0001 confirmed, regression-tested, fixed, verified
    and closed; F-0002 rejected. ``*_bin``: a PATH folder in effect while that step runs. ``after_reject``:
    called once F-0002 is rejected; ``recheck(tid)``: what re-checks the rejection before the gate (default:
    its reviewer's reproducer). (base, tid, done)"""
    configure(repo, PASS_CMD, [PY, "-c", "import app"])
    (repo / "app.py").write_text(APP.format(answer=answer, double="x + x if x > 0 else 0"))
    base = commit_all_ok(repo, "config and code")
    tid = h.ok("task", "new", "Doubling").out.strip()
    h.ok("requirement", "add", "double doubles", "--priority", "must")
    walk_to(h, *TO_VERIFYING)
    h.ok("evidence", "build")
    h.ok("evidence", "unit_test")
    walk_to(h, "REVIEWING")
    rejected = finding("answer is wrong", "answer() is not 42", ANSWER_CHECK)
    rejected["recommended_reproducer"]["command"] = reject_cmd or ["python3", "-c", ANSWER_CHECK]
    confirmed = finding("double drops negatives", "double(-3) is 0", DOUBLE_CHECK)
    confirmed["recommended_reproducer"]["command"] = ["python3", "-c", DOUBLE_CHECK]
    proposal = tmp_path / "findings.yaml"
    proposal.write_text(yaml.safe_dump({"findings": [confirmed, rejected]}))
    h.ok("finding", "propose", "--file", str(proposal))
    walk_to(h, "REPRODUCING")
    h.ok("finding", "reproduce", "F-0001")
    with_path(monkeypatch, reject_bin, lambda: h.ok("finding", "reproduce", "F-0002"))
    h.ok("finding", "reject", "F-0002", "--reason", "the reproducer passes")
    if after_reject:
        after_reject()
    walk_to(h, "FIXING")
    (repo / "regress.py").write_text(f"{DOUBLE_CHECK}\n")
    h.ok("finding", "regression", "F-0001", "regress.py", "--", "python3", "regress.py")
    fix = "x + x" if verify_bin is None else "x + x if x > 0 else 0  # looks fixed, is not"
    (repo / "app.py").write_text(APP.format(answer=answer, double=fix))
    h.ok("finding", "fixed", "F-0001")
    walk_to(h, "VERIFYING")
    h.ok("evidence", "build")
    h.ok("evidence", "unit_test")
    with_path(monkeypatch, verify_bin, lambda: h.ok("finding", "verify", "F-0001"))
    h.ok("finding", "close", "F-0001")
    h.ok("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "unit_test")
    walk_to(h, "REVIEWING", "GATING")
    if recheck:
        recheck(tid)
    else:
        with_path(monkeypatch, reject_bin, lambda: h.ok("finding", "reproduce", "F-0002"))
    r = h("gate", "--advance")
    assert r.code == 0, r.text
    h.ok("transition", "DONE")
    return base, tid, commit_all_ok(repo, "done")
