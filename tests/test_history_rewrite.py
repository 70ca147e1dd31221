"""A protected ref's history is only extended (issue #24, item 4): real bare remotes with `harness
install --server` and real `git push`. A force push over main, an orphan history that adopts the
harness again (with `true` as its test command), and a harness-less tip after a harness-ful one
are refused by the server hook and by `harness audit`, unless the ref's current tip adds a human's
signed `history-rewrite` approval of exactly that move. Fast-forwards and unprotected branches
pass. A tree with two `.harness` entries is refused by the audit even where the server does not
set receive.fsckObjects; `install --server` sets it and receive.denyNonFastForwards, and
`uninstall --server` puts back what was there."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from support.cli import cli, validate_staged
from support.gitrepo import ci_clone, git, head, out, push, remote_ref
from support.processes import run_in_pty
from support.records import configure
from support.ssh_keys import approval_line, make_key, repository_id, signers_line

pytestmark = pytest.mark.e2e  # real pushes through the installed pre-receive hook

APPROVALS = ".harness/approvals.jsonl"
MAIN = "refs/heads/main"


@pytest.fixture(scope="module")
def keys(tmp_path_factory) -> dict[str, tuple[Path, str]]:
    folder = tmp_path_factory.mktemp("keys")
    return {name: make_key(folder, name) for name in ("human", "agent")}


def commit(repo: Path, message: str) -> str:
    """Commit everything, skipping the client hooks: what the server sees is the point."""
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "-m", message)
    return head(repo)


def server(repo: Path, where: Path, *install: str) -> Path:
    """A bare repository holding `harness install --server INSTALL...`, as ``repo``'s origin."""
    bare = where / "remote.git"
    git(where, "init", "-q", "--bare", str(bare))
    r = cli(bare, "install", "--server", *install)
    assert r.returncode == 0, out(r)
    git(repo, "remote", "add", "origin", str(bare))
    return bare


@pytest.fixture
def pre(h, repo) -> str:
    """The commit from before the repository adopted the harness."""
    return git(repo, "rev-list", "--max-parents=0", "HEAD").stdout.split()[0]


@pytest.fixture
def served(h, repo, keys, pre, tmp_path) -> Path:
    """``repo`` adopted the harness (its allowed signers list the human's key) and pushed main to
    a server that leaves non-fast-forwards to the hook (`--allow-non-fast-forward`)."""
    (repo / ".harness/allowed_signers").write_text(signers_line("test@example.com", keys["human"][1]))
    commit(repo, "adopt the harness")
    bare = server(repo, tmp_path, "--allow-non-fast-forward")
    p = push(repo, "origin", "main")
    assert p.returncode == 0, out(p)
    return bare


def work(repo: Path, text: str, name: str = "app.py") -> str:
    (repo / name).write_text(text)
    return commit(repo, f"work: {text.strip()[:20]}")


def approval(repo: Path, key: Path, new: str, ref: str = MAIN, legacy: bool = False) -> str:
    """The line `harness approve history-rewrite NEW --ref REF` appends on a checkout of the ref's tip: signed
    over the repository, the ref, the tip it was given at (HEAD) and NEW (``legacy``: as signed before it
    named that tip)."""
    subject = {"repository": repository_id(repo), "ref": ref, "new": new}
    if not legacy:
        subject["old"] = head(repo)
    return approval_line("history-rewrite", json.dumps(subject, sort_keys=True).encode(), key,
                         changes=[f"replaces {ref} with {new[:12]}"])


def append(repo: Path, line: str, message: str = "approve the rewrite") -> str:
    path = repo / APPROVALS
    path.write_text((path.read_text() if path.exists() else "") + line)
    assert validate_staged(repo).returncode == 0  # the commit hooks accept the approvals' commit
    return commit(repo, message)


def approve(repo: Path, key: Path, new: str, ref: str = MAIN, legacy: bool = False) -> str:
    """`harness approve history-rewrite NEW --ref REF` on a checkout of the ref's tip, committed."""
    return append(repo, approval(repo, key, new, ref, legacy))


