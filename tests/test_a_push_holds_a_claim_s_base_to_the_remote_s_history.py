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


def test_a_push_that_names_no_remote_is_refused_with_its_reason(h, repo, tmp_path, monkeypatch):
    # The guard run by hand, or by a hook that passes no arguments: there is no remote to read the published line from.
    published, _ = published_project(repo, tmp_path)
    weakened_and_forged(repo)
    done_and_committed(h, repo)
    for name in ("PRE_COMMIT_REMOTE_NAME", "PRE_COMMIT_REMOTE_URL"):
        monkeypatch.delenv(name, raising=False)
    from support.cli import cli

    p = cli(repo, "hook", "push-guard", stdin=f"refs/heads/main {head(repo)} refs/heads/main {published}\n")
    assert p.returncode == 1 and "the push names no remote to read the published line from" in p.stdout + p.stderr, \
        p.stdout + p.stderr


def test_a_remote_that_cannot_be_listed_is_asked_once_per_push(h, repo, tmp_path, monkeypatch):
    # The framework's route asks for the remote's tip of the pushed branch, then for its protected branch: a listing
    # that failed is the answer to both, not a second wait on an unreachable remote.
    published, _ = published_project(repo, tmp_path)
    weakened_and_forged(repo)
    done_and_committed(h, repo)
    from harness.gitio.git import Git

    asked, run = [], Git.run

    def counted(self, args, *rest, **kw):
        asked.extend(args[:1] if args[:1] == ["ls-remote"] else [])
        return run(self, args, *rest, **kw)

    monkeypatch.setattr(Git, "run", counted)
    p = framework_guard(repo, monkeypatch, str(tmp_path / "nowhere.git"), FROM_REF=published, TO_REF=head(repo),
                        LOCAL_BRANCH="refs/heads/main", REMOTE_BRANCH="refs/heads/main")
    assert p.returncode == 1 and "could not list the remote's refs" in p.stdout + p.stderr, p.stdout + p.stderr
    assert asked == ["ls-remote"]


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


def forged_beside_a_fake_remote(repo: Path, tmp_path: Path) -> tuple[Path, Path]:
    """(the real remote, a bare repository of the agent's whose main is the forged base), on a branch `feature`."""
    _, bare = published_project(repo, tmp_path)
    git(repo, "checkout", "-q", "-b", "feature")
    weakening = weakened_and_forged(repo)
    fake = tmp_path / "fake.git"
    git(tmp_path, "init", "-q", "--bare", str(fake))
    git(repo, "push", "-q", "--no-verify", str(fake), f"{weakening}:refs/heads/main")
    return bare, fake


def test_f0515_a_url_the_clone_rewrites_when_it_lists_is_not_listed(h, repo, tmp_path):
    # Read 145's F-0515: `url.FAKE.insteadOf REAL` (and `url.REAL.pushInsteadOf REAL`, so the push still reaches REAL)
    # made ls-remote list a bare repository of the agent's, whose main held the forged base.
    bare, fake = forged_beside_a_fake_remote(repo, tmp_path)
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


# -- read 146 ------------------------------------------------------------------------------------------------------

