"""The push guard holds each task a push brings to CONVERGED or DONE to a base the remote really has (read 127's
F-0454). A task's base is taken from this clone's remote-tracking refs, which one `git update-ref` moves onto a commit
of the agent's own (a weakened test committed first); git tells the pre-push hook the remote's real tips, and the
remote lists the rest."""

from __future__ import annotations

from pathlib import Path

import pytest

from support.cli import TO_VERIFYING, walk_to
from support.gitrepo import ZERO, commit_all_ok, git, head, push
from support.protected_project import CALC, TESTS, base_commit, protect, write

RULE = "[base-unpublished]"


def published_project(repo: Path, tmp_path: Path) -> tuple[str, Path]:
    """The protected project, pushed to a bare `origin` (no hook installed: the guard is run below as git runs it)."""
    write(repo, {"calc.py": CALC, "tests/test_calc.py": TESTS})
    protect(repo)
    published = commit_all_ok(repo, "calc with tests")
    bare = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", str(bare))
    git(repo, "remote", "add", "origin", str(bare))
    git(repo, "push", "-q", "--no-verify", "origin", "main")
    return published, bare


def weakened_and_forged(repo: Path) -> str:
    """A weakened test committed on the local main, and this clone's origin/main moved onto it: the forgery."""
    write(repo, {"tests/test_calc.py": TESTS.replace("assert add(2, 3) == 5", "assert add(2, 3) is not None")})
    weakening = commit_all_ok(repo, "tidy tests")
    git(repo, "update-ref", "refs/remotes/origin/main", weakening)
    return weakening