def audit(ci: Path, *args: str) -> tuple[int, dict, str]:
    r = cli(ci, "audit", "--json", *args)
    return r.returncode, json.loads(r.stdout), r.stderr


def rules(doc: dict) -> set[str]:
    return {p["rule"] for p in doc["history"]}


def diverge(repo: Path) -> tuple[str, str]:
    """(the pushed tip thrown away, a commit replacing it on the same base)."""
    base = head(repo)
    old = work(repo, "def answer():\n    return 1\n")
    push(repo, "origin", "main")
    git(repo, "reset", "-q", "--hard", base)
    return old, work(repo, "def answer():\n    return 2\n")


def orphan_readoption(repo: Path) -> str:
    """A history of its own that adopts the harness again, with `true` as its test command: the
    defect of issue #24 — every commit of it passes the per-commit checks (it is a first adoption)."""
    git(repo, "checkout", "-q", "--orphan", "evil")
    configure(repo, ["true"], ["true"])
    return commit(repo, "adopt the harness again, my way")


# -- the server hook ---------------------------------------------------------------------------

def test_a_force_push_over_main_is_refused_and_the_same_push_approved_is_accepted(h, repo, served, keys, tmp_path):
    old, new = diverge(repo)
    p = push(repo, "--force", "origin", "main")
    assert p.returncode != 0, out(p)
    assert "[history-only-extends]" in out(p) and "non-fast-forward" in out(p) and old[:12] in out(p)
    assert "harness approve history-rewrite" in out(p)
    assert remote_ref(served, MAIN) == old

    ci = ci_clone(served, tmp_path / "ci")
    git(ci, "fetch", "-q", str(repo), new)
    code, doc, err = audit(ci, "--before", old, "--to", new, "--ref", MAIN)
    assert code == 1 and rules(doc) == {"history-only-extends"}, err
    assert doc["failed"] == 0  # each commit is sound: the push as a whole is what is refused

    git(repo, "checkout", "-q", "-B", "main", old)  # the approver, on main's current tip
    approval = approve(repo, keys["human"][0], new)
    assert push(repo, "origin", "main").returncode == 0
    p = push(repo, "--force", "origin", f"{new}:{MAIN}")
    assert p.returncode == 0, out(p)
    assert remote_ref(served, MAIN) == new

    ci_clone(served, ci)
    code, doc, err = audit(ci, "--before", approval, "--to", new, "--ref", MAIN)
    assert code == 0 and doc["history"] == [], err


def test_an_orphan_readoption_is_refused_by_the_server_and_by_audit(h, repo, served, keys, tmp_path):
    old = head(repo)
    evil = orphan_readoption(repo)
    assert cli(repo, "audit", "--from", "", "--to", evil).returncode == 0, "each commit passes on its own"
    p = push(repo, "--force", "origin", f"evil:{MAIN}")
    assert p.returncode != 0, out(p)
    assert "[no-orphan-history]" in out(p) and "shares no commit" in out(p)
    assert remote_ref(served, MAIN) == old

    git(repo, "push", "-q", "origin", "evil")  # a branch of its own is no protected ref
    ci = ci_clone(served, tmp_path / "ci")
    for ref in ((), ("--ref", MAIN)):  # without --ref the audit holds the push to the protected rules
        code, doc, err = audit(ci, "--before", old, "--to", "origin/evil", *ref)
        assert code == 1 and "no-orphan-history" in rules(doc), err
    code, doc, err = audit(ci, "--before", old, "--to", "origin/evil", "--ref", "refs/heads/evil")
    assert code == 0, err

    git(repo, "checkout", "-q", "main")
    approve(repo, keys["human"][0], evil)
    assert push(repo, "origin", "main").returncode == 0
    p = push(repo, "--force", "origin", f"evil:{MAIN}")
    assert p.returncode == 0, out(p)


