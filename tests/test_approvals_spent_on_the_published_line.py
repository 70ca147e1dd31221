"""An approval the published line already spent counts nowhere else (read 154's F-0543): its signed line copied
onto a branch forked before it was given, with the same loosening, is refused by the commit hook, the server's
pre-receive hook and `harness audit`, naming where it was spent. What history honestly brings keeps counting: an
approval given on a branch and merged (by a merge commit or a fast-forward), a branch that merges the published
line later, a commit on main before it is pushed, and a repository with no remote and no main."""

from __future__ import annotations

from pathlib import Path

import pytest

from support.cli import cli, validate_staged
from support.gitrepo import git, head
from support.ssh_keys import approval_line, make_key, repository_id, signers_line

LOOSER = ("major_allowed: 0", "major_allowed: 1")
FURTHER = ("major_allowed: 1", "major_allowed: 2")
GATE = ".harness/gate.yaml"
SIGNERS = ".harness/allowed_signers"
APPROVALS = ".harness/approvals.jsonl"


@pytest.fixture(scope="module")
def keys(tmp_path_factory) -> dict[str, tuple[Path, str]]:
    folder = tmp_path_factory.mktemp("keys")
    return {name: make_key(folder, name) for name in ("human", "revoked")}


def adopt(repo: Path, keys: dict) -> str:
    """Commit the allowed signers (the human approver) into a harness-initialised ``repo``; the commit."""
    (repo / SIGNERS).write_text(signers_line("test@example.com", keys["human"][1]))
    commit(repo, "adopt the harness")
    return head(repo)


def server_for(repo: Path, h, tmp_path: Path) -> Path:
    """A bare repository holding the pre-receive hook of `harness install --server`, origin of ``repo``, with its
    current branch pushed."""
    bare = tmp_path / "server.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(bare))
    assert h("install", "--server", cwd=bare).code == 0
    git(repo, "remote", "add", "origin", str(bare))
    push(repo, "main")
    return bare


def push(repo: Path, *refs: str, ok: bool = True):
    p = git(repo, "push", "--no-verify", "origin", *refs, check=False)  # the server judges, not the client's guard
    assert (p.returncode == 0) == ok, p.stderr
    return p


def commit(repo: Path, message: str, verify: bool = True) -> None:
    """Commit everything, checked first as the commit hook checks it (``verify``)."""
    if verify:
        r = validate_staged(repo)
        assert r.returncode == 0, r.stderr
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", message, "--no-verify")


def approve(repo: Path, rel: str, text: str, kind: str, keys: dict, key: str = "human") -> str:
    """Write ``text`` to ``rel`` and append the approval `harness approve KIND` signs for it now; the line."""
    before = (repo / rel).read_bytes()
    (repo / rel).write_text(text)
    line = approval_line(kind, text.encode(), keys[key][0], bind=(repository_id(repo), before))
    append(repo, line)
    return line


def loosened(repo: Path, how: tuple[str, str] = LOOSER) -> str:
    return (repo / GATE).read_text().replace(*how)


def append(repo: Path, line: str) -> None:
    path = repo / APPROVALS
    path.write_text((path.read_text() if path.exists() else "") + line)


def spent_on_main(repo: Path, keys: dict) -> tuple[str, str, str]:
    """main: a loosening approved (commit A), then tightened back (B), pushed: the approval is spent there.
    (the commit before A, the approval line, the loose gate)."""
    base = head(repo)
    tight = (repo / GATE).read_text()
    loose = loosened(repo)
    line = approve(repo, GATE, loose, "gate-change", keys)
    commit(repo, "A: loosen, approved")
    (repo / GATE).write_text(tight)
    commit(repo, "B: tighten again")
    push(repo, "main")
    return base, line, loose


def replayed_on_an_older_branch(repo: Path, base: str, line: str, rel: str, text: str) -> None:
    """The agent: a branch from ``base`` (before the approval), the spent line copied in, ``rel`` as it approved."""
    git(repo, "checkout", "-qb", "agent", base)
    (repo / rel).write_text(text)
    append(repo, line)
    git(repo, "add", "-A")


# -- refused: the spent line replayed on a branch forked before it ------------------------------------------------

