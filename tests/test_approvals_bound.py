"""Approvals are bound (issue #24, item 5): the signed payload names the repository (its first root
commit) and the digest of the file it loosens from; approvals.jsonl is append-only at commit, push,
server and audit; an approval counts once. Legacy records (neither field) keep counting for exactly
the file digest they approve."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest

from support.cli import cli, validate_staged
from support.gitrepo import git, new_repo
from support.processes import run_in_pty
from support.ssh_keys import approval_line, make_key, repository_id, signers_line

LOOSER = ("major_allowed: 0", "major_allowed: 1")
LOOSEST = ("major_allowed: 0", "major_allowed: 2")
GATE = ".harness/gate.yaml"
APPROVALS = ".harness/approvals.jsonl"


@pytest.fixture(scope="module")
def keys(tmp_path_factory) -> dict[str, tuple[Path, str]]:
    folder = tmp_path_factory.mktemp("keys")
    return {name: make_key(folder, name) for name in ("human", "other")}


def adopt(repo: Path, keys: dict) -> Path:
    """Commit the allowed signers (the human approver) into a harness-initialised ``repo``."""
    (repo / ".harness/allowed_signers").write_text(signers_line("test@example.com", keys["human"][1]))
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "adopt the harness")
    return repo


@pytest.fixture
def adopted(h, repo, keys) -> Path:
    return adopt(repo, keys)


def head(repo: Path) -> str:
    return git(repo, "rev-parse", "HEAD").stdout.strip()


def rewrite(repo: Path, rel: str, text: str) -> bytes:
    (repo / rel).write_text(text)
    return (repo / rel).read_bytes()


def loosen(repo: Path, how: tuple[str, str] = LOOSER) -> tuple[bytes, bytes]:
    """(the gate as committed, the loosened gate now in the working tree)."""
    before = (repo / GATE).read_bytes()
    return before, rewrite(repo, GATE, before.decode().replace(*how))


def bound(repo: Path, kind: str, after: bytes, before: bytes | None, keys: dict, **kw) -> str:
    """An approval as `harness approve` signs it in ``repo`` now."""
    return approval_line(kind, after, keys["human"][0], bind=(repository_id(repo), before), **kw)


def append(repo: Path, line: str) -> None:
    path = repo / APPROVALS
    path.write_text((path.read_text() if path.exists() else "") + line)


def commit(repo: Path, message: str, verify: bool = True) -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", message, *(() if verify else ("--no-verify",)))


# -- bound to the repository and to the file it loosens from ------------------------------------

def test_an_approval_replayed_into_another_repository_with_the_same_gate_is_refused(adopted, keys, tmp_path):
    other = new_repo(tmp_path / "other")
    (other / "app.py").write_text("def answer():\n    return 43\n")  # another project: its own root commit
    git(other, "commit", "-qa", "--amend", "-m", "another project")
    assert repository_id(other) != repository_id(adopted)
    assert cli(other, "init").returncode == 0
    shutil.copy(adopted / GATE, other / GATE)  # the very same gate.yaml, and the same approver
    adopt(other, keys)
    assert (other / GATE).read_bytes() == (adopted / GATE).read_bytes()
    before, after = loosen(adopted)
    line = bound(adopted, "gate-change", after, before, keys)
    append(adopted, line)
    assert validate_staged(adopted).returncode == 0  # where it was signed, it counts
    loosen(other)
    append(other, line)
    r = validate_staged(other)
    assert r.returncode == 1 and "gate-only-tightens" in r.stderr, r.stderr
    assert "another repository" in r.stderr and repository_id(adopted)[:12] in r.stderr, r.stderr
    assert repository_id(other)[:12] in r.stderr, r.stderr


def test_an_approval_given_against_another_version_of_the_file_is_refused(adopted, keys):
    before, after = loosen(adopted)
    elsewhere = before.replace(b"major_allowed: 0", b"major_allowed: 0\n# another starting file")
    append(adopted, bound(adopted, "gate-change", after, elsewhere, keys))
    r = validate_staged(adopted)
    assert r.returncode == 1 and "gate-only-tightens" in r.stderr, r.stderr
    assert "from another version" in r.stderr and GATE in r.stderr, r.stderr
    assert "counts as none" not in r.stderr  # well signed: the binding is what is wrong, and it says so


def test_a_config_change_approval_is_bound_to_the_config_it_changes_from(h, repo, keys):
    config = repo / ".harness/config.yaml"
    before = rewrite(repo, ".harness/config.yaml",
                     "version: 1\nevidence:\n  unit_test:\n    command: [python3, -m, pytest]\n")
    adopt(repo, keys)
    after = rewrite(repo, ".harness/config.yaml", "version: 1\nevidence:\n  unit_test:\n    command: ['true']\n")
    append(repo, bound(repo, "config-change", after, b"version: 1\n", keys))
    r = validate_staged(repo)
    assert r.returncode == 1 and "evidence-commands-need-approval" in r.stderr and "from another version" in r.stderr
    (repo / APPROVALS).write_text(bound(repo, "config-change", config.read_bytes(), before, keys))
    assert validate_staged(repo).returncode == 0


def test_dropping_or_adding_the_binding_after_signing_breaks_the_signature(adopted, keys):
    before, after = loosen(adopted)
    stripped = json.loads(bound(adopted, "gate-change", after, before, keys))
    del stripped["repository"], stripped["from_digest"]  # passed off as a legacy record
    append(adopted, json.dumps(stripped) + "\n")
    r = validate_staged(adopted)
    assert r.returncode == 1 and "does not verify" in r.stderr, r.stderr
    legacy = json.loads(approval_line("gate-change", after, keys["human"][0]))
    legacy.update(repository=repository_id(adopted), from_digest="0" * 64)  # a binding it was never signed with
    (adopted / APPROVALS).write_text(json.dumps(legacy) + "\n")
    r = validate_staged(adopted)
    assert r.returncode == 1 and "does not verify" in r.stderr, r.stderr


# -- append-only, and counted once --------------------------------------------------------------

def _spend_then_delete(repo: Path, keys: dict) -> tuple[str, str, bytes]:
    """Loosen with an approval (committed), then tighten back and take the approval out (committed
    past the hook). (the commit before it all, the approval line, the loose gate)."""
    base = head(repo)
    before, after = loosen(repo)
    line = bound(repo, "gate-change", after, before, keys)
    append(repo, line)
    commit(repo, "loosen, approved")
    rewrite(repo, GATE, before.decode())
    (repo / APPROVALS).write_text("")
    r = validate_staged(repo)
    assert r.returncode == 1 and "approvals-append-only" in r.stderr and "lost 1 committed line" in r.stderr, r.stderr
    commit(repo, "tighten again, and drop the spent approval", verify=False)
    return base, line, after


def test_delete_then_re_add_a_spent_approval_is_refused_at_commit_and_in_audit(adopted, keys):
    base, line, after = _spend_then_delete(adopted, keys)
    rewrite(adopted, GATE, after.decode())
    append(adopted, line)
    commit(adopted, "the loose gate again, with the old approval put back", verify=False)
    r = cli(adopted, "audit", "--from", base)
    assert r.returncode == 1 and "approvals-append-only" in r.stderr, r.stderr
    dropped = git(adopted, "rev-parse", "HEAD~1").stdout.strip()
    assert f"audit in commit {dropped[:12]}" in r.stderr, r.stderr


def test_a_spent_approval_still_in_the_file_does_not_count_twice(adopted, keys):
    before, after = loosen(adopted)
    append(adopted, bound(adopted, "gate-change", after, before, keys))
    commit(adopted, "loosen, approved")
    rewrite(adopted, GATE, before.decode())
    commit(adopted, "tighten again")  # needs no approval; the spent one stays
    rewrite(adopted, GATE, after.decode())
    r = validate_staged(adopted)
    assert r.returncode == 1 and "gate-only-tightens" in r.stderr and "earlier change" in r.stderr, r.stderr


def test_rewriting_a_committed_approval_line_names_the_line(adopted, keys):
    before, after = loosen(adopted)
    append(adopted, bound(adopted, "gate-change", after, before, keys))
    commit(adopted, "loosen, approved")
    (adopted / APPROVALS).write_text((adopted / APPROVALS).read_text().replace('"os_user":"test"', '"os_user":"x"')
                                     .replace('"os_user": "test"', '"os_user": "x"'))
    r = validate_staged(adopted)
    assert r.returncode == 1 and "approvals-append-only" in r.stderr and "line 1" in r.stderr, r.stderr


def test_a_last_line_cannot_be_continued_into_another(adopted, keys):
    before, after = loosen(adopted)
    append(adopted, bound(adopted, "gate-change", after, before, keys).rstrip("\n"))  # no final newline
    commit(adopted, "loosen, approved")
    (adopted / APPROVALS).write_text((adopted / APPROVALS).read_text() + "garbage\n")  # the line is no record now
    r = validate_staged(adopted)
    assert r.returncode == 1 and "approvals-append-only" in r.stderr and "line 1" in r.stderr, r.stderr


@pytest.mark.e2e  # a real push through the installed pre-receive hook
def test_the_server_refuses_a_push_that_drops_an_approval(adopted, keys, h, tmp_path):
    bare = tmp_path / "server.git"
    git(tmp_path, "init", "-q", "--bare", str(bare))
    assert h("install", "--server", cwd=bare).code == 0
    git(adopted, "remote", "add", "origin", str(bare))
    git(adopted, "push", "-q", "origin", "main")
    _spend_then_delete(adopted, keys)
    p = git(adopted, "push", "origin", "main", check=False)
    assert p.returncode != 0 and "approvals-append-only" in p.stderr, p.stderr


# -- what keeps working ------------------------------------------------------------------------

def test_a_fresh_approval_made_at_a_terminal_is_bound_and_counts(adopted, keys):
    git(adopted, "config", "user.signingKey", str(keys["human"][0]))
    base = head(adopted)
    before, _ = loosen(adopted)
    code, screen = run_in_pty(adopted, ["approve", "gate-change"], "approve")
    assert code == 0, screen
    record = json.loads((adopted / APPROVALS).read_text().splitlines()[-1])
    assert record["repository"] == repository_id(adopted)
    assert record["from_digest"] == hashlib.sha256(before).hexdigest()
    assert validate_staged(adopted).returncode == 0
    commit(adopted, "loosen, approved at a terminal")
    r = cli(adopted, "audit", "--from", base)
    assert r.returncode == 0, r.stderr


def test_a_legacy_approval_still_counts_for_exactly_its_file(adopted, keys):
    base = head(adopted)
    _, after = loosen(adopted)
    append(adopted, approval_line("gate-change", after, keys["human"][0]))  # no repository, no from_digest
    assert validate_staged(adopted).returncode == 0
    commit(adopted, "loosen, legacy approval")
    assert cli(adopted, "audit", "--from", base).returncode == 0
    loosen(adopted, ("major_allowed: 1", "major_allowed: 2"))  # the file it approved has changed
    r = validate_staged(adopted)
    assert r.returncode == 1 and "gate-only-tightens" in r.stderr, r.stderr


def test_appending_a_second_approval_passes_at_commit_and_in_audit(adopted, keys):
    base = head(adopted)
    before, after = loosen(adopted)
    append(adopted, bound(adopted, "gate-change", after, before, keys))
    commit(adopted, "loosen, approved")
    before2, after2 = loosen(adopted, ("major_allowed: 1", "major_allowed: 2"))
    append(adopted, bound(adopted, "gate-change", after2, before2, keys, changes=["further"]))
    assert validate_staged(adopted).returncode == 0
    commit(adopted, "loosen further, approved again")
    r = cli(adopted, "audit", "--from", base)
    assert r.returncode == 0, r.stderr


def test_a_merge_keeps_the_approvals_both_sides_appended(adopted, keys):
    before, after = loosen(adopted)
    append(adopted, bound(adopted, "gate-change", after, before, keys))
    fork = head(adopted)
    git(adopted, "checkout", "-qb", "side")
    commit(adopted, "loosen on a side branch, approved")
    side = (adopted / APPROVALS).read_text()
    git(adopted, "checkout", "-q", "main")
    signers = adopted / ".harness/allowed_signers"
    old_signers = signers.read_bytes()
    signers.write_text(signers.read_text() + signers_line("second@example.com", keys["other"][1]))
    append(adopted, bound(adopted, "signers-change", signers.read_bytes(), old_signers, keys))
    commit(adopted, "a second approver, approved")
    main = (adopted / APPROVALS).read_text()
    assert git(adopted, "merge", "-q", "--no-commit", "side", check=False).returncode != 0  # both appended
    (adopted / APPROVALS).write_text(main + side)
    r = validate_staged(adopted)
    assert r.returncode == 0, r.stderr
    (adopted / APPROVALS).write_text(main)  # the side's approval dropped in the merge
    r = validate_staged(adopted)
    assert r.returncode == 1 and "approvals-append-only" in r.stderr and "gone from the merge" in r.stderr, r.stderr
    (adopted / APPROVALS).write_text(main + side)
    commit(adopted, "merge side")
    assert cli(adopted, "audit", "--from", fork).returncode == 0


def _shallow_clone(adopted: Path, tmp_path: Path) -> Path:
    git(adopted, "commit", "-q", "--allow-empty", "-m", "one more, so the clone's boundary is no root")
    shallow = tmp_path / "shallow"
    git(tmp_path, "clone", "-q", "--depth", "1", f"file://{adopted}", str(shallow))
    return shallow


def _cannot_tell_the_repository(where: Path, adopted: Path, keys: dict) -> None:
    """An approval bound as the full clone names the repository is refused in ``where``, and approving
    there is refused before anyone is asked to type."""
    before, after = loosen(where)
    append(where, bound(adopted, "gate-change", after, before, keys))
    r = validate_staged(where)
    assert r.returncode == 1 and "shallow" in r.stderr and "git fetch --unshallow" in r.stderr, r.stderr
    git(where, "config", "user.signingKey", str(keys["human"][0]))
    (where / APPROVALS).unlink()
    code, screen = run_in_pty(where, ["approve", "gate-change"], "approve")
    assert code == 1 and "shallow clone" in screen and 'type "approve"' not in screen, screen


def test_a_shallow_clone_cannot_tell_the_repository_and_says_so(adopted, keys, tmp_path):
    _cannot_tell_the_repository(_shallow_clone(adopted, tmp_path), adopted, keys)


# -- found by review (F-0001 of TASK-20261203-8759ca) ----------------------------------------------

def test_a_carriage_return_put_inside_a_committed_approval_line_is_a_rewrite():
    from harness.history.change_rules import _check_approvals_kept

    class Src:
        def __init__(self, raw: bytes, label: str) -> None:
            self.raw, self.label = raw, label

        def read(self, rel: str) -> bytes:
            return self.raw

    record = b'{"kind": "gate-change"}'
    problems: list = []
    _check_approvals_kept([Src(record + b"\n", "HEAD")], Src(record + b"\rjunk\n", "new"), problems)
    assert [p.rule for p in problems] == ["approvals-append-only"]
    problems = []  # appending, with or without the old file's last newline, is what approve does
    _check_approvals_kept([Src(record + b"\n", "HEAD")], Src(record + b"\n" + record + b"\n", "new"), problems)
    _check_approvals_kept([Src(record, "HEAD")], Src(record + b"\n" + record + b"\n", "new"), problems)
    assert problems == []


# -- found by review (#27's task F-0006, F-0007) ------------------------------------------------

def test_a_linked_worktree_of_a_shallow_clone_cannot_tell_the_repository_either(adopted, keys, tmp_path):
    """F-0006: libgit2 does not see a linked worktree's repository as shallow; git does, and so must we."""
    from harness.gitio.git import Git

    shallow = _shallow_clone(adopted, tmp_path)
    wt = tmp_path / "wt"
    git(shallow, "worktree", "add", "-q", "-b", "side", str(wt))
    assert Git(wt).is_shallow() and Git(shallow).is_shallow()
    _cannot_tell_the_repository(wt, adopted, keys)