def test_a_harness_less_tip_after_a_harness_ful_one_is_refused(h, repo, served, keys, pre, tmp_path):
    old = head(repo)
    # A rewind to before the adoption brings no commit at all: the move itself is judged.
    p = push(repo, "--force", "origin", f"{pre}:{MAIN}")
    assert p.returncode != 0, out(p)
    assert "[harness-kept]" in out(p) and "[history-only-extends]" in out(p)
    assert remote_ref(served, MAIN) == old

    ci = ci_clone(served, tmp_path / "ci")
    code, doc, err = audit(ci, "--before", old, "--to", pre, "--ref", MAIN)
    assert code == 1 and rules(doc) == {"harness-kept", "history-only-extends"}, err
    assert doc["checked"] == []

    approve(repo, keys["human"][0], pre)
    assert push(repo, "origin", "main").returncode == 0
    p = push(repo, "--force", "origin", f"{pre}:{MAIN}")
    assert p.returncode == 0, out(p)
    assert remote_ref(served, MAIN) == pre


def test_deleting_main_is_refused_a_branch_not(h, repo, served):
    git(repo, "push", "-q", "origin", "main:topic")
    p = push(repo, "origin", ":main", ":topic")
    assert p.returncode != 0 and "deletes the protected ref" in out(p), out(p)
    assert remote_ref(served, MAIN) is not None
    assert push(repo, "origin", ":topic").returncode == 0
    assert remote_ref(served, "refs/heads/topic") is None


# -- approvals that do not count ---------------------------------------------------------------

def test_an_approval_by_a_key_the_old_tip_does_not_list_is_refused(h, repo, served, keys):
    old, new = diverge(repo)
    git(repo, "checkout", "-q", "-B", "main", old)
    approve(repo, keys["agent"][0], new)  # the agent's own key, signed as the listed approver
    assert push(repo, "origin", "main").returncode == 0
    p = push(repo, "--force", "origin", f"{new}:{MAIN}")
    assert p.returncode != 0 and "does not verify" in out(p), out(p)


def test_an_approval_of_another_tip_or_ref_counts_for_nothing(h, repo, served, keys):
    old, new = diverge(repo)
    other = work(repo, "def answer():\n    return 3\n")
    git(repo, "checkout", "-q", "-B", "main", old)
    approve(repo, keys["human"][0], new, ref="refs/heads/release")
    approve(repo, keys["human"][0], new)
    assert push(repo, "origin", "main").returncode == 0
    p = push(repo, "--force", "origin", f"{other}:{MAIN}")  # approved: `new`, not its child
    assert p.returncode != 0 and "[history-only-extends]" in out(p), out(p)


def test_an_approval_voids_once_the_ref_moves_on(h, repo, served, keys):
    old, new = diverge(repo)
    git(repo, "checkout", "-q", "-B", "main", old)
    approve(repo, keys["human"][0], new)
    later = work(repo, "X = 1\n", "later.py")  # pushed after the approval: the rewrite would drop it
    assert push(repo, "origin", "main").returncode == 0
    p = push(repo, "--force", "origin", f"{new}:{MAIN}")
    assert p.returncode != 0 and "moved on since" in out(p), out(p)
    assert remote_ref(served, MAIN) == later


def rewind_approved(repo: Path, served: Path, key: Path, to: str) -> str:
    """A human approves moving main to ``to`` at its tip, pushes that, and force-pushes: the approval's commit."""
    approved = approve(repo, key, to)
    assert push(repo, "origin", "main").returncode == 0
    p = push(repo, "--force", "origin", f"{to}:{MAIN}")
    assert p.returncode == 0 and remote_ref(served, MAIN) == to, out(p)
    return approved


