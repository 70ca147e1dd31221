"""#27 item 6: "code-only" (a commit that leaves `.harness/` as its parents had it) is one predicate,
harness.core.code_only, asked by the commit hook, the stamp, the push guard's fast path and the change
rules, each on the git data it reads. Held here two ways: the predicate over every pair of entries, and
each asker's reading of a real commit's entry equal to the others' (what the kind adds is
tests/test_a_submodule_entry_is_never_the_folder_it_names.py)."""

from __future__ import annotations

import ast
import itertools
import subprocess
from pathlib import Path

import pytest

from harness.core.code_only import FOLDER, code_only

from support.gitrepo import git, harness_as_submodule_entry, head

KINDS = (FOLDER, "file", "symlink", "submodule")
ENTRIES = [None, *((kind, oid) for kind in KINDS for oid in ("a" * 40, "b" * 40))]
ASKERS = ("harness/gitio/fast_path.py", "harness/history/stamp.py", "harness/gitio/push_fast_path.py",
          "harness/history/change_rules.py")
ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("new", ENTRIES)
def test_a_commit_with_one_parent_is_code_only_exactly_when_it_keeps_the_parents_folder(new) -> None:
    for parent in ENTRIES:
        kept = new == parent and (new is None or new[0] == FOLDER)
        assert code_only(new, [parent]) is kept, (new, parent)


@pytest.mark.parametrize("new", ENTRIES)
def test_a_merge_is_code_only_only_when_every_parent_held_the_same_entry(new) -> None:
    for first, second in itertools.product(ENTRIES, repeat=2):
        assert code_only(new, [first, second]) is (code_only(new, [first]) and code_only(new, [second]))


def test_a_root_commit_is_code_only_only_without_a_harness() -> None:
    assert [entry for entry in ENTRIES if code_only(entry, [])] == [None]


@pytest.mark.parametrize("asker", ASKERS)
def test_every_asker_calls_the_predicate(asker) -> None:
    tree = ast.parse((ROOT / asker).read_text())
    called = {node.func.id for node in ast.walk(tree) if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)}
    assert "code_only" in called, f"{asker} decides code-only without harness.core.code_only"


def _entry_as_each_asker_reads_it(repo: Path, rev: str) -> dict[str, object]:
    """HEAD's (``rev``'s) `.harness` entry as the stamp's fast path, the push guard's fast path and the change
    rules each read it."""
    import os

    from harness.gitio import fast_path, push_fast_path
    from harness.gitio.git import Git
    from harness.gitio.tree_source import TreeSource
    from harness.history import change_rules

    commit = head(repo, rev)
    old = os.getcwd()
    os.chdir(repo)
    try:
        listing = subprocess.run(["git", "ls-tree", "-z", "--full-tree", commit], capture_output=True, check=True).stdout
        entries = [(line, line.split(b"\t", 1)[1].decode()) for line in listing.split(b"\0") if b"\t" in line]
        objects = push_fast_path._Objects()
        try:
            pushed = push_fast_path._harness_entry(objects, commit, set())
        finally:
            objects.close()
    finally:
        os.chdir(old)
    g = Git(repo)
    return {"stamp": fast_path.entry_of(entries, ".harness"),
            "push": pushed[0] if pushed is not None else "full path",
            "rules": change_rules._at(TreeSource(g, g.commit_tree(commit), ""), ".harness")}


def test_each_asker_reads_a_folder_entry_alike(h) -> None:
    git(h.root, "add", "-A")
    git(h.root, "commit", "-q", "--no-verify", "-m", "adopt the harness")
    tree = head(h.root, "HEAD:.harness")
    assert _entry_as_each_asker_reads_it(h.root, "HEAD") == {"stamp": (FOLDER, tree), "push": (FOLDER, tree),
                                                            "rules": (FOLDER, tree)}


def test_a_submodule_entry_is_read_as_one_or_sent_to_the_full_path(h) -> None:
    git(h.root, "add", "-A")
    git(h.root, "commit", "-q", "--no-verify", "-m", "adopt the harness")
    tree = harness_as_submodule_entry(h.root)
    read = _entry_as_each_asker_reads_it(h.root, "HEAD")
    assert read == {"stamp": ("submodule", tree), "push": "full path", "rules": ("submodule", tree)}
    assert not code_only(read["stamp"], [(FOLDER, tree)])