def done_and_committed(h, repo: Path) -> str:
    """A task started now, walked to DONE on PASS_TO_PASS and the configured tests, committed. Returns its id."""
    tid = h.ok("task", "new", "Faster mul").out.strip()
    h.ok("requirement", "add", "mul(a, b) is a * b", "--priority", "must")
    walk_to(h, *TO_VERIFYING)
    write(repo, {"calc.py": CALC.replace("return a * b", "return b * a")})
    for etype in ("build", "unit_test", "lint", "typecheck"):
        h.ok("evidence", etype, *(() if etype == "unit_test" else ("--", "true")))
    h.ok("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "unit_test")
    h.ok("evidence", "pass_to_pass")
    walk_to(h, "REVIEWING", "GATING")
    r = h("gate", "--advance")
    assert r.code == 0 and "PASS" in r.out, r.text
    h.ok("transition", "DONE")
    commit_all_ok(repo, "faster mul, DONE")
    return tid


def guard(h, repo: Path, line: str, remote: str = "origin", url: str | None = None):
    from support.cli import cli

    return cli(repo, "hook", "push-guard", remote, url or str(repo.parent / "remote.git"), stdin=line + "\n")


def test_done_on_a_base_written_into_origin_main_by_hand_is_refused_at_the_push(h, repo, tmp_path):
    published, bare = published_project(repo, tmp_path)
    weakening = weakened_and_forged(repo)
    tid = done_and_committed(h, repo)
    assert base_commit(repo, tid) == weakening  # the local checks accept it: nothing here can tell
    p = guard(h, repo, f"refs/heads/main {head(repo)} refs/heads/main {published}", url=str(bare))
    assert p.returncode == 1 and RULE in p.stdout + p.stderr and tid in p.stdout + p.stderr, p.stdout + p.stderr
    assert f"base {weakening[:12]}, which the remote's refs/heads/main does not hold" in p.stdout + p.stderr


@pytest.mark.e2e
def test_the_same_refusal_through_a_real_git_push_with_the_native_hook(h, repo, tmp_path):
    published, bare = published_project(repo, tmp_path)
    weakened_and_forged(repo)
    h.ok("install")
    done_and_committed(h, repo)
    p = push(repo, "origin", "main")
    assert p.returncode != 0 and RULE in p.stdout + p.stderr, p.stdout + p.stderr
    assert git(tmp_path, "--git-dir", str(bare), "rev-parse", "main").stdout.strip() == published


def test_done_on_the_published_base_is_pushed(h, repo, tmp_path):
    published, bare = published_project(repo, tmp_path)
    tid = done_and_committed(h, repo)
    assert base_commit(repo, tid) == published
    p = guard(h, repo, f"refs/heads/main {head(repo)} refs/heads/main {published}", url=str(bare))
    assert p.returncode == 0, p.stdout + p.stderr


def test_a_new_branch_whose_base_is_on_the_remote_s_main_is_pushed(h, repo, tmp_path):
    published, bare = published_project(repo, tmp_path)
    git(repo, "checkout", "-q", "-b", "feature")
    done_and_committed(h, repo)
    p = guard(h, repo, f"refs/heads/feature {head(repo)} refs/heads/feature {ZERO}", url=str(bare))
    assert p.returncode == 0, p.stdout + p.stderr  # the remote lists main, which holds the base


def test_a_new_branch_on_a_forged_base_is_refused_by_what_the_remote_lists(h, repo, tmp_path):
    _, bare = published_project(repo, tmp_path)
    git(repo, "checkout", "-q", "-b", "feature")
    weakened_and_forged(repo)
    done_and_committed(h, repo)
    p = guard(h, repo, f"refs/heads/feature {head(repo)} refs/heads/feature {ZERO}", url=str(bare))
    assert p.returncode == 1 and RULE in p.stdout + p.stderr, p.stdout + p.stderr


def test_the_first_push_to_an_empty_remote_has_no_published_line_to_hold_a_base_to(h, repo, tmp_path):
    write(repo, {"calc.py": CALC, "tests/test_calc.py": TESTS})
    protect(repo)
    commit_all_ok(repo, "calc with tests")
    done_and_committed(h, repo)
    bare = tmp_path / "empty.git"
    git(tmp_path, "init", "-q", "--bare", str(bare))
    p = guard(h, repo, f"refs/heads/main {head(repo)} refs/heads/main {ZERO}", url=str(bare))
    assert p.returncode == 0, p.stdout + p.stderr


def test_a_remote_that_cannot_be_listed_is_a_refusal_with_its_reason_not_a_pass(h, repo, tmp_path):
    _, bare = published_project(repo, tmp_path)
    weakened_and_forged(repo)
    done_and_committed(h, repo)
    p = guard(h, repo, f"refs/heads/main {head(repo)} refs/heads/main {ZERO}", url=str(tmp_path / "nowhere.git"))
    assert p.returncode == 1 and "could not list the remote's refs" in p.stdout + p.stderr, p.stdout + p.stderr


def test_a_push_that_brings_no_claim_lists_nothing(h, repo, tmp_path, monkeypatch):
    published, _ = published_project(repo, tmp_path)
    write(repo, {"calc.py": CALC + "\n# a comment\n"})
    commit_all_ok(repo, "code only")
    # no claim in the range: the remote is never asked (an unreachable URL passes)
    p = guard(h, repo, f"refs/heads/main {head(repo)} refs/heads/main {published}", url=str(tmp_path / "nowhere.git"))
    assert p.returncode == 0, p.stdout + p.stderr


@pytest.mark.parametrize("published_as", ["refs/heads/scratch", "refs/tags/v0-forged"])
def test_f0513_a_forged_base_the_agent_pushed_to_a_ref_of_its_own_is_still_refused(h, repo, tmp_path, published_as):
    # Read 144's F-0513: any ref the remote lists counted; only the protected branch is the published line.
    published, bare = published_project(repo, tmp_path)
    weakening = weakened_and_forged(repo)
    git(repo, "push", "-q", "--no-verify", "origin", f"{weakening}:{published_as}")
    done_and_committed(h, repo)
    p = guard(h, repo, f"refs/heads/main {head(repo)} refs/heads/main {published}", url=str(bare))
    assert p.returncode == 1 and RULE in p.stdout + p.stderr, p.stdout + p.stderr


def test_f0513_the_old_tip_of_the_agent_s_own_branch_is_no_published_line(h, repo, tmp_path):
    published, bare = published_project(repo, tmp_path)
    git(repo, "checkout", "-q", "-b", "wip")
    weakening = weakened_and_forged(repo)
    git(repo, "push", "-q", "--no-verify", "origin", "wip")  # its work branch, pushed while nothing is claimed
    done_and_committed(h, repo)
    p = guard(h, repo, f"refs/heads/wip {head(repo)} refs/heads/wip {weakening}", url=str(bare))
    assert p.returncode == 1 and RULE in p.stdout + p.stderr, p.stdout + p.stderr


def test_a_configured_base_branch_is_the_published_line(h, repo, tmp_path):
    import yaml

    write(repo, {"calc.py": CALC, "tests/test_calc.py": TESTS})
    protect(repo)
    gate = repo / ".harness/gate.yaml"
    doc = yaml.safe_load(gate.read_text())
    doc["gate"]["suite"]["base"] = "develop"
    gate.write_text(yaml.safe_dump(doc, sort_keys=False))
    commit_all_ok(repo, "calc with tests, measured against develop")
    bare = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", str(bare))
    git(repo, "remote", "add", "origin", str(bare))
    git(repo, "push", "-q", "--no-verify", "origin", "main", "main:develop")
    git(repo, "fetch", "-q", "origin")
    write(repo, {"calc.py": CALC + "\n# main moves on, develop does not\n"})
    git(repo, "push", "-q", "--no-verify", "origin", f"{commit_all_ok(repo, 'on main')}:refs/heads/main")
    git(repo, "checkout", "-q", "-b", "feature", "origin/develop")
    tid = done_and_committed(h, repo)
    assert base_commit(repo, tid) == git(repo, "rev-parse", "origin/develop").stdout.strip()
    p = guard(h, repo, f"refs/heads/feature {head(repo)} refs/heads/feature {ZERO}", url=str(bare))
    assert p.returncode == 0, p.stdout + p.stderr


def test_f0515_a_url_the_clone_rewrites_when_it_lists_is_not_listed(h, repo, tmp_path):
    # Read 145's F-0515: `url.FAKE.insteadOf REAL` (and `url.REAL.pushInsteadOf REAL`, so the push still reaches REAL)
    # made ls-remote list a bare repository of the agent's, whose main held the forged base.
    _, bare = published_project(repo, tmp_path)
    git(repo, "checkout", "-q", "-b", "feature")
    weakening = weakened_and_forged(repo)
    fake = tmp_path / "fake.git"
    git(tmp_path, "init", "-q", "--bare", str(fake))
    git(repo, "push", "-q", "--no-verify", str(fake), f"{weakening}:refs/heads/main")
    git(repo, "config", f"url.{fake}.insteadOf", str(bare))
    git(repo, "config", f"url.{bare}.pushInsteadOf", str(bare))
    done_and_committed(h, repo)
    p = guard(h, repo, f"refs/heads/feature {head(repo)} refs/heads/feature {ZERO}", url=str(bare))
    assert p.returncode == 1 and RULE in p.stdout + p.stderr and ".insteadof" in (p.stdout + p.stderr).lower(), p.stderr


def test_an_insteadof_rule_that_does_not_touch_the_pushed_url_changes_nothing(h, repo, tmp_path):
    published, bare = published_project(repo, tmp_path)
    git(repo, "config", "url.git@example.com:.insteadOf", "https://example.com/")  # a common rewrite, elsewhere
    done_and_committed(h, repo)
    p = guard(h, repo, f"refs/heads/main {head(repo)} refs/heads/main {published}", url=str(bare))
    assert p.returncode == 0, p.stdout + p.stderr