@pytest.mark.parametrize("how", ["in-a-commit-of-its-own", "in-a-merge-of-the-tip-it-was-given-at"])
def test_a_spent_rewrite_approval_added_again_counts_for_nothing(h, repo, served, keys, tmp_path, how):
    old, new = diverge(repo)
    git(repo, "checkout", "-q", "-B", "main", old)
    spent = rewind_approved(repo, served, keys["human"][0], new)
    git(repo, "reset", "-q", "--hard", new)
    work(repo, "P = 1\n", "p.py")
    later = work(repo, "Q = 1\n", "q.py")  # pushed after the rewrite: no approver saw it
    assert push(repo, "origin", "main").returncode == 0
    if how == "in-a-merge-of-the-tip-it-was-given-at":  # the old tip's parent is then the tip it was given at
        git(repo, "merge", "-q", "-s", "ours", "--no-commit", old)
    replay = append(repo, git(repo, "show", f"{spent}:{APPROVALS}").stdout.splitlines()[-1] + "\n", "sync")
    assert push(repo, "origin", "main").returncode == 0  # appending a line is no rewrite
    p = push(repo, "--force", "origin", f"{new}:{MAIN}")
    assert p.returncode != 0 and "[history-only-extends]" in out(p), out(p)
    assert remote_ref(served, MAIN) == replay

    ci = ci_clone(served, tmp_path / "ci")
    code, doc, err = audit(ci, "--before", replay, "--to", new, "--ref", MAIN)
    assert code == 1 and rules(doc) == {"history-only-extends"}, err
    assert later in git(ci, "rev-list", replay).stdout


def test_a_spent_deletion_approval_added_again_counts_for_nothing(h, repo, served, keys):
    release = "refs/heads/release"  # git itself refuses deleting the server's current branch
    git(served, "config", "--add", "harness.protectedRef", release)
    spent = approve(repo, keys["human"][0], "0" * 40, ref=release)
    assert push(repo, "origin", f"HEAD:{release}").returncode == 0
    p = push(repo, "origin", f":{release}")
    assert p.returncode == 0 and remote_ref(served, release) is None, out(p)  # the deletion a human approved
    git(repo, "reset", "-q", "--hard", "HEAD~1")
    assert push(repo, "origin", f"HEAD:{release}").returncode == 0  # created again, without the approval
    work(repo, "LATER = 1\n", "later.py")  # pushed after the deletion: no approver saw it
    append(repo, git(repo, "show", f"{spent}:{APPROVALS}").stdout.splitlines()[-1] + "\n", "sync")
    assert push(repo, "origin", f"HEAD:{release}").returncode == 0
    p = push(repo, "origin", f":{release}")
    assert p.returncode != 0 and "deletes the protected ref" in out(p), out(p)
    assert remote_ref(served, release) == head(repo)


def test_an_approval_signed_before_it_named_the_tip_it_was_given_at_counts_for_nothing(h, repo, served, keys):
    old, new = diverge(repo)
    git(repo, "checkout", "-q", "-B", "main", old)
    approve(repo, keys["human"][0], new, legacy=True)
    assert push(repo, "origin", "main").returncode == 0
    p = push(repo, "--force", "origin", f"{new}:{MAIN}")
    assert p.returncode != 0 and "[history-only-extends]" in out(p), out(p)
    assert "names no tip it was given at" in out(p)


@pytest.mark.parametrize("signed", ["naming-the-tip", "before-approvals-named-their-tip"])
def test_an_approval_given_at_another_tip_than_the_one_it_is_committed_on_counts_for_nothing(h, repo, served, keys,
                                                                                               signed):
    # Approved at the tip, then committed on top of a commit pushed in between: that commit would be dropped unseen.
    old, new = diverge(repo)
    git(repo, "checkout", "-q", "-B", "main", old)
    line = approval(repo, keys["human"][0], new, legacy=signed == "before-approvals-named-their-tip")
    work(repo, "BETWEEN = 1\n", "between.py")
    append(repo, line)
    assert push(repo, "origin", "main").returncode == 0
    p = push(repo, "--force", "origin", f"{new}:{MAIN}")
    assert p.returncode != 0 and "[history-only-extends]" in out(p), out(p)


