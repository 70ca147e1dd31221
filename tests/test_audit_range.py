"""`harness audit` decides its own range: after a push (`--before`), for a pull request (`--base`),
with real pushes to a local bare remote and a CI clone of it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from support.flows import forged_done_force_pushed, gated_done, hand_done_no_verify
from support.gitrepo import ZERO, ci_clone, commit_all_ok, git, head, pushed_to_bare


@pytest.fixture
def remote(h, repo, tmp_path) -> Path:
    """``repo`` with .harness/ committed and pushed to a bare remote as main."""
    return pushed_to_bare(repo, tmp_path)


def audit(h, ci: Path, *args: str) -> tuple[int, dict, str]:
    r = h("audit", "--json", *args, cwd=ci)
    return r.code, json.loads(r.out), r.err


def test_fast_forward_push_audits_exactly_the_pushed_commits(h, repo, remote, tmp_path):
    before = head(repo)
    gated_done(h)
    done = commit_all_ok(repo, "done")
    (repo / "app.py").write_text("def answer():\n    return 43\n")
    code_commit = commit_all_ok(repo, "more code")
    git(repo, "push", "-q", "origin", "main")
    ci = ci_clone(remote, tmp_path / "ci")

    code, doc, err = audit(h, ci, "--before", before, "--to", "HEAD")
    assert code == 0, err
    assert doc["range"]["mode"] == "push" and doc["range"]["merge_bases"] == [before]
    assert not doc["range"]["everything_reachable"]
    assert doc["checked"] == [done, code_commit]
    assert "fast-forward" in err and "2 commit(s) to check" in err


def test_force_push_of_a_forged_done_to_the_default_branch_is_caught_when_the_old_tip_is_gone(h, repo, remote, tmp_path):
    base = head(repo)
    old_tip, tid, forged, ci = forged_done_force_pushed(h, repo, remote, tmp_path / "ci")
    assert git(ci, "cat-file", "-e", f"{old_tip}^{{commit}}", check=False).returncode != 0

    # What the old README recipe computed: merge-base(origin/main, HEAD) is HEAD — an empty range.
    assert git(ci, "merge-base", "origin/main", "HEAD").stdout.strip() == forged

    code, doc, err = audit(h, ci, "--before", old_tip, "--to", "HEAD")
    assert code == 1, err
    assert doc["range"]["everything_reachable"] is True
    assert "cannot be established" in doc["range"]["reason"] and "every commit reachable" in err
    assert forged in doc["checked"] and base in doc["checked"]
    (bad,) = [row for row in doc["results"] if not row["ok"]]
    assert bad["commit"] == forged
    assert any(f".harness/tasks/{tid}/" in p["file"] for p in bad["problems"])


def test_force_push_audits_from_the_merge_base_when_the_old_tip_can_be_had(h, repo, remote, tmp_path):
    base = head(repo)
    ci = ci_clone(remote, tmp_path / "ci")  # a CI workspace that saw the old tip
    (repo / "app.py").write_text("def answer():\n    return 1\n")
    old_tip = commit_all_ok(repo, "honest work, later thrown away")
    git(repo, "push", "-q", "origin", "main")
    ci_clone(remote, ci)
    git(repo, "reset", "-q", "--hard", base)
    _, forged = hand_done_no_verify(repo, h)
    git(repo, "push", "-q", "--force", "origin", "main")
    ci_clone(remote, ci)

    code, doc, err = audit(h, ci, "--before", old_tip, "--to", "HEAD")
    assert code == 1, err
    assert doc["range"]["merge_bases"] == [base] and "force push" in doc["range"]["reason"]
    assert doc["checked"] == [forged]


def test_force_push_fetches_an_old_tip_the_remote_still_serves(h, repo, remote, tmp_path):
    base = head(repo)
    (repo / "app.py").write_text("def answer():\n    return 1\n")
    old_tip = commit_all_ok(repo, "honest work, later thrown away")
    git(repo, "push", "-q", "origin", "main")
    git(repo, "reset", "-q", "--hard", base)
    _, forged = hand_done_no_verify(repo, h)
    git(repo, "push", "-q", "--force", "origin", "main")
    git(remote, "config", "uploadpack.allowAnySHA1InWant", "true")
    ci = ci_clone(remote, tmp_path / "ci")

    code, doc, err = audit(h, ci, "--before", old_tip, "--to", "HEAD")
    assert code == 1, err
    assert "fetched from origin" in doc["range"]["reason"]
    assert doc["checked"] == [forged]


def test_new_branch_audits_everything_reachable_and_says_so(h, repo, remote, tmp_path):
    git(repo, "switch", "-q", "-c", "feature")
    _, forged = hand_done_no_verify(repo, h)
    git(repo, "push", "-q", "origin", "feature")
    ci = ci_clone(remote, tmp_path / "ci")
    git(ci, "checkout", "-q", "--detach", "origin/feature")

    for before in (ZERO, ""):
        code, doc, err = audit(h, ci, "--before", before, "--to", "HEAD")
        assert code == 1, err
        assert doc["range"]["everything_reachable"] is True and "new branch" in doc["range"]["reason"]
        assert doc["checked"] == git(ci, "rev-list", "--reverse", "--topo-order", "HEAD").stdout.split()
        assert forged in doc["checked"]


def test_pull_request_mode_audits_base_to_head(h, repo, remote, tmp_path):
    git(repo, "switch", "-q", "-c", "feature")
    gated_done(h)
    done = commit_all_ok(repo, "done")
    git(repo, "push", "-q", "origin", "feature")
    ci = ci_clone(remote, tmp_path / "ci")
    base = head(ci, "origin/main")

    code, doc, err = audit(h, ci, "--base", base, "--to", "origin/feature")
    assert code == 0, err
    assert doc["range"]["mode"] == "pull-request" and doc["checked"] == [done]
    code, doc, err = audit(h, ci, "--base", "origin/main", "--to", "origin/feature")
    assert code == 0 and doc["checked"] == [done], err

    git(repo, "switch", "-q", "main")
    git(repo, "switch", "-q", "-c", "forged")
    _, forged = hand_done_no_verify(repo, h)
    git(repo, "push", "-q", "origin", "forged")
    ci_clone(remote, ci)
    code, doc, err = audit(h, ci, "--base", base, "--to", "origin/forged")
    assert code == 1 and doc["checked"] == [forged], err


def test_tag_push_audits_everything_the_tag_reaches(h, repo, remote, tmp_path):
    _, forged = hand_done_no_verify(repo, h)
    git(repo, "tag", "-a", "v1", "-m", "release")
    git(repo, "push", "-q", "origin", "v1")  # main on the remote never saw the commit
    ci = ci_clone(remote, tmp_path / "ci")
    code, doc, err = audit(h, ci, "--before", ZERO, "--to", "v1")
    assert code == 1, err
    assert doc["range"]["tip"] == forged and forged in doc["checked"]


def test_a_rewind_checks_nothing_and_says_why(h, repo, remote, tmp_path):
    base = head(repo)
    (repo / "app.py").write_text("def answer():\n    return 1\n")
    tip = commit_all_ok(repo, "code")
    git(repo, "push", "-q", "origin", "main")
    ci = ci_clone(remote, tmp_path / "ci")
    code, doc, err = audit(h, ci, "--before", tip, "--to", base, "--ref", "refs/heads/feature")
    assert code == 0 and doc["checked"] == [], err
    assert "rewind" in doc["range"]["reason"]
    # On a protected ref (or one the audit cannot name) a rewind drops judged commits: refused as a
    # whole, though no commit is new (tests/test_history_rewrite.py).
    for ref in (("--ref", "refs/heads/main"), ()):
        code, doc, err = audit(h, ci, "--before", tip, "--to", base, *ref)
        assert code == 1 and doc["checked"] == [] and doc["history"][0]["rule"] == "history-only-extends", err


def test_a_shallow_clone_is_deepened_before_the_audit(h, repo, remote, tmp_path):
    _, forged = hand_done_no_verify(repo, h)
    (repo / "app.py").write_text("def answer():\n    return 3\n")
    commit_all_ok(repo, "code on top")
    git(repo, "push", "-q", "origin", "main")
    ci = ci_clone(remote, tmp_path / "ci", "--depth", "1")
    code, doc, err = audit(h, ci, "--before", ZERO, "--to", "HEAD")
    assert code == 1 and forged in doc["checked"], err


def test_a_shallow_clone_that_cannot_be_deepened_is_no_success(h, repo, remote, tmp_path):
    hand_done_no_verify(repo, h)
    (repo / "app.py").write_text("def answer():\n    return 3\n")
    commit_all_ok(repo, "code on top")
    git(repo, "push", "-q", "origin", "main")
    ci = ci_clone(remote, tmp_path / "ci", "--depth", "1")
    git(ci, "remote", "remove", "origin")
    r = h("audit", "--before", ZERO, "--to", "HEAD", cwd=ci)
    assert r.code == 2 and "shallow" in r.err, r.text


def test_modes_are_exclusive_and_a_malformed_before_is_refused(h, repo, remote):
    r = h("audit", "--before", ZERO, "--base", "main")
    assert r.code == 2 and "give one" in r.err
    r = h("audit", "--before", "not-a-sha")
    assert r.code == 2 and "not a commit id" in r.err