@pytest.mark.e2e
def test_f0543_a_spent_approval_replayed_on_an_older_branch_is_refused_by_the_commit_hook(h, repo, keys, tmp_path):
    adopt(repo, keys)
    server_for(repo, h, tmp_path)
    base, line, loose = spent_on_main(repo, keys)
    (repo / GATE).write_text(loose)  # control: on main itself it is spent, as before
    r = validate_staged(repo)
    assert r.returncode == 1 and "earlier change" in r.stderr, r.stderr
    git(repo, "reset", "-q", "--hard")
    replayed_on_an_older_branch(repo, base, line, GATE, loose)
    r = validate_staged(repo)
    assert r.returncode == 1 and "gate-only-tightens" in r.stderr and "earlier change" in r.stderr, r.stderr
    assert f"origin/main ({head(repo, 'origin/main')[:12]}" in r.stderr, r.stderr


@pytest.mark.e2e
def test_f0543_a_spent_approval_replayed_on_an_older_branch_is_refused_by_the_server(h, repo, keys, tmp_path):
    adopt(repo, keys)
    bare = server_for(repo, h, tmp_path)
    base, line, loose = spent_on_main(repo, keys)
    replayed_on_an_older_branch(repo, base, line, GATE, loose)
    commit(repo, "the loose gate again, with the spent approval", verify=False)
    p = push(repo, "agent", ok=False)
    assert "gate-only-tightens" in p.stderr and "earlier change" in p.stderr, p.stderr
    assert git(bare, "rev-parse", "--verify", "-q", "refs/heads/agent", check=False).returncode != 0


@pytest.mark.e2e
def test_f0543_a_spent_approval_replayed_on_an_older_branch_is_refused_by_the_audit(h, repo, keys, tmp_path):
    adopt(repo, keys)
    server_for(repo, h, tmp_path)
    base, line, loose = spent_on_main(repo, keys)
    replayed_on_an_older_branch(repo, base, line, GATE, loose)
    commit(repo, "the loose gate again, with the spent approval", verify=False)
    ci_signers = tmp_path / "ci_signers"
    ci_signers.write_text(signers_line("test@example.com", keys["human"][1]))
    r = cli(repo, "audit", "--allowed-signers", str(ci_signers), "--from", "origin/main", "--to", "agent")
    assert r.returncode == 1 and "gate-only-tightens" in r.stderr and "earlier change" in r.stderr, r.stderr


@pytest.mark.e2e
def test_f0543_a_revoked_signer_re_listed_with_its_spent_approval_is_refused(h, repo, keys, tmp_path):
    base = adopt(repo, keys)
    server_for(repo, h, tmp_path)
    listed = (repo / SIGNERS).read_text()
    with_revoked = listed + signers_line("test@example.com", keys["revoked"][1])
    line = approve(repo, SIGNERS, with_revoked, "signers-change", keys)
    commit(repo, "list the second key, approved")
    approve(repo, SIGNERS, listed, "signers-change", keys)
    commit(repo, "the second key revoked, approved")
    push(repo, "main")
    replayed_on_an_older_branch(repo, base, line, SIGNERS, with_revoked)
    r = validate_staged(repo)
    assert r.returncode == 1 and "signers-change-needs-approval" in r.stderr and "earlier change" in r.stderr, r.stderr
    commit(repo, "the revoked key again, with the spent approval", verify=False)
    p = push(repo, "agent", ok=False)
    assert "signers-change-needs-approval" in p.stderr and "earlier change" in p.stderr, p.stderr


# -- what keeps counting ------------------------------------------------------------------------------------------

@pytest.mark.e2e
def test_f0543_an_approval_given_on_a_branch_counts_when_merged_and_after(h, repo, keys, tmp_path):
    """Honest cases (1) and (2): approved on a feature branch, pushed, merged into main by a merge commit; a later
    commit on main; another branch that merges the published main in (the merge, and the commits it brings)."""
    base = adopt(repo, keys)
    server_for(repo, h, tmp_path)
    git(repo, "checkout", "-qb", "feature")
    approve(repo, GATE, loosened(repo), "gate-change", keys)
    commit(repo, "loosen on a feature branch, approved")
    push(repo, "feature")
    git(repo, "checkout", "-q", "main")
    (repo / "app.py").write_text("def answer():\n    return 43\n")
    commit(repo, "main moves on")
    git(repo, "merge", "-q", "--no-ff", "--no-commit", "feature")
    commit(repo, "merge feature")
    push(repo, "main")
    git(repo, "checkout", "-qb", "other", base)
    (repo / "other.py").write_text("x = 1\n")
    commit(repo, "other work")
    git(repo, "merge", "-q", "--no-ff", "--no-commit", "origin/main")
    r = cli(repo, "hook", "merge-guard")  # the commits the merge brings, the approving one among them
    assert r.returncode == 0, r.stderr
    commit(repo, "merge the published main")
    push(repo, "other")
    r = cli(repo, "audit", "--from", "origin/main", "--to", "other")
    assert r.returncode == 0, r.stderr
    git(repo, "checkout", "-q", "main")
    approve(repo, GATE, loosened(repo, FURTHER), "gate-change", keys)
    commit(repo, "loosen further on main, approved again")
    push(repo, "main")
    assert cli(repo, "audit", "--from", base, "--to", "main").returncode == 0


