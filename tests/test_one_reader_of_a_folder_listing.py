"""A commit's `.harness/` listing is read one way by every reader (read 119: F-0429, F-0431..F-0435).

The gate reads HEAD's files through libgit2 (TreeSource), status and recordings through `git cat-file`
(CommitFiles). A listing written with git's plumbing (`hash-object --literally`, `commit-tree`, or stock `git mktree`
for a 120755 link) was read differently by the two: a link with permission bits was a link to git and an executable
file to libgit2, a name listed twice or out of order was found by one lookup and missed by the other, a mode libgit2
cannot parse killed the gate with a traceback, and a file's mode naming a folder gave a heap address as its size.
Such a listing is now refused, with one reason, by every reader; `harness gate` and `harness status` then agree.
"""

from __future__ import annotations

import json
import subprocess

import pytest

from harness.errors import HarnessError

from support.cli import TO_VERIFYING, gate_json, walk_to
from support.flows import new_task
from support.gitrepo import commit_all_ok, git
from support.paths import PY

GATE = ".harness/gate.yaml"


def _put(repo, kind: str, data: bytes) -> bytes:
    out = subprocess.run(["git", "hash-object", "-w", "--literally", "-t", kind, "--stdin"], cwd=repo, input=data,
                         capture_output=True, check=True).stdout.strip()
    return bytes.fromhex(out.decode())


def _raw(repo, tree: str) -> list[list[bytes]]:
    """[mode, name, id] of each entry of ``tree`` as stored."""
    raw = subprocess.run(["git", "cat-file", "tree", tree], cwd=repo, capture_output=True, check=True).stdout
    out = []
    while raw:
        head, _, raw = raw.partition(b"\0")
        mode, _, name = head.partition(b" ")
        out.append([mode, name, raw[:20]])
        raw = raw[20:]
    return out


def _listing(entries: list[list[bytes]]) -> bytes:
    return b"".join(mode + b" " + name + b"\0" + oid for mode, name, oid in entries)


def _head_harness(repo, harness: list[list[bytes]]) -> None:
    """HEAD moved to a commit of HEAD's tree whose `.harness` folder lists ``harness`` exactly as given."""
    top = _raw(repo, "HEAD^{tree}")
    for entry in top:
        if entry[1] == b".harness":
            entry[2] = _put(repo, "tree", _listing(harness))
    tree = _put(repo, "tree", _listing(top)).hex()
    git(repo, "update-ref", "HEAD", git(repo, "commit-tree", "-p", "HEAD", "-m", "a raw .harness", tree).stdout.strip())


def _loosened(repo) -> bytes:
    return _put(repo, "blob", (repo / GATE).read_bytes().replace(b"unit_test: required", b"unit_test: optional"))


def _crafted(repo, how: str) -> None:
    """HEAD's `.harness` listing made as read 119 made it: ``how`` names the defect."""
    entries = _raw(repo, "HEAD:.harness")
    gate = next(e for e in entries if e[1] == b"gate.yaml")
    if how == "link-with-permission-bits":  # F-0431: what stock `git mktree` writes for `120755 blob`
        gate[0], gate[2] = b"120755", _loosened(repo)
    elif how == "named-twice":  # F-0432
        entries.insert(entries.index(gate) + 1, [b"100644", b"gate.yaml", _loosened(repo)])
    elif how == "out-of-order":  # F-0433
        entries.remove(gate)
        entries.insert(0, [b"100644", b"gate.yaml", _loosened(repo)])
    elif how == "over-16-bits":  # F-0429, F-0435: a submodule's entry to git, unparsable to libgit2
        gate[0], gate[2] = b"100160000", _loosened(repo)
    elif how == "file-naming-a-folder":  # F-0434
        gate[2] = bytes.fromhex(git(repo, "rev-parse", "HEAD:.harness").stdout.strip())
    _head_harness(repo, entries)


CRAFTED = ["link-with-permission-bits", "named-twice", "out-of-order", "over-16-bits", "file-naming-a-folder"]


