"""`harness status` counts open findings as the gate does, and names the commit that carries the DONE."""

from __future__ import annotations

import json

from support.flows import gated_done, proposal, propose
from support.gitrepo import commit_all_ok, head


def test_status_counts_a_rejection_not_refuted_on_this_tree_as_open_like_the_gate(h, repo, tmp_path):
    h.ok("task", "new", "Refuted, then changed")
    (repo / "app.py").write_text("def answer():\n    return 41\n")
    # its reproducer exits 1 while answer() is 42: proposed against code where it is 41, the claim is wrong
    assert propose(h, tmp_path, proposal()).code == 0
    h.ok("finding", "reproduce", "F-0001")  # the reviewer's reproducer passes here
    h.ok("finding", "reject", "F-0001", "--reason", "the value is right")
    (repo / "app.py").write_text("def answer():\n    return 42\n")  # but not on this tree
    out = h.ok("status").out
    assert "Major finding F-0001 is open (rejected, but its reproducer has not passed" in out
    assert "major 1 ·" in out and "major 0" not in out
    assert json.loads(h.ok("status", "--json").out)["findings"]["major"] == 1
    # where it was refuted, the two agree again
    (repo / "app.py").write_text("def answer():\n    return 41\n")
    out = h.ok("status").out
    assert "major 0 ·" in out and "F-0001 is open" not in out


def test_status_names_the_commit_that_carries_the_done_not_the_base(h, repo):
    commit_all_ok(repo, "harness init")
    base = head(repo)
    gated_done(h)
    assert "DONE, not committed yet" in h.ok("status").out
    done = commit_all_ok(repo, "done")
    (repo / "notes.txt").write_text("later\n")
    commit_all_ok(repo, "an unrelated later commit")
    out = h.ok("status").out
    assert f"DONE at {done[:12]}" in out and base[:12] not in out
