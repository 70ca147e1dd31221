"""`harness metrics` over a real history built with known rates: every figure checked."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pytest
import yaml

from support.cli import TO_VERIFYING, walk_to
from support.flows import collect_passing_evidence, finding, gate_to_converged, hand_done_no_verify, new_task
from support.gitrepo import commit_all_ok, head
from support.templates import Template, template

PY = sys.executable


def honest_done(h, repo: Path, title: str, path: str, content: str) -> tuple[str, str]:
    tid = new_task(h, title)
    (repo / path).write_text(content)
    walk_to(h, *TO_VERIFYING)
    collect_passing_evidence(h)
    gate_to_converged(h)
    h.ok("transition", "DONE")
    return tid, commit_all_ok(repo, f"{title}: DONE")


def build_history(h, repo: Path, tmp_path: Path) -> dict:
    commit_all_ok(repo, "harness init")
    ids: dict = {"start": head(repo)}
    ids["t1"], ids["t1_done"] = honest_done(h, repo, "Change the answer", "app.py", "def answer():\n    return 43\n")
    t1_done_second = int(time.time())  # t1's DONE event is stamped with this second or an earlier one
    ids["t2"], ids["t2_done"] = honest_done(h, repo, "Add a library", "lib.py", "X = 1\n")
    ids["t3"], ids["t3_forged"] = hand_done_no_verify(repo, h, "Shortcut")
    ids["t4"] = new_task(h, "Hopeless")
    walk_to(h, *TO_VERIFYING, "REVIEWING", "GATING", "BLOCKED")
    h.ok("transition", "ESCALATED", "--reason", "SPEC_AMBIGUITY: two readings")
    commit_all_ok(repo, "escalated")
    # Ledger timestamps have one-second resolution: "created after t1 was done" must be visible in
    # them. Wait for the next second only as long as the steps since t1 did not already take it.
    time.sleep(max(0.0, t1_done_second + 1.01 - time.time()))
    ids["t5"] = new_task(h, f"Answer is wrong again after {ids['t1']}")
    walk_to(h, *TO_VERIFYING, "REVIEWING")
    proposal = tmp_path / "findings.yaml"
    proposal.write_text(yaml.safe_dump({"findings": [
        finding("answer is 43", "answer() is not 42", "import app, sys; sys.exit(app.answer() != 42)"),
        finding("answer is negative", "answer() < 0", "import app, sys; sys.exit(app.answer() < 0)")]}))
    h.ok("finding", "propose", "--file", str(proposal))
    walk_to(h, "REPRODUCING")
    h.ok("finding", "reproduce", "F-0001")
    h.ok("finding", "reproduce", "F-0002")
    h.ok("finding", "reject", "F-0002", "--reason", "it is positive")
    walk_to(h, "FIXING")
    (repo / "test_answer.py").write_text("import app, sys\nsys.exit(app.answer() != 42)\n")
    h.ok("finding", "regression", "F-0001", "test_answer.py", "--", PY, "test_answer.py")
    ids["end"] = commit_all_ok(repo, "review of the answer")
    return ids


@pytest.fixture(scope="session")
def history_template(tmp_path_factory, h_template) -> Template:
    """What ``history`` copies: ``build_history`` on ``h``'s repository, built once per run."""
    return template(tmp_path_factory, "metrics-history", lambda repo, h: build_history(h, repo, repo.parent),
                    on=h_template)


@pytest.fixture
def history(history_template, h, repo) -> dict:
    """``repo`` after ``build_history``; returns its ids."""
    return dict(history_template.data)


def test_metrics_over_the_whole_history(h, repo, history):
    ids = history
    r = h("metrics", "--json")
    assert r.code == 0, r.text
    doc = json.loads(r.out)
    assert doc["tasks"] == 5 and doc["unreadable_tasks"] == []
    assert doc["false_done"] == {"rate": 0.5, "numerator": 1, "denominator": 2,
                                 "ids": [f"{ids['t1']} (reopened by {ids['t5']})"]}
    assert doc["finding_confirmation"] == {"rate": 0.5, "numerator": 1, "denominator": 2, "ids": [f"{ids['t5']} F-0001"]}
    assert doc["regression_capture"] == {"rate": 1.0, "numerator": 1, "denominator": 1, "ids": [f"{ids['t5']} F-0001"]}
    assert doc["gate_bypass"] == {"rate": 0.333, "numerator": 1, "denominator": 3,
                                  "ids": [f"{ids['t3_forged'][:12]} {ids['t3']}"]}
    assert doc["convergence"] == {"rate": 0.667, "numerator": 2, "denominator": 3, "ids": sorted([ids["t1"], ids["t2"]])}

    text = h.ok("metrics").out
    assert "gate bypass" in text and "   1 / 3    0.333" in text and ids["t3_forged"][:12] in text


def test_metrics_from_a_revision_leaves_out_what_finished_before_it(h, repo, history):
    ids = history
    doc = json.loads(h.ok("metrics", "--from", ids["t1_done"], "--to", ids["end"], "--json").out)
    assert doc["tasks"] == 4 and doc["range"]["commits"] == 4
    assert (doc["false_done"]["numerator"], doc["false_done"]["denominator"]) == (0, 1)
    assert (doc["gate_bypass"]["numerator"], doc["gate_bypass"]["denominator"]) == (1, 2)
    assert (doc["convergence"]["numerator"], doc["convergence"]["denominator"]) == (1, 2)
