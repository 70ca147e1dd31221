"""Programs that write where an option says (#25's task F-0018): `pytest --basetemp=DIR` empties DIR, `--junitxml`,
`sort -o`, `uniq IN OUT`, `tree -o` write a file — refused onto the harness's record, a hook or the repository,
allowed everywhere else (a report under `.harness/local/`, a scratch folder)."""

from __future__ import annotations

import pytest

from support.agent_guard import guard_answer

REFUSED = ["pytest --basetemp=.harness", "pytest -q --basetemp .harness/tasks", "python3 -m pytest --basetemp=.harness",
           "pytest --basetemp=.", "pytest --basetemp=..", "py.test --basetemp=.git",
           "pytest --junitxml=.harness/approvals.jsonl", "sort -o .harness/approvals.jsonl notes.txt",
           "sort --output=.harness/approvals.jsonl notes.txt", "sort -o.harness/approvals.jsonl notes.txt",
           "uniq notes.txt .harness/approvals.jsonl", "tree -o .git/hooks/pre-commit",
           # #27's task F-0043: the output option inside a cluster of short options, as getopt reads it
           "sort -uo .harness/approvals.jsonl notes.txt", "sort -uo.harness/approvals.jsonl notes.txt",
           "sort -ruo .harness/tasks/T/events.jsonl notes.txt", "tree -ao .git/hooks/pre-commit"]
ALLOWED = ["pytest --basetemp=/tmp/scratch-basetemp", "pytest --basetemp=build/tmp -q",
           "pytest --junitxml=.harness/local/junit.xml", "python3 -m pytest --junitxml=reports/junit.xml",
           "sort -o sorted.txt notes.txt", "uniq notes.txt unique.txt", "tree -o tree.txt", "pytest -q tests",
           "sort -uo sorted.txt notes.txt", "sort -ru notes.txt"]



@pytest.mark.parametrize("command", REFUSED)
def test_a_write_by_option_onto_the_record_is_refused(h, task, repo, command):
    assert guard_answer(repo, "Bash", {"command": command}) == "deny", command


@pytest.mark.parametrize("command", ALLOWED)
def test_a_write_by_option_elsewhere_is_allowed(h, task, repo, command):
    assert guard_answer(repo, "Bash", {"command": command}) == "allow", command


def test_the_quick_path_leaves_every_writing_option_of_its_readers_to_the_judge():
    from harness.agent import quick_allow
    from harness.agent.judge import bypass_files, pytest_writes

    judged = {o for prog in quick_allow.READERS for o in bypass_files.OUTPUT_OPTIONS.get(prog, ("", ()))[1]}
    assert set(quick_allow.WRITING_OPTIONS) == judged | set(pytest_writes.OPTIONS)
    assert not {p for p in quick_allow.READERS if bypass_files.OUTPUT_OPTIONS.get(p, ("", ()))[0]}  # no short ones
