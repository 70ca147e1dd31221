"""Read 114's F-0405: `harness status --json` carries what its text shows of a run that started and never recorded
its outcome (killed, crashed): a `pending` list, and the type's freshness UNKNOWN, as the gate judges it — not only
the older record's FRESH pass. The click-free fast path and the click command print the same document."""

from __future__ import annotations

import json
import os

from harness.cli.main import main

from support.cli import TO_VERIFYING, walk_to
from support.paths import PY
from support.records import append_event

LOST_RUN = {"run_id": "f" * 16, "type": "unit_test", "command": "python3 -c pass",
            "started_at": "2026-01-02T03:04:05Z"}


def _passed_then_lost(h, task: str, repo) -> None:
    """unit_test passed; then a second run of it prepared and never heard of again (as a SIGKILL leaves it)."""
    h.ok("requirement", "add", "The answer is 42", "--priority", "must")
    walk_to(h, *TO_VERIFYING)
    h.ok("evidence", "build", "--", PY, "-c", "pass")
    h.ok("evidence", "unit_test", "--", PY, "-c", "pass")
    append_event(repo, task, "evidence.prepared", LOST_RUN)


def _click_status_json(h, repo) -> dict:
    """`status --json` through the click command (the fast path bypassed)."""
    h.capfd.readouterr()
    old = os.getcwd()
    os.chdir(repo)
    try:
        code = main(["status", "--json"])
    finally:
        os.chdir(old)
    out, _ = h.capfd.readouterr()
    assert code == 0, out
    return json.loads(out)


def test_status_json_names_a_run_never_recorded_and_the_types_freshness_unknown(h, repo, task):
    _passed_then_lost(h, task, repo)
    assert "unit_test UNKNOWN — a run started and never recorded its outcome" in h.ok("status").out
    doc = json.loads(h.ok("status", "--json").out)
    assert doc["pending"] == [{"type": "unit_test", "run_id": LOST_RUN["run_id"],
                               "started_at": LOST_RUN["started_at"]}], doc.get("pending")
    assert doc["evidence"]["unit_test"]["freshness"] == "UNKNOWN"
    assert doc["evidence"]["unit_test"]["outcome"] == "passed"  # the older record is still shown for what it is
    assert doc["evidence"]["build"]["freshness"] == "FRESH"      # a type with no lost run is untouched
    assert _click_status_json(h, repo) == doc


def test_status_json_without_a_lost_run_has_an_empty_pending_list(h, repo, task):
    """The neighbour: a run that recorded its outcome is no longer pending, and its record is FRESH."""
    h.ok("requirement", "add", "The answer is 42", "--priority", "must")
    walk_to(h, *TO_VERIFYING)
    h.ok("evidence", "unit_test", "--", PY, "-c", "pass")
    doc = json.loads(h.ok("status", "--json").out)
    assert doc["pending"] == [] and doc["evidence"]["unit_test"]["freshness"] == "FRESH"
    assert _click_status_json(h, repo) == doc