def test_harness_approve_history_rewrite_at_a_terminal(h, repo, served, keys):
    old, new = diverge(repo)
    git(repo, "checkout", "-q", "-B", "main", old)
    git(repo, "config", "user.signingKey", str(keys["human"][0]))
    code, screen = run_in_pty(repo, ["approve", "history-rewrite", new], "approve")
    assert code == 0, screen
    assert "replaces refs/heads/main" in screen and "1 commit(s) leave its history" in screen
    commit(repo, "approve the rewrite")
    assert push(repo, "origin", "main").returncode == 0
    p = push(repo, "--force", "origin", f"{new}:{MAIN}")
    assert p.returncode == 0, out(p)


# -- what keeps passing ------------------------------------------------------------------------

def test_fast_forwards_and_rewrites_of_unprotected_branches_pass(h, repo, served):
    tip = work(repo, "def answer():\n    return 5\n")
    assert push(repo, "origin", "main").returncode == 0 and remote_ref(served, MAIN) == tip
    git(repo, "switch", "-q", "-c", "feature")
    work(repo, "Y = 1\n", "y.py")
    assert push(repo, "origin", "feature").returncode == 0
    git(repo, "reset", "-q", "--hard", "HEAD~1")
    rebased = work(repo, "Y = 2\n", "y.py")
    p = push(repo, "--force", "origin", "feature")
    assert p.returncode == 0, out(p)
    assert remote_ref(served, "refs/heads/feature") == rebased


def test_a_protected_pattern_from_the_servers_git_config_or_the_old_gate(h, repo, served):
    git(served, "config", "--add", "harness.protectedRef", "refs/heads/release/*")
    git(repo, "push", "-q", "origin", "main:release/1")
    git(repo, "reset", "-q", "--hard", "HEAD~1")
    p = push(repo, "--force", "origin", "HEAD:release/1")
    assert p.returncode != 0 and "refs/heads/release/1" in out(p), out(p)


def test_unprotecting_a_ref_in_gate_yaml_is_a_loosening(h, repo, served):
    gate = repo / ".harness/gate.yaml"
    gate.write_text(gate.read_text() + "  history:\n    protected: [default, refs/heads/stable]\n")
    assert validate_staged(repo).returncode == 0  # protecting more only tightens
    commit(repo, "protect stable")
    gate.write_text(gate.read_text().replace("protected: [default, refs/heads/stable]", "protected: [default]"))
    r = validate_staged(repo)
    assert r.returncode != 0 and "history.protected refs/heads/stable removed" in out(r), out(r)


# -- malformed trees ---------------------------------------------------------------------------

def duplicate_harness(repo: Path) -> str:
    """A commit on main whose root tree holds `.harness` twice: the judged one (what libgit2's
    lookup finds) and another that a checkout writes, whose test command is `true`."""
    good = git(repo, "rev-parse", "HEAD:.harness").stdout.strip()
    configure(repo, ["true"], ["true"])
    git(repo, "add", "-A")
    evil = git(repo, "write-tree", "--prefix=.harness/").stdout.strip()
    git(repo, "reset", "-q", "--hard")
    entries = [line.split("\t", 1) for line in git(repo, "ls-tree", "HEAD").stdout.splitlines()]
    raw = b""
    for meta, name in entries:
        mode, _, oid = meta.split()
        for tree in ((evil, good) if name == ".harness" else (oid,)):
            raw += mode.lstrip("0").encode() + b" " + name.encode() + b"\0" + bytes.fromhex(tree)
    tree = subprocess.run(["git", "hash-object", "-t", "tree", "-w", "--literally", "--stdin"], cwd=repo,
                          input=raw, capture_output=True, check=True).stdout.decode().strip()
    sha = git(repo, "commit-tree", tree, "-p", "HEAD", "-m", "two .harness entries").stdout.strip()
    git(repo, "update-ref", "HEAD", sha)
    assert git(repo, "fsck", "--no-dangling", check=False).returncode != 0
    return sha


