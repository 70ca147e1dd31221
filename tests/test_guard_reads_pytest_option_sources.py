"""pytest writes and empties what its options name, wherever the options come from (#28's task F-0131..F-0133):
an `@FILE` of arguments, an ini named by `-c`, PYTEST_ADDOPTS, `-o cache_dir=`/`log_file=`, and the writing
options `--debug` and `--log-file`. Each is refused onto the harness's record or a hook, and allowed elsewhere."""

from __future__ import annotations

import pytest

from support.agent_guard import guard_answer

LEDGER = ".harness/tasks/T/events.jsonl"
REFUSED = [
    f"pytest --debug={LEDGER}", f"python -m pytest -q --debug {LEDGER}", f"pytest -q --log-file={LEDGER}",
    f"pytest --log-file {LEDGER}", "PYTEST_ADDOPTS=--basetemp=.harness pytest -q",
    "export PYTEST_ADDOPTS='-q --basetemp .harness'; pytest tests", f"PYTEST_ADDOPTS='--debug={LEDGER}' pytest",
    "pytest -o cache_dir=.harness", "pytest -ocache_dir=.harness/tasks", "pytest --override-ini=cache_dir=.",
    "pytest --override-ini cache_dir=.git", f"pytest -o log_file={LEDGER}",
]
ALLOWED = [
    "pytest --debug", "pytest --debug=build/pytest-debug.log -q", "pytest --log-file=build/run.log",
    "PYTEST_ADDOPTS=-q pytest tests", "PYTEST_ADDOPTS='-q --basetemp build/tmp' pytest",
    "pytest -o cache_dir=build/cache", "pytest -o log_cli=true -q", "pytest -o log_file=build/run.log",
]


@pytest.mark.parametrize("command", REFUSED)
def test_a_pytest_option_that_writes_the_record_is_refused(h, task, repo, command):
    assert guard_answer(repo, "Bash", {"command": command}) == "deny", command


@pytest.mark.parametrize("command", ALLOWED)
def test_a_pytest_option_that_writes_elsewhere_is_allowed(h, task, repo, command):
    assert guard_answer(repo, "Bash", {"command": command}) == "allow", command


def test_pytest_debug_in_the_hooks_folder_is_refused(h, task, repo):
    h.ok("install")
    assert guard_answer(repo / ".git/hooks", "Bash", {"command": "pytest --debug=post-commit"}) == "deny"


@pytest.mark.parametrize(("text", "answer"), [("--basetemp=.harness\n", "deny"), (f"-q\n--debug={LEDGER}\n", "deny"),
                                              ("-q\ntests\n", "allow"), ("--basetemp=build/tmp\n", "allow")])
def test_pytest_reads_arguments_from_an_at_file(h, task, repo, text, answer):
    (repo / "args.txt").write_text(text)
    assert guard_answer(repo, "Bash", {"command": "pytest -q @args.txt"}) == answer


def test_an_arguments_file_the_guard_cannot_read_as_pytest_will_is_refused(h, task, repo):
    (repo / "args.txt").write_text("-q\n")
    assert guard_answer(repo, "Bash", {"command": "pytest @missing.txt"}) == "deny"
    # written by the line before pytest reads it: what the file holds now is not what pytest reads
    assert guard_answer(repo, "Bash", {"command": "echo --basetemp=.harness > args.txt && pytest @args.txt"}) == "deny"


@pytest.mark.parametrize(("text", "answer"), [("[pytest]\naddopts = --basetemp=.harness\n", "deny"),
                                              ("[pytest]\ncache_dir = .harness\n", "deny"),
                                              (f"[pytest]\naddopts = -q --log-file={LEDGER}\n", "deny"),
                                              ("[pytest]\naddopts = -q\ncache_dir = build/cache\n", "allow")])
def test_pytest_reads_its_configuration_from_the_file_c_names(h, task, repo, text, answer):
    (repo / "ci.ini").write_text(text)
    assert guard_answer(repo, "Bash", {"command": "pytest -c ci.ini"}) == answer
    assert guard_answer(repo, "Bash", {"command": "pytest --config-file=ci.ini -q"}) == answer


@pytest.mark.parametrize("text", ["[pytest]\ncache_dir = .harness\n", f"[pytest]\naddopts = --debug={LEDGER}\n",
                                  f"[pytest]\nlog_file = {LEDGER}\n"])
def test_an_edit_of_pytest_configuration_that_writes_the_record_is_refused(h, task, repo, text):
    assert guard_answer(repo, "Write", {"file_path": str(repo / "pytest.ini"), "content": text}) == "deny"
