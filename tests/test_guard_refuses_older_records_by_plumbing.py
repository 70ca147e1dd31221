"""Plumbing that puts another revision's files over the work tree is judged as `git checkout REV -- PATH`
is: `git read-tree` from anything but HEAD (with -u or not, since F-0068), and `git checkout-index` writing
`.harness/` (every file, `-a`), could put back an older, shorter ledger (#28's task F-0037)."""

from __future__ import annotations

import pytest

from support.agent_guard import guard_answer


@pytest.mark.parametrize("command", ["git read-tree -u --reset HEAD~1", "git read-tree -m -u HEAD HEAD~1",
                                     "git read-tree HEAD~1 && git checkout-index -f -a",
                                     "git checkout-index -f -- .harness/tasks/T/events.jsonl",
                                     "git checkout-index --all --force"])
def test_an_older_revision_put_over_the_work_tree_by_plumbing_is_refused(h, repo, command):
    assert guard_answer(repo, "Bash", {"command": command}) == "deny", command


# `git read-tree HEAD~1` without -u is refused since #28's task F-0068: `git checkout -- FILE` then reads that index.
@pytest.mark.parametrize("command", ["git read-tree -u --reset HEAD", "git read-tree -m HEAD",
                                     "git checkout-index -f -- src/app.py", "git ls-files -s"])
def test_plumbing_that_puts_back_nothing_older_is_allowed(h, repo, command):
    assert guard_answer(repo, "Bash", {"command": command}) == "allow", command