def test_a_suite_change_approval_is_refused_in_a_shallow_clone_too(adopted, keys, tmp_path):
    """F-0007: its digest names the repository as every other kind's binding does."""
    shallow = _shallow_clone(adopted, tmp_path)
    tid = cli(shallow, "task", "new", "in the shallow clone").stdout.strip()
    git(shallow, "config", "user.signingKey", str(keys["human"][0]))
    code, screen = run_in_pty(shallow, ["approve", "suite-change", "tests/test_x.py::test_a", "--task", tid], "approve")
    assert code != 0 and "shallow clone" in screen and "git fetch --unshallow" in screen, screen
    assert not (shallow / APPROVALS).exists() or b"suite-change" not in (shallow / APPROVALS).read_bytes()


def test_a_full_clone_still_approves_a_suite_change(adopted, keys):
    tid = cli(adopted, "task", "new", "in the full clone").stdout.strip()
    git(adopted, "config", "user.signingKey", str(keys["human"][0]))
    code, screen = run_in_pty(adopted, ["approve", "suite-change", "tests/test_x.py::test_a", "--task", tid], "approve")
    assert code == 0, screen
    assert b"suite-change" in (adopted / APPROVALS).read_bytes()


def test_a_command_added_for_a_new_type_commits_with_the_human_s_approval(h, repo, keys):
    """The legitimate way past F-0108's rule: the addition refused alone, accepted with a signed, bound approval."""
    before = rewrite(repo, ".harness/config.yaml",
                     "version: 1\nevidence:\n  unit_test:\n    command: [python3, -m, pytest]\n")
    adopt(repo, keys)
    after = rewrite(repo, ".harness/config.yaml", before.decode() + "  custom.smoke:\n    command: [python3, -c, pass]\n")
    r = validate_staged(repo)
    assert r.returncode == 1 and "evidence.custom.smoke.command added" in r.stderr
    append(repo, bound(repo, "config-change", after, before, keys))
    assert validate_staged(repo).returncode == 0
