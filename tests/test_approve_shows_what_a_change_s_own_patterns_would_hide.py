"""What `harness approve config-change` shows the approver is redacted only with the rules the committed config
already has and the built-in ones; the redaction patterns the change adds or drops are listed among its changes
(read 154's F-0545).

The display was redacted with the working config.yaml's patterns: a change could add `-k "not test_critical"` to the
test command and, in the same edit, a pattern matching exactly that text (adding one needs no approval), and the
human read `-k [REDACTED:custom]`, a secret's mark, with nothing saying the change hid it. The signed, committed line
stays redacted as before (its text is read by the commit's secret check); only what the terminal shows changes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from support.cli import validate_staged
from support.gitrepo import git
from support.processes import run_in_pty
from support.records import set_config
from support.ssh_keys import make_key, sign_as_listed

CONFIG = ".harness/config.yaml"
APPROVALS = ".harness/approvals.jsonl"
COMMAND = '["python3", "-m", "pytest", "-q", "tests"]'
DESELECTS = '["python3", "-m", "pytest", "-q", "tests", "-k", "not test_critical"]'
PARENT_PATTERN = "ACMEINT-[0-9]{10}"
SECRET = "ACMEINT-4815162342"


@pytest.fixture
def adopted(h, repo, tmp_path) -> Path:
    """Adopted with the human's key listed, a test command configured and one pattern of the project's own."""
    sign_as_listed(repo, *make_key(tmp_path / "keys", "human"))
    set_config(repo, f"evidence:\n  unit_test:\n    command: {COMMAND}\nredaction:\n  patterns: ['{PARENT_PATTERN}']\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "adopt the harness")
    return repo


def change(repo: Path, command: str, patterns: list[str]) -> None:
    set_config(repo, f"evidence:\n  unit_test:\n    command: {command}\nredaction:\n  patterns: {json.dumps(patterns)}\n")


def shown(repo: Path, answer: str = "no") -> str:
    """What the approver reads before typing (``answer``)."""
    code, screen = run_in_pty(repo, ["approve", "config-change"], answer)
    assert 'type "approve"' in screen, screen
    return screen


def test_f0545_a_pattern_the_change_adds_does_not_hide_the_command_from_the_approver(adopted):
    change(adopted, DESELECTS, [PARENT_PATTERN, r"not test_\w+"])
    screen = shown(adopted)
    assert "not test_critical" in screen and "[REDACTED:custom]" not in screen, screen
    assert "redaction.patterns adds" in screen and r"not test_\\w+" in screen, screen


def test_f0545_a_pattern_the_change_drops_is_listed_too(adopted):
    change(adopted, DESELECTS, [r"not test_\w+"])
    screen = shown(adopted)
    assert "redaction.patterns drops" in screen and PARENT_PATTERN in screen, screen
    assert "redaction.patterns adds" in screen and "not test_critical" in screen, screen


def test_f0545_the_signed_line_stays_redacted(adopted):
    # What is committed is read by the commit's secret check with the working patterns too: it keeps them applied.
    change(adopted, DESELECTS, [PARENT_PATTERN, r"not test_\w+"])
    screen = shown(adopted, "approve")
    assert "approved by" in screen, screen
    record = json.loads((adopted / APPROVALS).read_text().splitlines()[-1])
    assert not any("not test_critical" in c for c in record["changes"]), record
    assert any("[REDACTED:custom]" in c for c in record["changes"]), record


def test_f0545_an_approved_command_change_under_the_parent_s_patterns_commits(adopted):
    change(adopted, '["python3", "-m", "pytest", "-q", "tests", "-x"]', [PARENT_PATTERN, "zqx[0-9]{6}"])
    screen = shown(adopted, "approve")
    assert "approved by" in screen and "redaction.patterns adds" in screen, screen
    r = validate_staged(adopted)
    assert r.returncode == 0, r.stderr


def test_f0545_a_secret_a_pattern_of_the_committed_config_matches_stays_hidden(adopted):
    # The honest case a careless fix would break: the parent's own pattern still hides its secret on the terminal.
    change(adopted, f'["python3", "-m", "pytest", "-q", "tests", "--key", "{SECRET}"]', [PARENT_PATTERN])
    screen = shown(adopted)
    assert "--key" in screen and SECRET not in screen and "[REDACTED" in screen, screen


def test_f0545_a_token_in_a_secret_named_variable_stays_hidden_by_the_built_in_rules(adopted, monkeypatch):
    token = "Qw7rT9yUi3oP5aS8dF2gHj"
    monkeypatch.setenv("DEPLOY_TOKEN", token)
    change(adopted, f'["python3", "-m", "pytest", "-q", "tests", "--token", "{token}"]', [PARENT_PATTERN])
    screen = shown(adopted)
    assert "--token" in screen and token not in screen and "[REDACTED" in screen, screen
