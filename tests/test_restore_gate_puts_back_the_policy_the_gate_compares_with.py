"""`harness init --restore-gate` (read 116's F-0417) puts back the policy the gate compares gate.yaml with, read as the
gate reads it, or refuses with nothing touched (read 117): a committed symlink is no policy (F-A); a HEAD policy
that does not validate is not put back (init's is written: the gate takes any valid one then, F-B); a HEAD git
cannot read is no unborn branch (F-C); a `.harness/` that is a link to elsewhere is not written through (F-D)."""

from __future__ import annotations

import json
import os

from support.cli import TO_VERIFYING, gate_json, walk_to
from support.flows import new_task
from support.gitrepo import commit_all_ok, git
from support.paths import PY

GATE = ".harness/gate.yaml"


def _adopted_with_evidence(h, repo) -> None:
    """The harness committed, a task in VERIFYING with evidence (the gate and status judge gate.yaml)."""
    commit_all_ok(repo, "adopt the harness")
    new_task(h)
    walk_to(h, *TO_VERIFYING)
    h.ok("evidence", "build", "--", PY, "-c", "pass")


def _gate_as_a_committed_link(repo) -> bytes:
    """gate.yaml committed as a link to policy.yaml (git commits the link). Returns init's policy."""
    policy = (repo / GATE).read_bytes()
    git(repo, "mv", GATE, ".harness/policy.yaml")
    os.symlink("policy.yaml", repo / GATE)
    git(repo, "add", GATE)
    git(repo, "commit", "-q", "--no-verify", "-m", "gate.yaml as a link")
    assert git(repo, "ls-tree", "HEAD", GATE).stdout.startswith("120000")
    return policy


def test_a_committed_link_is_no_policy_restored_as_init_writes_it(h, repo):
    _adopted_with_evidence(h, repo)
    inits = _gate_as_a_committed_link(repo)
    assert gate_json(h)[1]["verdict"] == "INVALID_HARNESS_STATE"  # the working link is refused, not followed
    r = h.ok("init", "--restore-gate")
    assert "HEAD holds none" in r.out and not (repo / GATE).is_symlink(), r.out
    assert (repo / GATE).read_bytes() == inits and (repo / ".harness/policy.yaml").read_bytes() == inits
    assert gate_json(h)[1]["verdict"] != "INVALID_HARNESS_STATE"


def test_status_reads_a_committed_link_as_the_gate_does(h, repo):
    # Both compare a loosening with init's policy: HEAD's link is no policy (status read the link's target name,
    # which does not validate, and so saw nothing loosened while the gate refused).
    from harness.gitio.fast_path import CommitFiles

    _adopted_with_evidence(h, repo)
    _gate_as_a_committed_link(repo)
    assert CommitFiles.of_head(repo).read(GATE) is None
    (repo / GATE).unlink()
    (repo / GATE).write_text((repo / ".harness/policy.yaml").read_text().replace("major_allowed: 0",
                                                                                 "major_allowed: 5"))
    assert gate_json(h)[1]["verdict"] == "INVALID_HARNESS_STATE"
    assert json.loads(h("status", "--json").out)["gate_now"]["verdict"] == "INVALID_HARNESS_STATE"


def test_a_head_policy_that_does_not_validate_is_not_put_back(h, repo):
    # The gate takes any valid gate.yaml while HEAD's does not validate: init's is written, and the state clears.
    _adopted_with_evidence(h, repo)
    inits = (repo / GATE).read_text()
    (repo / GATE).write_text(inits.replace("max_iterations: 5", "max_iterations: five"))
    commit_all_ok(repo, "a policy that does not validate")
    assert gate_json(h)[1]["verdict"] == "INVALID_HARNESS_STATE"
    r = h.ok("init", "--restore-gate")
    assert "HEAD's does not validate" in r.out and "max_iterations" in r.out, r.out
    assert (repo / GATE).read_text() == inits
    assert gate_json(h)[1]["verdict"] != "INVALID_HARNESS_STATE"


def test_a_head_read_where_the_caller_points_git_elsewhere_is_heads_own(h, repo, tmp_path, monkeypatch):
    _adopted_with_evidence(h, repo)
    (repo / GATE).write_text((repo / GATE).read_text().replace("max_iterations: 5", "max_iterations: 4"))
    commit_all_ok(repo, "a stricter policy")
    committed = (repo / GATE).read_bytes()
    (repo / GATE).write_text("gate: {}\n")
    (tmp_path / "empty").mkdir()
    monkeypatch.setenv("GIT_OBJECT_DIRECTORY", str(tmp_path / "empty"))
    r = h("init", "--restore-gate")
    assert r.code == 0 and "HEAD (" in r.out and (repo / GATE).read_bytes() == committed, r.text


def test_a_restore_that_fails_leaves_gate_yaml_as_it_was(h, repo, tmp_path, monkeypatch):
    _adopted_with_evidence(h, repo)
    (repo / GATE).write_text("gate: {}\n")
    (tmp_path / "empty").mkdir()
    monkeypatch.setenv("GIT_COMMON_DIR", str(tmp_path / "empty"))
    r = h("init", "--restore-gate")
    if r.code != 0:
        assert (repo / GATE).read_text() == "gate: {}\n", r.text
    else:
        assert (repo / GATE).read_bytes() == git(repo, "show", f"HEAD:{GATE}").stdout.encode(), r.text


def test_a_harness_folder_linked_to_elsewhere_is_not_written_through(h, repo, tmp_path):
    commit_all_ok(repo, "adopt the harness")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "gate.yaml").write_text("someone else's file\n")
    git(repo, "rm", "-rq", "--cached", ".harness")
    os.rename(repo / ".harness", tmp_path / "moved")
    os.symlink(elsewhere, repo / ".harness")
    for args in (("init", "--restore-gate"), ("init",)):
        r = h(*args)
        assert r.code == 2 and ".harness" in r.err and "link" in r.err, r.text
        assert sorted(p.name for p in elsewhere.iterdir()) == ["gate.yaml"]
        assert (elsewhere / "gate.yaml").read_text() == "someone else's file\n"
