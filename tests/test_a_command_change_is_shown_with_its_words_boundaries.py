"""What a config.yaml command change is shown as keeps each word's boundaries (read 156's F-0550): joined with spaces,
`["sh", "-c", "python3", "-m", "pytest", "-q", "tests"]` (which runs `python3` alone, reading an empty stdin: exit 0)
read as a harmless `sh -c 'python3 -m pytest -q tests'` at `harness approve config-change`, and was approved."""

from __future__ import annotations

from pathlib import Path

import pytest

from support.cli import commit_validated, validate_staged
from support.processes import run_in_pty
from support.records import set_config
from support.ssh_keys import make_key, sign_as_listed

COMMAND = '["python3", "-m", "pytest", "-q", "tests"]'
WRAPPED_WRONG = '["sh", "-c", "python3", "-m", "pytest", "-q", "tests"]'
WRAPPED_RIGHT = '["sh", "-c", "python3 -m pytest -q tests"]'


@pytest.fixture
def adopted(h, repo, tmp_path) -> Path:
    sign_as_listed(repo, *make_key(tmp_path / "keys", "human"))
    set_config(repo, f"evidence:\n  unit_test:\n    command: {COMMAND}\n")
    commit_validated(repo, "adopt the harness")
    return repo


@pytest.mark.parametrize("command", [WRAPPED_WRONG, WRAPPED_RIGHT], ids=["words-after-c", "one-shell-line"])
def test_f0550_the_approver_sees_the_words_a_command_is_made_of(adopted, command):
    set_config(adopted, f"evidence:\n  unit_test:\n    command: {command}\n")
    code, screen = run_in_pty(adopted, ["approve", "config-change"], "no")
    assert 'type "approve"' in screen, screen
    screen = screen.replace("\r", "")
    assert command in screen, screen  # the list as config.yaml holds it, one string per word
    assert "'sh -c python3 -m pytest -q tests'" not in screen, screen


def test_f0550_the_commit_refusal_names_the_words_too(adopted):
    set_config(adopted, f"evidence:\n  unit_test:\n    command: {WRAPPED_WRONG}\n")
    r = validate_staged(adopted)
    assert r.returncode == 1 and WRAPPED_WRONG in r.stderr.replace("\n  ", " "), r.stderr


def test_f0550_two_commands_that_differ_in_their_words_are_never_spelled_alike():
    from harness.core.policy import spelled_argv

    assert spelled_argv(["sh", "-c", "python3", "-m", "pytest"]) != spelled_argv(["sh", "-c", "python3 -m pytest"])
    assert spelled_argv(["a b"]) != spelled_argv(["a", "b"])


def test_f0550_a_one_word_command_or_pattern_is_spelled_as_it_is():
    from harness.core.policy import command_changes, spelled_argv

    # the honest case: a shell line, a single program and a pattern read as before
    assert spelled_argv(["pytest -q tests"]) == "pytest -q tests" and spelled_argv(["true"]) == "true"
    assert command_changes({"unit_test": {"argv": ["pytest"]}}, {"unit_test": {"argv": ["true"]}}) == [
        "evidence.unit_test.command 'pytest' → 'true'"]