def test_a_tree_with_two_harness_entries_is_refused_without_fsck_objects(h, repo, served, tmp_path):
    git(served, "config", "receive.fsckObjects", "false")
    old = head(repo)
    dup = duplicate_harness(repo)
    p = push(repo, "--no-verify", "origin", "main")
    assert p.returncode != 0, out(p)
    assert "[fsck-clean-tree]" in out(p) and "'.harness' appears more than once" in out(p)
    assert remote_ref(served, MAIN) == old

    # A server that accepted it anyway (no hook, no fsck): CI's audit refuses it on its own.
    cli(served, "uninstall", "--server")
    git(served, "config", "receive.fsckObjects", "false")
    assert push(repo, "--no-verify", "origin", "main").returncode == 0
    ci = ci_clone(served, tmp_path / "ci")
    code, doc, err = audit(ci, "--before", old, "--to", "HEAD", "--ref", MAIN)
    assert code == 1, err
    (row,) = doc["results"]
    assert row["commit"] == dup and "fsck-clean-tree" in {p["rule"] for p in row["problems"]}


def test_with_fsck_objects_git_itself_refuses_the_tree(h, repo, tmp_path):
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "-m", "adopt")
    server(repo, tmp_path)
    assert push(repo, "origin", "main").returncode == 0
    duplicate_harness(repo)
    p = push(repo, "--no-verify", "origin", "main")
    assert p.returncode != 0 and "duplicateEntries" in out(p), out(p)


def test_unsorted_and_unwritable_entries_are_named(h, repo):
    from harness.gitio.git import Git

    blob = subprocess.run(["git", "hash-object", "-w", "--stdin"], cwd=repo, input=b"x", capture_output=True,
                          check=True).stdout.decode().strip()
    raw = b"".join(b"100644 " + name + b"\0" + bytes.fromhex(blob) for name in (b"b", b"a", b".."))
    tree = subprocess.run(["git", "hash-object", "-t", "tree", "-w", "--literally", "--stdin"], cwd=repo,
                          input=raw, capture_output=True, check=True).stdout.decode().strip()
    found = Git(repo).malformed_entries(tree)
    assert any("'a' is out of git's order" in f for f in found), found
    assert any("'..' is not one git can check out" in f for f in found), found
    assert Git(repo).malformed_entries(git(repo, "rev-parse", "HEAD^{tree}").stdout.strip()) == []


# -- install --server ----------------------------------------------------------------------------

def test_install_server_sets_the_receive_config_and_uninstall_restores_it(h, repo, tmp_path):
    bare = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", str(bare))
    git(bare, "config", "receive.fsckObjects", "false")

    def config(key: str) -> str | None:
        p = git(bare, "config", "--get", key, check=False)
        return p.stdout.strip() if p.returncode == 0 else None

    r = cli(bare, "install", "--server")
    assert r.returncode == 0 and "receive.denyNonFastForwards = true" in r.stdout, out(r)
    assert (config("receive.fsckObjects"), config("receive.denyNonFastForwards")) == ("true", "true")
    r = cli(bare, "install", "--server")  # again: what was there before the first install is kept
    assert r.returncode == 0, out(r)

    # git itself then refuses every non-fast-forward, on an unprotected branch too.
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "-m", "adopt")
    git(repo, "remote", "add", "origin", str(bare))
    git(repo, "push", "-q", "origin", "main", "main:feature")
    git(repo, "reset", "-q", "--hard", "HEAD~1")
    p = push(repo, "--force", "origin", "HEAD:feature")
    assert p.returncode != 0 and "non-fast-forward" in out(p), out(p)

    r = cli(bare, "install", "--server", "--allow-non-fast-forward")
    assert r.returncode == 0 and config("receive.denyNonFastForwards") is None, out(r)
    assert push(repo, "--force", "origin", "HEAD:feature").returncode == 0

    r = cli(bare, "uninstall", "--server")
    assert r.returncode == 0 and "restored receive.fsckObjects" in r.stdout, out(r)
    assert (config("receive.fsckObjects"), config("receive.denyNonFastForwards")) == ("false", None)
    assert not (bare / "hooks" / "pre-receive").exists()


def test_allow_non_fast_forward_is_a_server_option(h, repo):
    r = cli(repo, "install", "--allow-non-fast-forward")
    assert r.returncode != 0 and "server setting" in out(r), out(r)

