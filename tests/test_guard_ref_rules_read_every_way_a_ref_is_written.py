"""A replace ref and the stamps' notes ref are refused however git is asked to write them: update-ref's
arguments, its stdin (which the guard cannot read), a fetch or push into this repository, symbolic-ref
(#28's task F-0030). Fetching and pushing the stamps to and from a remote stay allowed."""

from __future__ import annotations

import pytest

from support.agent_guard import guard_answer

OID = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
REFUSED = [f"echo 'create refs/replace/{OID} HEAD' | git update-ref --stdin", f"git fetch -q . HEAD:refs/replace/{OID}",
           f"git push -q . HEAD:refs/replace/{OID}", f"git symbolic-ref refs/replace/{OID} refs/heads/main",
           "echo 'update refs/notes/harness HEAD' | git update-ref --stdin", "git fetch . HEAD:refs/notes/harness",
           "git push . +HEAD:refs/notes/harness", f"git push origin HEAD:refs/replace/{OID}"]
ALLOWED = ["git fetch origin", "git push origin main", "git push origin refs/notes/harness",
           "git fetch origin refs/notes/harness:refs/notes/harness", "git symbolic-ref HEAD refs/heads/main",
           "git update-ref refs/heads/topic HEAD", "git fetch . main:topic"]


@pytest.mark.parametrize("command", REFUSED)
def test_a_replace_or_notes_ref_written_any_way_is_refused(h, repo, command):
    assert guard_answer(repo, "Bash", {"command": command}) == "deny", command


@pytest.mark.parametrize("command", ALLOWED)
def test_ordinary_fetches_pushes_and_refs_are_allowed(h, repo, command):
    assert guard_answer(repo, "Bash", {"command": command}) == "allow", command