@pytest.fixture
def adopted(h, repo):
    """The harness committed, a task in VERIFYING whose policy (unit_test required) blocks it."""
    commit_all_ok(repo, "adopt the harness")
    new_task(h)
    walk_to(h, *TO_VERIFYING)
    h.ok("evidence", "build", "--", PY, "-c", "pass")
    assert b"unit_test: required" in (repo / GATE).read_bytes()
    return repo


def _readers(repo) -> list:
    """HEAD's gate.yaml through CommitFiles.read, the read-ahead with HEAD, and the gate's TreeSource: its bytes,
    or the refusal's message."""
    from harness.gitio.fast_path import CommitFiles
    from harness.gitio.git import Git
    from harness.gitio.tree_source import TreeSource

    def read(how):
        try:
            return how()
        except HarnessError as exc:
            return str(exc)

    head = CommitFiles.of_head(repo)
    g = Git(repo)
    return [read(lambda: head.read(GATE)), read(lambda: CommitFiles.of_head(repo, ahead=(GATE,)).read(GATE)),
            read(lambda: TreeSource(g, g.commit_tree(head.commit), "HEAD", rev=head.commit).read(GATE))]


@pytest.mark.parametrize("how", CRAFTED)
def test_every_reader_refuses_the_listing_with_one_reason(adopted, how):
    _crafted(adopted, how)
    found = _readers(adopted)
    assert len(set(found)) == 1 and isinstance(found[0], str), found
    assert "refused" in found[0] and "HEAD" in found[0], found[0]


@pytest.mark.parametrize("how", CRAFTED)
def test_the_gate_and_status_agree_and_neither_dies(h, adopted, how):
    _crafted(adopted, how)
    code, report = gate_json(h)
    status = json.loads(h("status", "--json").out)["gate_now"]["verdict"]
    assert "Traceback" not in h("gate").err
    assert report["verdict"] == status == "INVALID_HARNESS_STATE", (report, status)
    assert code != 0


def test_a_sound_listing_reads_alike_as_before(adopted):
    # The legitimate path a careless guard would refuse: git's own listing, read the same by all three.
    assert _readers(adopted) == [(adopted / GATE).read_bytes()] * 3


@pytest.mark.parametrize("how", CRAFTED)
def test_the_audit_refuses_such_a_commit_and_does_not_die(h, adopted, how):
    # The backstop that reads history (audit, the push guard) reads listings the same way.
    base = git(adopted, "rev-parse", "HEAD").stdout.strip()
    _crafted(adopted, how)
    r = h("audit", "--from", base, "--to", "HEAD")
    assert "Traceback" not in r.err + r.out, r.err
    if how == "file-naming-a-folder":  # no listing defect: the read of the file says why (2: could not check)
        assert r.code == 2 and "a file's entry names a tree, not a blob" in r.err, (r.code, r.out, r.err)
    else:  # refused by name, as every other listing git's fsck rejects (1: refused)
        assert r.code == 1 and "fsck-clean-tree" in r.out + r.err, (r.code, r.out, r.err)


# -- read 121: a mode read differently outside .harness is no reason to refuse what the harness reads ------------

def _head_with_a_120755_link_at_the_root(repo) -> str:
    """HEAD moved to a commit of HEAD's tree plus a root entry `link` of mode 120755 (stock `git mktree` writes it);
    returns that commit."""
    top = _raw(repo, "HEAD^{tree}") + [[b"120755", b"link", _put(repo, "blob", b"app.py")]]
    top.sort(key=lambda e: e[1] + (b"/" if e[0] == b"40000" else b""))
    tree = _put(repo, "tree", _listing(top)).hex()
    commit = git(repo, "commit-tree", "-p", "HEAD", "-m", "a 120755 link", tree).stdout.strip()
    git(repo, "update-ref", "HEAD", commit)
    git(repo, "reset", "-q")  # the index as HEAD has it (git stores the link's mode as 120000 there)
    return commit


