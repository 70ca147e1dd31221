"""The CI audit never succeeds over content it could not read: a partial clone is refused with exit 2 and a hint."""

from __future__ import annotations

from pathlib import Path

import pytest

from support.flows import hand_done_no_verify
from support.gitrepo import ci_clone, git, pushed_to_bare


@pytest.mark.parametrize("filter_spec", ["blob:none", "tree:0"])
def test_a_partial_clone_is_refused_with_exit_2_and_a_hint_not_a_traceback(h, repo, tmp_path, filter_spec):
    remote = pushed_to_bare(repo, tmp_path)
    base = git(repo, "rev-parse", "HEAD~1").stdout.strip()
    hand_done_no_verify(repo, h)
    git(repo, "push", "-q", "--no-verify", "origin", "main")
    git(remote, "config", "uploadpack.allowFilter", "true")
    ci: Path = ci_clone(remote, tmp_path / "ci", f"--filter={filter_spec}")
    r = h("audit", "--before", base, cwd=ci)
    assert r.code == 2 and "partial" in r.err and "filter" in r.err, r.text