def framework_guard(repo: Path, monkeypatch, url: str, **env: str):
    """The push guard as the pre-commit framework's pre-push hook runs it: no standard input, PRE_COMMIT_* variables."""
    from support.cli import cli

    for name in ("PRE_COMMIT_FROM_REF", "PRE_COMMIT_TO_REF"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("PRE_COMMIT_REMOTE_NAME", url)
    monkeypatch.setenv("PRE_COMMIT_REMOTE_URL", url)
    for name, value in env.items():
        monkeypatch.setenv(f"PRE_COMMIT_{name}", value)
    return cli(repo, "hook", "push-guard", stdin="")


def test_f0516_the_framework_s_push_by_url_with_no_range_is_judged(h, repo, tmp_path, monkeypatch):
    # Read 146's F-0516: with no PRE_COMMIT_TO_REF (the pushed history reaches a root) no claim was judged.
    _, bare = published_project(repo, tmp_path)
    git(repo, "checkout", "-q", "-b", "feature")
    weakened_and_forged(repo)
    done_and_committed(h, repo)
    p = framework_guard(repo, monkeypatch, str(bare), LOCAL_BRANCH="refs/heads/feature", REMOTE_BRANCH="refs/heads/feature")
    assert p.returncode == 1 and RULE in p.stdout + p.stderr, p.stdout + p.stderr


def test_f0516_a_from_ref_the_remote_does_not_hold_is_no_old_tip(h, repo, tmp_path, monkeypatch):
    # ... and a PRE_COMMIT_FROM_REF the framework took from this clone's refs/remotes (a new remote branch) was trusted
    # as the remote's: a DONE commit behind it counted as already on the remote.
    _, bare = published_project(repo, tmp_path)
    git(repo, "checkout", "-q", "-b", "feature")
    weakened_and_forged(repo)
    done_and_committed(h, repo)
    done_commit = head(repo)
    git(repo, "commit", "-q", "--allow-empty", "--no-verify", "-m", "one more")
    p = framework_guard(repo, monkeypatch, str(bare), FROM_REF=done_commit, TO_REF=head(repo),
                        LOCAL_BRANCH="refs/heads/feature", REMOTE_BRANCH="refs/heads/feature")
    assert p.returncode == 1 and RULE in p.stdout + p.stderr, p.stdout + p.stderr


def test_f0516_the_framework_s_honest_push_passes(h, repo, tmp_path, monkeypatch):
    published, bare = published_project(repo, tmp_path)
    done_and_committed(h, repo)
    p = framework_guard(repo, monkeypatch, str(bare), FROM_REF=published, TO_REF=head(repo),
                        LOCAL_BRANCH="refs/heads/main", REMOTE_BRANCH="refs/heads/main")
    assert p.returncode == 0, p.stdout + p.stderr


def test_f0517_a_remote_named_like_the_pushed_url_is_not_listed(h, repo, tmp_path):
    # Read 146's F-0517: ls-remote reads its argument as a remote's name first; `remote.<URL>.url FAKE` listed FAKE.
    bare, fake = forged_beside_a_fake_remote(repo, tmp_path)
    url = f"file://{bare}"
    git(repo, "config", f"remote.{url}.url", str(fake))
    done_and_committed(h, repo)
    p = guard(h, repo, f"refs/heads/feature {head(repo)} refs/heads/feature {ZERO}", url=url)
    assert p.returncode == 1 and RULE in p.stdout + p.stderr, p.stdout + p.stderr


def test_f0519_a_push_to_a_remote_whose_main_is_behind_names_the_remedy(h, repo, tmp_path):
    # Read 146's F-0519: a contributor's fork whose main is behind the base: refused (it cannot be told from a forgery
    # here), and the refusal says what works: bring that remote's main up to the base first.
    published, bare = published_project(repo, tmp_path)
    fork = tmp_path / "fork.git"
    git(tmp_path, "init", "-q", "--bare", str(fork))
    git(repo, "push", "-q", "--no-verify", str(fork), f"{published}:refs/heads/main")
    write(repo, {"calc.py": CALC + "\n# published later\n"})
    git(repo, "push", "-q", "--no-verify", "origin", f"{commit_all_ok(repo, 'later')}:refs/heads/main")
    git(repo, "fetch", "-q", "origin")
    git(repo, "checkout", "-q", "-b", "feature", "origin/main")
    done_and_committed(h, repo)
    p = guard(h, repo, f"refs/heads/feature {head(repo)} refs/heads/feature {ZERO}", remote="fork", url=str(fork))
    out = p.stdout + p.stderr
    assert p.returncode == 1 and "bring that remote's refs/heads/main up to the base" in out, out


def test_f0520_a_remote_main_this_clone_has_not_fetched_is_fetched_not_called_a_forgery(h, repo, tmp_path):
    # Read 146's F-0520: a teammate's push to main since this clone's last fetch refused every claim, saying the remote
    # lacked the base. The guard fetches the remote's branch (into no ref) and looks.
    published, bare = published_project(repo, tmp_path)
    other = tmp_path / "other"
    git(tmp_path, "clone", "-q", str(bare), str(other))
    (other / "calc.py").write_text(CALC + "\n# a teammate's commit\n")
    git(other, "commit", "-q", "-am", "teammate", env={"GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@x",
                                                       "GIT_COMMITTER_NAME": "T", "GIT_COMMITTER_EMAIL": "t@x"})
    git(other, "push", "-q", "--no-verify", "origin", "main")
    git(repo, "checkout", "-q", "-b", "feature")
    done_and_committed(h, repo)
    before = git(repo, "for-each-ref", "refs/heads", "refs/remotes", "refs/tags").stdout
    p = guard(h, repo, f"refs/heads/feature {head(repo)} refs/heads/feature {ZERO}", url=str(bare))
    assert p.returncode == 0, p.stdout + p.stderr
    assert git(repo, "for-each-ref", "refs/heads", "refs/remotes", "refs/tags").stdout == before  # none of them moved


def test_f0520_a_tip_the_remote_cannot_give_is_said_so(h, repo, tmp_path, monkeypatch):
    from harness.history import pushed_bases

    published, bare = published_project(repo, tmp_path)
    done_and_committed(h, repo)
    listing = pushed_bases.Published._listing
    monkeypatch.setattr(pushed_bases.Published, "_listing",
                        lambda self: ({"refs/heads/main": "ab" * 20}, "refs/heads/main")
                        if not isinstance(listing(self), pushed_bases.Problem) else listing(self))
    git(repo, "checkout", "-q", "-b", "feature")
    p = guard(h, repo, f"refs/heads/feature {head(repo)} refs/heads/feature {ZERO}", url=str(bare))
    out = p.stdout + p.stderr
    assert p.returncode == 1 and "could not tell" in out and "git fetch" in out and "does not hold" not in out, out


# -- read 147 ------------------------------------------------------------------------------------------------------

def test_f0521_a_branch_the_agent_creates_where_the_remote_head_dangles_is_not_the_published_line(h, repo, tmp_path):
    # Read 147's F-0521: a bare remote's HEAD still names master; the agent pushed its forged base there, and master
    # was taken for the protected branch.
    published, bare = published_project(repo, tmp_path)
    git(tmp_path, "--git-dir", str(bare), "symbolic-ref", "HEAD", "refs/heads/master")
    weakening = weakened_and_forged(repo)
    git(repo, "push", "-q", "--no-verify", "origin", f"{weakening}:refs/heads/master")
    git(repo, "checkout", "-q", "-b", "feature")
    done_and_committed(h, repo)
    p = guard(h, repo, f"refs/heads/feature {head(repo)} refs/heads/feature {ZERO}", url=str(bare))
    out = p.stdout + p.stderr
    assert p.returncode == 1 and RULE in out and "suite.base" in out, out


def test_f0521_a_remote_with_refs_but_no_branch_to_hold_the_base_to_is_refused(h, repo, tmp_path):
    published, bare = published_project(repo, tmp_path)
    git(repo, "push", "-q", "--no-verify", "origin", "main:trunk")
    git(tmp_path, "--git-dir", str(bare), "symbolic-ref", "HEAD", "refs/heads/master")
    git(tmp_path, "--git-dir", str(bare), "update-ref", "-d", "refs/heads/main")
    git(repo, "checkout", "-q", "-b", "feature")
    weakened_and_forged(repo)
    done_and_committed(h, repo)
    p = guard(h, repo, f"refs/heads/feature {head(repo)} refs/heads/feature {ZERO}", url=str(bare))
    out = p.stdout + p.stderr
    assert p.returncode == 1 and RULE in out and "suite.base" in out, out


def test_f0522_a_remote_setting_named_after_the_pushed_url_is_refused_not_used(h, repo, tmp_path):
    # Read 147's F-0522: `remote.<URL>.uploadpack` ran a program of the agent's for the listing.
    _, bare = published_project(repo, tmp_path)
    empty = tmp_path / "empty.git"
    git(tmp_path, "init", "-q", "--bare", str(empty))
    fake = tmp_path / "fake-upload-pack"
    fake.write_text(f"#!/bin/sh\nexec git-upload-pack {empty}\n")
    fake.chmod(0o755)
    url = f"file://{bare}"
    git(repo, "config", f"remote.{url}.uploadpack", str(fake))
    weakened_and_forged(repo)
    done_and_committed(h, repo)
    p = guard(h, repo, f"refs/heads/main {head(repo)} refs/heads/main {ZERO}", url=url)
    out = p.stdout + p.stderr
    assert p.returncode == 1 and RULE in out and "uploadpack" in out, out
