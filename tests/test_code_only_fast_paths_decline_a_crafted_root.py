"""The code-only fast paths decline a root tree only a hand-made commit holds, so the full checks judge it:
a parent whose entry is literally named `.harness/` is no `.harness` folder for the stamp (F-0050), and a HEAD
holding `.HARNESS` beside `.harness` leaves the commit hook's fast path, Python or shim, nothing to answer
(F-0051): its full checks refuse that tree."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from support.gitrepo import git, head, run_in


def _adopted(h) -> None:
    git(h.root, "add", "-A")
    git(h.root, "commit", "-q", "--no-verify", "-m", "adopt the harness")


def test_a_parent_entry_literally_named_harness_slash_is_no_folder_for_the_stamp(h) -> None:
    from harness.history.stamp import quick_stamp_head

    _adopted(h)
    h.ok("stamp", "HEAD")  # the cache knows HEAD's .harness tree
    tree = head(h.root, "HEAD:.harness")
    raw = (b"160000 .harness/\0" + bytes.fromhex(tree)
           + b"100644 app.py\0" + bytes.fromhex(head(h.root, "HEAD:app.py")))
    made = subprocess.run(["git", "hash-object", "-t", "tree", "--literally", "-w", "--stdin"], cwd=h.root,
                          input=raw, capture_output=True, check=True).stdout.decode().strip()
    crafted = git(h.root, "commit-tree", made, "-p", "HEAD", "-m", "B").stdout.strip()
    child = git(h.root, "commit-tree", head(h.root, "HEAD^{tree}"), "-p", crafted, "-m", "C").stdout.strip()
    git(h.root, "update-ref", "refs/heads/main", child)
    git(h.root, "checkout", "-q", "main")
    assert run_in(h.root, quick_stamp_head) is False


def _with_a_second_spelling(h) -> None:
    _adopted(h)
    git(h.root, "read-tree", "--prefix=.HARNESS/", head(h.root, "HEAD:.harness"))
    git(h.root, "commit", "-q", "--no-verify", "-m", ".HARNESS beside .harness")
    with (h.root / "app.py").open("a") as f:
        f.write("# code only\n")
    git(h.root, "add", "app.py")


def test_the_commit_fast_path_declines_a_head_holding_a_second_spelling(h) -> None:
    from harness.gitio.fast_path import staged_nothing_to_judge
    from harness.history.hook_checks import hook_git, staged_problems

    _with_a_second_spelling(h)
    assert [p.rule for p in run_in(h.root, lambda: staged_problems(hook_git()))] == ["fsck-clean-tree"]
    assert run_in(h.root, staged_nothing_to_judge) is False


def _shim_ran_the_checks(repo: Path, tmp_path: Path) -> bool:
    """Runs the native shim as git would at pre-commit, with a Python that only notes it was started."""
    from harness.install.hook_files import native_hook

    marker = tmp_path / "started"
    fake = tmp_path / "python"
    fake.write_text(f"#!/bin/sh\necho \"$@\" > {marker}\n")
    fake.chmod(0o755)
    shim = tmp_path / "hooks" / "pre-commit"
    shim.parent.mkdir()
    shim.write_text(native_hook().replace("@PYTHON@", str(fake)))
    shim.chmod(0o755)
    subprocess.run([str(shim)], cwd=repo, check=True, env={**os.environ, "GIT_INDEX_FILE": str(repo / ".git/index")})
    return marker.exists()


@pytest.mark.parametrize("second_spelling", [False, True])
def test_the_native_shim_runs_the_checks_on_a_head_holding_a_second_spelling(h, tmp_path, second_spelling) -> None:
    if second_spelling:
        _with_a_second_spelling(h)
    else:  # the control: an everyday code-only commit is answered by the shim alone
        _adopted(h)
        with (h.root / "app.py").open("a") as f:
            f.write("# code only\n")
        git(h.root, "add", "app.py")
    assert _shim_ran_the_checks(h.root, tmp_path) is second_spelling