def test_a_code_only_commit_on_such_a_head_is_answered_alike_by_both_paths(adopted):
    # F-0438: the full commit check refused HEAD's whole root for a link it never reads; the fast path passed.
    from harness.gitio.fast_path import staged_nothing_to_judge
    from harness.history.hook_checks import hook_git, staged_problems

    from support.gitrepo import run_in

    _head_with_a_120755_link_at_the_root(adopted)
    (adopted / "app.py").write_text("x = 2\n")
    git(adopted, "add", "app.py")
    assert run_in(adopted, lambda: staged_problems(hook_git())) == []
    assert run_in(adopted, staged_nothing_to_judge) is True


def test_an_unprotected_ref_at_such_a_tip_can_be_deleted_and_moved(adopted):
    # F-0439: the old tip's gate.yaml (its protected refs) was read through a root the parser refused: exit 2 for
    # a ref the rules leave alone. A refused `.harness` of the old tip is held to the protected rules (fails closed).
    from harness.gitio.git import Git
    from harness.history.rewrite import ZERO, history_problems
    from harness.signatures.trust import Signers

    clean = git(adopted, "rev-parse", "HEAD").stdout.strip()
    tip = _head_with_a_120755_link_at_the_root(adopted)
    g = Git(adopted)
    assert history_problems(g, "refs/heads/feature", tip, ZERO, Signers(lambda: g)) == []
    assert history_problems(g, "refs/heads/feature", tip, clean, Signers(lambda: g)) == []
    git(adopted, "update-ref", "HEAD", clean)
    _crafted(adopted, "link-with-permission-bits")  # now inside .harness: the tip's policy cannot be read
    bad = git(adopted, "rev-parse", "HEAD").stdout.strip()
    found = history_problems(g, "refs/heads/feature", bad, ZERO, Signers(lambda: g))
    assert [p.rule for p in found] == ["history-only-extends"], found


@pytest.mark.parametrize("how", ["harness-folder-40755", "link-inside-harness"])
def test_a_code_only_commit_on_a_head_with_an_ambiguous_harness_entry_is_answered_alike(adopted, how):
    # Read 122's F-0440: the full commit check refused the parent's .harness that the commit leaves as it was; the
    # fast path (which compares the .harness entry alone) passed. What a commit leaves as its parent had it was
    # that parent's to answer for (the push guard refuses the parent itself).
    from harness.gitio.fast_path import staged_nothing_to_judge
    from harness.history.hook_checks import hook_git, staged_problems

    from support.gitrepo import run_in

    top = _raw(adopted, "HEAD^{tree}")
    for entry in top:
        if entry[1] == b".harness":
            if how == "harness-folder-40755":
                entry[0] = b"40755"
            else:
                inner = _raw(adopted, "HEAD:.harness") + [[b"120755", b"link", _put(adopted, "blob", b"gate.yaml")]]
                inner.sort(key=lambda e: e[1] + (b"/" if e[0] == b"40000" else b""))
                entry[2] = _put(adopted, "tree", _listing(inner))
    tree = _put(adopted, "tree", _listing(top)).hex()
    git(adopted, "update-ref", "HEAD", git(adopted, "commit-tree", "-p", "HEAD", "-m", how, tree).stdout.strip())
    git(adopted, "read-tree", "HEAD")  # the index's cached folders are HEAD's trees: `.harness` is committed as it is
    (adopted / "app.py").write_text("x = 3\n")
    git(adopted, "add", "app.py")
    fast = run_in(adopted, staged_nothing_to_judge)
    full = run_in(adopted, lambda: staged_problems(hook_git()))
    assert (fast, full) == (True, []), (fast, full)


