"""A `.harness` submodule entry is not the folder whose tree it names: a checkout of it holds none of the
record. The change rules compared the `.harness` ids of a commit and its parents alone, so a commit putting
the folder back after such an entry passed as code-only and its tasks were never judged at it; the stamp's
fast path read its parent's id the same way and stamped that commit from the cache."""

from __future__ import annotations

from pathlib import Path

from harness.signatures.trust import Signers

from support.gitrepo import git, harness_as_submodule_entry, head, run_in


def _folder_back_after_a_submodule_entry(repo: Path) -> str:
    """Commits (no hooks) a submodule entry naming `.harness`'s tree, then the folder back; returns the tree."""
    tree = harness_as_submodule_entry(repo)
    git(repo, "rm", "-q", "--cached", ".harness")
    git(repo, "add", ".harness")
    git(repo, "commit", "-q", "--no-verify", "-m", "the folder back")
    assert head(repo, "HEAD:.harness") == tree
    return tree


def test_the_change_rules_judge_a_folder_that_replaces_a_submodule_entry_naming_it(h) -> None:
    """Before the predicate, the change rules compared ids alone: the folder restored after a submodule entry
    naming its tree was "untouched", so its tasks were never judged at that commit."""
    from harness.gitio.git import Git
    from harness.gitio.tree_source import TreeSource
    from harness.history.change_rules import validate_change

    h.ok("task", "new", "A task the rules must see")
    git(h.root, "add", "-A")
    git(h.root, "commit", "-q", "--no-verify", "-m", "adopt the harness")
    _folder_back_after_a_submodule_entry(h.root)
    g = Git(h.root)
    source = [TreeSource(g, g.commit_tree(head(h.root, rev)), "") for rev in ("HEAD~1", "HEAD")]
    problems, verdicts = validate_change([source[0]], source[1], g.source_tree(head(h.root, "HEAD")), Signers())
    assert [v.id for v in verdicts], "the task was not judged: the commit passed as code-only"


def _quick_stamp(repo: Path) -> bool:
    from harness.history.stamp import quick_stamp_head

    return run_in(repo, quick_stamp_head)


def test_the_stamp_of_a_folder_after_a_submodule_entry_is_not_taken_from_the_cache(h) -> None:
    git(h.root, "add", "-A")
    git(h.root, "commit", "-q", "--no-verify", "-m", "adopt the harness")
    h.ok("stamp", "HEAD")  # the cache now knows this .harness tree
    (h.root / "app.py").write_text("print(1)\n")
    git(h.root, "add", "app.py")
    git(h.root, "commit", "-q", "--no-verify", "-m", "code only")
    assert _quick_stamp(h.root) is True  # the control: a code-only commit is stamped from the cache
    _folder_back_after_a_submodule_entry(h.root)
    assert _quick_stamp(h.root) is False  # the same tree, but its parent held no folder: stamped in full


def _judged(repo: Path, old: str, new: str) -> list[str]:
    """The change rules' problems (as `file [rule]`) for commit ``new`` against its parent ``old``."""
    from harness.gitio.git import Git
    from harness.gitio.tree_source import TreeSource
    from harness.history.change_rules import validate_change

    g = Git(repo)
    old_src, new_src = (TreeSource(g, g.commit_tree(head(repo, rev)), "") for rev in (old, new))
    problems, _ = validate_change([old_src], new_src, g.source_tree(head(repo, new)), Signers())
    return [f"{p.file} [{p.rule}]" for p in problems]


def _replaced_by_a_submodule_entry(repo: Path, rel: str, oid: str, mode: str) -> None:
    """Commits (no hooks) ``rel`` as a submodule entry naming ``oid``, then ``rel`` back as mode ``mode``."""
    for entry_mode in ("160000", mode):
        git(repo, "rm", "-r", "-q", "--cached", rel)
        if entry_mode == "040000":
            git(repo, "read-tree", f"--prefix={rel}/", oid)
        else:
            git(repo, "update-index", "--add", "--cacheinfo", f"{entry_mode},{oid},{rel}")
        git(repo, "commit", "-q", "--no-verify", "-m", f"{rel} as {entry_mode}")


def test_a_gate_put_back_after_a_submodule_entry_naming_its_blob_is_judged(h) -> None:
    """F-0049: below .harness the rules compared ids alone, so a loosened gate.yaml brought back this way passed."""
    git(h.root, "add", "-A")
    git(h.root, "commit", "-q", "--no-verify", "-m", "adopt the harness")
    gate = (h.root / ".harness/gate.yaml").read_text()
    loose = gate.replace("critical_allowed: 0", "critical_allowed: 9")
    assert loose != gate
    (h.root / "loose.yaml").write_text(loose)
    blob = git(h.root, "hash-object", "-w", "loose.yaml").stdout.strip()
    (h.root / "loose.yaml").unlink()
    _replaced_by_a_submodule_entry(h.root, ".harness/gate.yaml", blob, "100644")
    assert ".harness/gate.yaml [gate-only-tightens]" in _judged(h.root, "HEAD~1", "HEAD")


def test_a_task_folder_put_back_after_a_submodule_entry_naming_its_tree_is_judged(h) -> None:
    """F-0049: a forged task folder brought back this way was skipped as the tree a parent held."""
    task = h.ok("task", "new", "A task the rules must see").out.strip()
    git(h.root, "add", "-A")
    git(h.root, "commit", "-q", "--no-verify", "-m", "adopt the harness")
    folder = f".harness/tasks/{task}"
    with (h.root / folder / "events.jsonl").open("a") as ledger:
        ledger.write('{"not": "an event"}\n')
    git(h.root, "add", folder)
    forged = git(h.root, "write-tree", f"--prefix={folder}/").stdout.strip()
    git(h.root, "checkout", "-q", "HEAD", "--", folder)
    _replaced_by_a_submodule_entry(h.root, folder, forged, "040000")
    assert f"{folder} [valid-ledger-and-files]" in _judged(h.root, "HEAD~1", "HEAD")
