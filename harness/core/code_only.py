"""Code-only: a commit that leaves `.harness/` exactly as each of its parents had it.

Such a commit changes no task, so no rule of the record has anything to judge in it. Four places
ask, each on the git data it already holds, and every one of them asks this predicate:

- the commit hook, on the tree git commits from the index against HEAD
  (:func:`harness.gitio.fast_path.staged_nothing_to_judge`);
- the stamp of a new commit against its parent (:func:`harness.history.stamp.quick_stamp_head`);
- the push guard's answer from git alone, each pushed commit against its parent
  (:func:`harness.gitio.push_fast_path.code_only_push`);
- the change rules, any commit against all its parents, for pre-push and audit
  (:func:`harness.history.change_rules.validate_change`).

An entry is ``(kind, id)`` — kind ``"folder"``, ``"file"``, ``"symlink"`` or ``"submodule"`` as the
tree records it — or None where the tree has no `.harness`. Plain tuples and no imports: the two
fast paths load this module before anything else of the package.
"""

FOLDER = "folder"


def code_only(new: tuple[str, str] | None, parents: list[tuple[str, str] | None]) -> bool:
    """Whether a commit whose `.harness` entry is ``new`` leaves it as ``parents`` (theirs) had it.

    The kind counts with the id: a submodule entry may name the very tree its parent held as a
    folder, yet a checkout of it holds none of the record, and a folder that replaces such an entry
    was never judged. A fast path that cannot read an entry must not call this: it asks the full path.
    """
    if new is not None and new[0] != FOLDER:
        return False  # no folder: the rules refuse it (plain files only), so they must see it
    if not parents:
        return new is None  # a root commit: adopting the harness is judged; one without it has nothing to judge
    return all(parent == new for parent in parents)


def entry_of_mode(mode: str, oid: str) -> tuple[str, str]:
    """The entry of an ``ls-tree`` line's octal mode (``040000`` a folder, ``160000`` a submodule,
    ``120000`` a link, else a file)."""
    kinds = {"40000": FOLDER, "160000": "submodule", "120000": "symlink"}
    return kinds.get(mode.lstrip("0") or "0", "file"), oid
