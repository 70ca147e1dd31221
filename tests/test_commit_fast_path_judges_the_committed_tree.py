"""The code-only commit fast path (the native shim's pre-commit branch and `harness hook validate`'s answer from
git) judges the tree git commits, not the index's entries (review 112's F-0388).

`git commit` builds its tree from the index's cache-tree (its TREE extension) wherever that is marked valid, as
`git write-tree` and the full checks do. An index whose entries are HEAD's but whose cache-tree names another
`.harness` tree commits that other tree, while `git diff --cached -- .harness` (the entries against HEAD) sees
nothing staged: the fast path answered "code only" for a commit that sets a task DONE by hand."""

from __future__ import annotations

import hashlib
import struct
from pathlib import Path

import pytest

from harness.gitio.fast_path import staged_nothing_to_judge
from harness.history.hook_checks import hook_git, staged_problems

from support.cli import cli
from support.gitrepo import commit_all_ok, commit_ok, git, head, out, refused_commit, run_in
from support.records import set_state_by_hand, task_dir

pytestmark = pytest.mark.e2e  # the native shims under real `git commit`


def _entries_end(body: bytes) -> int:
    """Where the entries of an index (version 2 or 3) end and its extensions begin."""
    assert body[:4] == b"DIRC"
    version, count = struct.unpack(">II", body[4:12])
    assert version in (2, 3), version
    pos = 12
    for _ in range(count):
        flags = struct.unpack(">H", body[pos + 60:pos + 62])[0]
        name_at = pos + (64 if version == 3 and flags & 0x4000 else 62)
        pos += (body.index(b"\0", name_at) - pos + 8) // 8 * 8  # NUL-padded to a multiple of 8
    return pos


def _tree_extension_naming(ext: bytes, path: bytes, oid: bytes) -> bytes:
    """The TREE extension ``ext`` with node ``path`` naming ``oid`` (its entry count kept) and the root marked
    invalid, so git recomputes the root from the entries and the cached subtrees."""
    at, new, named = 0, bytearray(), False
    while at < len(ext):
        nul = ext.index(b"\0", at)
        name, eol = ext[at:nul], ext.index(b"\n", nul)
        count, subtrees = ext[nul + 1:eol].split(b" ")
        end = eol + 1 + (20 if int(count) >= 0 else 0)
        if at == 0:
            new += name + b"\0-1 " + subtrees + b"\n"
        elif name == path and int(count) >= 0:
            new += name + b"\0" + count + b" " + subtrees + b"\n" + oid
            named = True
        else:
            new += ext[at:end]
        at = end
    assert named, f"no valid cache-tree node for {path!r}"
    return bytes(new)


def _point_cache_tree(index: Path, path: str, tree: str) -> None:
    """Rewrite ``index``'s cache-tree so that its node ``path`` names ``tree`` (sha1 repositories)."""
    body = index.read_bytes()[:-20]
    pos = _entries_end(body)
    out_ = bytearray(body[:pos])
    while pos < len(body):
        sig, size = body[pos:pos + 4], struct.unpack(">I", body[pos + 4:pos + 8])[0]
        ext = body[pos + 8:pos + 8 + size]
        if sig == b"TREE":
            ext = _tree_extension_naming(ext, path.encode(), bytes.fromhex(tree))
        out_ += sig + struct.pack(">I", len(ext)) + ext
        pos += 8 + size
    index.write_bytes(bytes(out_) + hashlib.sha1(out_).digest())


def _shims_noting_python(h, tmp_path: Path) -> Path:
    """Install the native shims with a Python that notes it was started, then runs the real one: a
    code-only commit the shim answers alone leaves no note. The note's path."""
    h.ok("install")
    shim = h.root / ".git" / "hooks" / "pre-commit"
    lines = shim.read_text().splitlines(keepends=True)
    python = next(line for line in lines if line.startswith("py="))[3:].strip()  # as the installer wrote it
    marker, wrapper = tmp_path / "python-started", tmp_path / "python"
    wrapper.write_text(f"#!/bin/sh\necho \"$@\" >> '{marker}'\nexec {python} \"$@\"\n")
    wrapper.chmod(0o755)
    shim.write_text("".join(f"py='{wrapper}'\n" if line.startswith("py=") else line for line in lines))
    return marker