@pytest.mark.e2e
def test_f0543_an_approval_given_on_a_branch_counts_when_fast_forwarded(h, repo, keys, tmp_path):
    base = adopt(repo, keys)
    server_for(repo, h, tmp_path)
    git(repo, "checkout", "-qb", "feature")
    approve(repo, GATE, loosened(repo), "gate-change", keys)
    commit(repo, "loosen on a feature branch, approved")
    push(repo, "feature")
    git(repo, "checkout", "-q", "main")
    git(repo, "merge", "-q", "--ff-only", "feature")
    push(repo, "main")
    r = cli(repo, "audit", "--before", base, "--to", "main", "--ref", "refs/heads/main")
    assert r.returncode == 0, r.stderr


@pytest.mark.e2e
def test_f0543_an_approval_committed_on_main_before_it_is_pushed_counts(h, repo, keys, tmp_path):
    """Honest case (3): origin/main lacks the line until the push."""
    base = adopt(repo, keys)
    server_for(repo, h, tmp_path)
    approve(repo, GATE, loosened(repo), "gate-change", keys)
    commit(repo, "loosen on main, approved")
    push(repo, "main")
    assert cli(repo, "audit", "--from", base, "--to", "main").returncode == 0


def test_f0543_without_a_remote_or_a_main_branch_approvals_count_as_before(h, repo, keys):
    """Honest case (4): nothing names a published line; an approval given on a side branch and merged counts, and
    one spent on the line that holds it does not (as before)."""
    git(repo, "branch", "-m", "trunk")
    base = adopt(repo, keys)
    git(repo, "checkout", "-qb", "side")
    tight = (repo / GATE).read_text()
    loose = loosened(repo)
    approve(repo, GATE, loose, "gate-change", keys)
    commit(repo, "loosen on a side branch, approved")
    git(repo, "checkout", "-q", "trunk")
    git(repo, "merge", "-q", "--no-ff", "--no-commit", "side")
    commit(repo, "merge side")
    (repo / GATE).write_text(tight)
    commit(repo, "tighten again")
    (repo / GATE).write_text(loose)
    r = validate_staged(repo)
    assert r.returncode == 1 and "earlier change" in r.stderr, r.stderr
    git(repo, "reset", "-q", "--hard")
    assert cli(repo, "audit", "--from", base, "--to", "trunk").returncode == 0


# -- the push guard asks the remote (read 156's F-0551) ----------------------------------------------------------
# With the clone's `origin/main` and `main` deleted, or moved back before the approval, the push guard read the
# published line from those refs alone and let a spent approval through. The commit hook still judges from what the
# clone knows (docs/approvals.md); the push is where the remote is asked.

def guarded_push(repo: Path, bare: Path, ref: str = "agent"):
    line = f"refs/heads/{ref} {head(repo)} refs/heads/{ref} {'0' * 40}\n"
    return cli(repo, "hook", "push-guard", "origin", str(bare), stdin=line)


@pytest.mark.e2e
@pytest.mark.parametrize("hide", ["deleted", "moved-back"])
def test_f0551_the_push_guard_refuses_a_spent_approval_whatever_the_clones_refs_say(h, repo, keys, tmp_path, hide):
    adopt(repo, keys)
    bare = server_for(repo, h, tmp_path)
    base, line, loose = spent_on_main(repo, keys)
    replayed_on_an_older_branch(repo, base, line, GATE, loose)
    git(repo, "commit", "-qm", "the spent approval again", "--no-verify")
    if hide == "deleted":
        git(repo, "update-ref", "-d", "refs/remotes/origin/main")
        git(repo, "branch", "-q", "-D", "main")
    else:
        git(repo, "update-ref", "refs/remotes/origin/main", base)
        git(repo, "branch", "-q", "-f", "main", base)
    p = guarded_push(repo, bare)
    assert p.returncode == 1, p.stdout + p.stderr
    assert "the remote's main" in p.stdout + p.stderr and "earlier change" in p.stdout + p.stderr


