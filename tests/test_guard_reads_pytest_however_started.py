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


@pytest.mark.parametrize("command", [f"pytest -o addopts=--debug={LEDGER}", "pytest -o 'addopts=-q --basetemp=.harness'",
                                     f"pytest --override-ini=addopts=--log-file={LEDGER}"])
def test_addopts_given_by_override_ini_are_judged(h, task, repo, command):
    assert guard_answer(repo, "Bash", {"command": command}) == "deny", command  # F-0142


@pytest.mark.parametrize("name", ["pytest.toml", ".pytest.toml"])
def test_pytest_s_own_toml_files_are_its_configuration(h, task, repo, name):
    # pytest 9 reads pytest.toml and .pytest.toml first (F-0143)
    text = f'[pytest]\nlog_file = "{LEDGER}"\n'
    assert guard_answer(repo, "Write", {"file_path": str(repo / name), "content": text}) == "deny"
    assert guard_answer(repo, "Bash", {"command": f"cp other.toml {name}"}) == "deny"


@pytest.mark.parametrize("command", [f"python3 -m cProfile -o prof.out -m pytest --debug={LEDGER}",
                                     f"python3 -m pdb -c continue -m pytest --debug={LEDGER}",
                                     f"python3 -m runpy pytest --debug={LEDGER}",
                                     f"python3 --check-hash-based-pycs default -m pytest --debug={LEDGER}",
                                     f"coverage run --data-file={LEDGER} -m pytest -q", f"COVERAGE_FILE={LEDGER} coverage run -m pytest"])
def test_pytest_behind_a_module_runner_is_judged(h, task, repo, command):
    assert guard_answer(repo, "Bash", {"command": command}) == "deny", command  # F-0144


def test_a_relative_log_file_in_a_configuration_is_judged_from_every_folder(h, task, repo):
    text = f"[pytest]\nlog_file = ../{LEDGER}\n"  # `cd tests && pytest` resolves it into the record (F-0145)
    assert guard_answer(repo, "Write", {"file_path": str(repo / "pytest.ini"), "content": text}) == "deny"


def test_a_clustered_c_reads_the_configuration_it_names(h, task, repo):
    (repo / "ci.ini").write_text("[pytest]\naddopts = -q\n")
    assert guard_answer(repo, "Bash", {"command": "pytest -qc ci.ini"}) == "allow"  # F-0146
    assert guard_answer(repo, "Bash", {"command": "pytest -q -c ci.ini"}) == "allow"


@pytest.mark.parametrize(("command", "answer"), [
    ("PYTEST_DEBUG_TEMPROOT=.harness pytest -q", "deny"),
    ("export PYTEST_DEBUG_TEMPROOT=.harness/tasks; pytest", "deny"),
    (f"COVERAGE_FILE={LEDGER}; export COVERAGE_FILE; coverage run -m pytest -q", "deny"),
    ("PYTEST_DEBUG_TEMPROOT=/tmp/pytest-root pytest -q", "allow"),
    ("COVERAGE_FILE=build/.coverage; export COVERAGE_FILE; coverage run -m pytest -q", "allow"),
])
def test_where_pytest_and_coverage_keep_their_files_by_the_environment_is_judged(h, task, repo, command, answer):
    assert guard_answer(repo, "Bash", {"command": command}) == answer, command  # F-0152