def test_a_parent_s_submodule_entry_naming_the_folder_is_no_inherited_harness(adopted):
    # Read 123's F-0442: a parent's `.harness` submodule entry naming a tree made the child's `.harness` folder of that
    # id count as left as the parent had it, so fsck-clean-tree never looked into it (a bare refusal, exit 2, later).
    from harness.gitio.git import Git
    from harness.gitio.tree_source import TreeSource
    from harness.history.incoming import unreadable_trees

    inner = _raw(adopted, "HEAD:.harness") + [[b"120755", b"zz", _put(adopted, "blob", b"gate.yaml")]]
    bad = _put(adopted, "tree", _listing(inner))
    top = _raw(adopted, "HEAD^{tree}")

    def commit(mode: bytes, parent: str) -> str:
        for entry in top:
            if entry[1] == b".harness":
                entry[0], entry[2] = mode, bad
        tree = _put(adopted, "tree", _listing(top)).hex()
        return git(adopted, "commit-tree", "-p", parent, "-m", mode.decode(), tree).stdout.strip()
    p = commit(b"160000", "HEAD")
    c = commit(b"40000", p)
    g = Git(adopted)
    assert g.harness_entry_id(g.commit_tree(p)) is None  # no folder there: nothing is inherited from it
    olds = [TreeSource(g, g.commit_tree(p), f"commit {p[:12]}", rev=p)]
    found = unreadable_trees(g, g.commit_tree(c), olds)
    assert [x.rule for x in found] == ["fsck-clean-tree"] and "'zz' has mode 120755" in found[0].message, found


def test_a_merge_over_a_base_whose_harness_entry_is_ambiguous_is_refused_by_name(adopted):
    # Read 124's F-0443: the one-adoption rule read each merge base's `.harness` and the refusal escaped as an error
    # (exit 2, no rule, no commit named). Which side adopted cannot be read there: refused by the rule, fail-closed.
    from harness.gitio.git import Git
    from harness.history.incoming import _second_adoption

    top = _raw(adopted, "HEAD^{tree}")
    sound = _put(adopted, "tree", _listing(top)).hex()
    odd = [[b"160755" if e[1] == b".harness" else e[0], e[1], e[2]] for e in top]
    base = git(adopted, "commit-tree", "-m", "B", _put(adopted, "tree", _listing(odd)).hex()).stdout.strip()
    one = git(adopted, "commit-tree", "-p", base, "-m", "P1", sound).stdout.strip()
    other_tree = _put(adopted, "tree", _listing(sorted(top + [[b"100644", b"zz.txt", _put(adopted, "blob", b"z")]],
                                                       key=lambda e: e[1] + (b"/" if e[0] == b"40000" else b""))))
    two = git(adopted, "commit-tree", "-p", base, "-m", "P2", other_tree.hex()).stdout.strip()
    merge = git(adopted, "commit-tree", "-p", one, "-p", two, "-m", "M", sound).stdout.strip()
    found = _second_adoption(Git(adopted), merge)
    assert [p.rule for p in found] == ["one-adoption"] and "160755" in found[0].message, found


def test_a_head_naming_no_commit_is_refused_with_a_reason(adopted):
    # Read 124's F-0444: HEAD naming a tree (or a commit libgit2 cannot parse) made `harness gate` and
    # `init --restore-gate` die with a pygit2 traceback and exit 1, the code of an ordinary BLOCKED.
    from harness.gitio.git import Git
    from harness.gitio.tree_source import of_head

    tree = git(adopted, "rev-parse", "HEAD^{tree}").stdout.strip()
    (adopted / ".git/HEAD").write_text(tree + "\n")
    with pytest.raises(HarnessError, match=r"HEAD names [0-9a-f]+, which is not a commit"):
        of_head(Git(adopted))


def test_the_merge_guard_refuses_a_merge_head_whose_harness_entry_is_ambiguous_by_name(adopted, h):
    # F-0445: the one-repository rule read MERGE_HEAD's root `.harness` and the refusal escaped as an error: the merge
    # guard exited 2 with no rule and no commit named, and the incoming commit's own refusal was lost.
    top = _raw(adopted, "HEAD^{tree}")
    odd = [[b"160755" if e[1] == b".harness" else e[0], e[1], e[2]] for e in top]
    incoming = git(adopted, "commit-tree", "-p", "HEAD", "-m", "X", _put(adopted, "tree", _listing(odd)).hex())
    (adopted / ".git/MERGE_HEAD").write_text(incoming.stdout)
    out = h("hook", "merge-guard")
    assert out.code == 1, out.text
    assert "[fsck-clean-tree]" in out.text and "[one-repository]" in out.text and "160755" in out.text
