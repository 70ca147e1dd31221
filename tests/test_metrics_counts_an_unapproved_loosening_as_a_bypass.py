"""`harness metrics` counts a DONE that passed only under an unapproved policy as a gate bypass."""

from __future__ import annotations

import json

from support.cli import TO_VERIFYING, walk_to
from support.gitrepo import commit_all_ok, git, head


def test_a_done_committed_with_an_unapproved_gate_loosening_counts_as_a_gate_bypass(h, repo):
    base = commit_all_ok(repo, "harness init")
    h.ok("task", "new", "Shortcut through the policy")
    h.ok("requirement", "add", "it works", "--priority", "must")
    walk_to(h, *TO_VERIFYING)
    gate = repo / ".harness/gate.yaml"
    gate.write_text(gate.read_text().replace("unit_test: required", "unit_test: optional"))
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "loosen", "--no-verify")  # the local gate judges under the committed policy
    h.ok("evidence", "build", "--", "python3", "-c", "pass")
    h.ok("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "build")
    walk_to(h, "REVIEWING", "GATING")
    assert "PASS" in h.ok("gate", "--advance").out
    h.ok("transition", "DONE")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "done", "--no-verify")
    git(repo, "reset", "-q", "--soft", base)
    git(repo, "commit", "-qm", "loosen and done in one commit", "--no-verify")
    assert h("audit", "--from", base).code == 1  # the push guard refuses this commit
    doc = json.loads(h.ok("metrics", "--from", base, "--json").out)
    assert (doc["gate_bypass"]["numerator"], doc["gate_bypass"]["denominator"]) == (1, 1), doc["gate_bypass"]
    assert doc["gate_bypass"]["ids"][0].startswith(head(repo)[:12])