@pytest.mark.e2e
def test_f0551_an_approval_the_remote_has_not_spent_is_pushed(h, repo, keys, tmp_path):
    # the honest case: a loosening approved on a branch, the remote's main lacking it, pushed past the guard
    adopt(repo, keys)
    bare = server_for(repo, h, tmp_path)
    git(repo, "checkout", "-qb", "feature")
    approve(repo, GATE, loosened(repo), "gate-change", keys)
    commit(repo, "loosen, approved")
    p = guarded_push(repo, bare, "feature")
    assert p.returncode == 0, p.stdout + p.stderr


# -- read 158: the listing that fails, the branch HEAD names, the squash-merged branch -----------------------------

def replay_pushed_past_clone(repo: Path, keys: dict, h, tmp_path: Path) -> Path:
    """main's spent approval replayed on `agent` (committed without the hook), origin/main and main in place; the
    bare remote."""
    adopt(repo, keys)
    bare = server_for(repo, h, tmp_path)
    base, line, loose = spent_on_main(repo, keys)
    replayed_on_an_older_branch(repo, base, line, GATE, loose)
    git(repo, "commit", "-qm", "the spent approval again", "--no-verify")
    return bare


@pytest.mark.e2e
@pytest.mark.parametrize("setting", ["note", "insteadof"])
def test_f0552_a_remote_that_cannot_be_listed_refuses_the_approval_rather_than_trust_the_clone(h, repo, keys, tmp_path,
                                                                                               setting):
    bare = replay_pushed_past_clone(repo, keys, h, tmp_path)
    key = f"remote.{bare}.note" if setting == "note" else f"url.{bare}.insteadOf"
    git(repo, "config", key, "anything" if setting == "note" else str(bare))
    p = guarded_push(repo, bare)
    out = p.stdout + p.stderr
    assert p.returncode != 0 and "the push brings an approval" in out, out


@pytest.mark.e2e
def test_f0552_a_push_bringing_no_approval_is_not_asked_for_the_listing(h, repo, keys, tmp_path):
    # the honest case: the same unlistable remote, and a push of code alone (no approval claimed) goes through
    adopt(repo, keys)
    bare = server_for(repo, h, tmp_path)
    git(repo, "config", f"remote.{bare}.note", "anything")
    git(repo, "checkout", "-qb", "feature")
    (repo / "code.txt").write_text("x\n")
    commit(repo, "code")
    p = guarded_push(repo, bare, "feature")
    assert p.returncode == 0, p.stdout + p.stderr


@pytest.mark.e2e
def test_f0553_the_published_line_is_named_by_the_pushed_commits_gate_not_the_checked_out_one(h, repo, keys, tmp_path):
    bare = replay_pushed_past_clone(repo, keys, h, tmp_path)
    agent = head(repo)
    with (repo / GATE).open("a") as gate:  # the checked-out commit's gate names a branch no one has
        gate.write('  suite:\n    paths: ["tests/**"]\n    base: nowhere\n')
    git(repo, "commit", "-qam", "a side commit, never pushed", "--no-verify")
    git(repo, "checkout", "-q", "--detach")
    p = cli(repo, "hook", "push-guard", "origin", str(bare), stdin=f"refs/heads/agent {agent} refs/heads/agent {'0' * 40}\n")
    assert p.returncode == 1 and "earlier change" in p.stdout + p.stderr, p.stdout + p.stderr


@pytest.mark.e2e
def test_f0554_the_refusal_of_a_spent_approval_names_the_rebase_a_squash_merged_branch_needs(h, repo, keys, tmp_path):
    bare = replay_pushed_past_clone(repo, keys, h, tmp_path)
    p = guarded_push(repo, bare)
    out = p.stdout + p.stderr
    assert p.returncode == 1 and "squash or a rebase" in out and "git rebase" in out, out
