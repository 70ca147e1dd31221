"""pytest started however a line starts it, with options however they reach it (#28's task F-0134..F-0138):
python's own flags before `-m pytest`, coverage, PYTEST_ADDOPTS exported by name or by `set -a`, the forms an
ini or TOML file writes a key in, a config file the shell writes, and `--rootdir` moving a relative cache_dir."""

from __future__ import annotations

import pytest

from support.agent_guard import guard_answer

LEDGER = ".harness/tasks/T/events.jsonl"
REFUSED = [
    f"python3 -I -m pytest -q --debug={LEDGER}", f"python -B -m pytest --debug={LEDGER}",
    f"python3 -mpytest --debug={LEDGER}", "python3 -W ignore -m pytest --basetemp=.harness",
    f"coverage run -m pytest --debug={LEDGER}", f"coverage run --branch -m pytest --log-file={LEDGER}",
    f"PYTEST_ADDOPTS=--debug={LEDGER}; export PYTEST_ADDOPTS; pytest -q",
    f"set -a; PYTEST_ADDOPTS=--debug={LEDGER}; pytest -q",
    "pytest -q --rootdir=.harness/tasks -o cache_dir=x tests", "pytest --rootdir .harness -o cache_dir=c",
    f"printf '[pytest]\\nlog_file = {LEDGER}\\n' > pytest.ini && pytest -q", "cp other.ini pytest.ini; pytest -q",
    "echo '[tool.pytest.ini_options]' >> pyproject.toml",
]
ALLOWED = [
    "python3 -I -m pytest -q", "python -B -m pytest tests", "coverage run -m pytest -q", "python3 -mpytest -q",
    "PYTEST_ADDOPTS=-q; export PYTEST_ADDOPTS; pytest", "pytest --rootdir=. -o cache_dir=build/cache",
    "cp other.ini build/pytest-copy.txt", "python3 -m pip install -q -e .", "pytest -c /dev/null -q tests",
]


@pytest.mark.parametrize("command", REFUSED)
def test_pytest_started_or_configured_otherwise_is_judged(h, task, repo, command):
    assert guard_answer(repo, "Bash", {"command": command}) == "deny", command


@pytest.mark.parametrize("command", ALLOWED)
def test_ordinary_pytest_lines_are_allowed(h, task, repo, command):
    assert guard_answer(repo, "Bash", {"command": command}) == "allow", command


@pytest.mark.parametrize("text", [f"[pytest]\nlog_file: {LEDGER}\n", f'[tool.pytest.ini_options]\n"log_file" = "{LEDGER}"\n',
                                  "[pytest]\ncache_dir: .harness\n", "[pytest]\naddopts = -q @opts.txt\n"])
def test_every_form_pytest_reads_a_setting_in_is_judged(h, task, repo, text):
    (repo / "opts.txt").write_text(f"--debug={LEDGER}\n")
    name = "pyproject.toml" if "tool.pytest" in text else "pytest.ini"
    assert guard_answer(repo, "Write", {"file_path": str(repo / name), "content": text}) == "deny"
    (repo / "ci.ini").write_text(text)
    assert guard_answer(repo, "Bash", {"command": "pytest -c ci.ini"}) == "deny"


def test_an_ordinary_pytest_configuration_is_allowed(h, task, repo):
    text = "[pytest]\naddopts = -q\nlog_cli: true\ncache_dir: build/cache\n"
    assert guard_answer(repo, "Write", {"file_path": str(repo / "pytest.ini"), "content": text}) == "allow"


def test_a_pytest_configuration_written_outside_the_repository_is_refused_too(h, task, repo, tmp_path):
    # pytest finds its configuration where it runs and above: outside the repository too (F-0141)
    elsewhere = tmp_path / "elsewhere"
    command = f"printf '[pytest]\\naddopts = --debug={repo}/{LEDGER}\\n' > {elsewhere}/pytest.ini && cd {elsewhere} && pytest"
    assert guard_answer(repo, "Bash", {"command": command}) == "deny"
    assert guard_answer(repo, "Bash", {"command": f"cp other.ini {elsewhere}/tox.ini"}) == "deny"
    assert guard_answer(repo, "Bash", {"command": f"cp other.ini {elsewhere}/notes.ini"}) == "allow"