def _crafted_index(repo: Path, tid: str) -> str:
    """Stage HEAD's entries with a cache-tree naming a `.harness` tree whose task.yaml says DONE by hand, plus a
    code change; the `.harness` tree `git commit` will record."""
    task_yaml = task_dir(repo, tid) / "task.yaml"
    honest = task_yaml.read_bytes()
    set_state_by_hand(repo, tid, "DONE")
    git(repo, "add", str(task_yaml))
    forged = head(repo, git(repo, "write-tree").stdout.strip() + ":.harness")
    task_yaml.write_bytes(honest)
    git(repo, "read-tree", "HEAD")  # HEAD's entries, and a cache-tree valid everywhere
    _point_cache_tree(repo / ".git" / "index", ".harness", forged)
    with (repo / "app.py").open("a") as f:
        f.write("# code\n")
    git(repo, "add", "app.py")
    assert git(repo, "diff", "--cached", "--quiet", "--", ".harness", check=False).returncode == 0  # the entries
    assert head(repo, git(repo, "write-tree").stdout.strip() + ":.harness") == forged  # the tree git commits
    return forged


@pytest.fixture
def committed(h, task, tmp_path):
    """(the repository with the shims installed and the task committed through them, the Python-started note)."""
    marker = _shims_noting_python(h, tmp_path)
    commit_all_ok(h.root, "task")
    return h.root, marker


def test_a_cache_tree_naming_a_hand_edited_harness_is_refused_by_the_native_pre_commit(committed, task):
    repo, marker = committed
    before = head(repo, "HEAD:.harness")
    _crafted_index(repo, task)
    marker.unlink(missing_ok=True)
    text = refused_commit(repo, "code only?")
    assert f".harness/tasks/{task}/task.yaml" in text, text
    assert marker.exists()  # the shim handed the commit to the checks
    assert head(repo, "HEAD:.harness") == before


def test_hook_validate_gives_the_full_checks_answer_on_such_an_index(committed, task):
    repo, _ = committed
    _crafted_index(repo, task)
    assert run_in(repo, lambda: staged_problems(hook_git()))  # the full checks refuse the tree git commits
    assert run_in(repo, staged_nothing_to_judge) is False
    for check in (("hook", "validate"), ("hook", "run", "pre-commit")):
        answer = cli(repo, *check)
        assert answer.returncode == 1 and f".harness/tasks/{task}/task.yaml" in out(answer), (check, out(answer))


def test_an_honest_code_only_commit_still_takes_the_shims_fast_path(committed):
    repo, marker = committed
    marker.unlink(missing_ok=True)
    with (repo / "app.py").open("a") as f:
        f.write("# code only\n")
    git(repo, "add", "app.py")
    assert run_in(repo, staged_nothing_to_judge) is True
    commit_ok(repo, "code only")
    assert not marker.exists()  # answered by the shim, Python never started
    with (repo / "app.py").open("a") as f:
        f.write("# code only, again\n")
    commit_ok(repo, "code only, commit -a", "-a")  # git's own index.lock as $GIT_INDEX_FILE
    with (repo / "app.py").open("a") as f:
        f.write("# code only, a third time\n")
    commit_ok(repo, "code only, commit PATH", "app.py")  # a temporary index, its cache-tree not yet whole
    assert not marker.exists()


def test_a_cache_tree_naming_head_harness_over_edited_entries_is_code_only(committed, task):
    # The converse: entries changed under .harness/ but a cache-tree naming HEAD's .harness tree commit HEAD's
    # tree, so the commit changes nothing of the record: the fast path and the full checks both let it through.
    repo, marker = committed
    head_harness = head(repo, "HEAD:.harness")
    set_state_by_hand(repo, task, "DONE")
    git(repo, "add", "-A")
    git(repo, "write-tree")  # a cache-tree valid everywhere, .harness's node naming the edited tree
    _point_cache_tree(repo / ".git" / "index", ".harness", head_harness)
    staged = git(repo, "ls-files", "-s", "--", str(task_dir(repo, task) / "task.yaml")).stdout.split()[1]
    assert staged != head(repo, f"HEAD:.harness/tasks/{task}/task.yaml")  # the entries: DONE by hand
    with (repo / "app.py").open("a") as f:
        f.write("# code\n")
    git(repo, "add", "app.py")
    assert run_in(repo, lambda: staged_problems(hook_git())) == []
    assert run_in(repo, staged_nothing_to_judge) is True
    marker.unlink(missing_ok=True)
    commit_ok(repo, "HEAD's record, as git commits it")
    assert head(repo, "HEAD:.harness") == head_harness
    assert not marker.exists()  # answered by the shim
