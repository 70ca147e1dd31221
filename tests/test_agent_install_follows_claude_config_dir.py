"""F-0400: Claude Code reads its user settings and skills from $CLAUDE_CONFIG_DIR when that is set (every ~/.claude
path lives under it), so the user-scope install and uninstall use that folder, as they use $CODEX_HOME for Codex."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

ROOT_SKILL = "engineering-harness/SKILL.md"
OURS = "harness hook agent claude pre-tool-use"


@pytest.fixture
def config_dir(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "claude-work"
    folder.mkdir()
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(folder))
    return folder


def test_f0400_user_scope_hooks_and_skills_go_to_claude_config_dir_and_uninstall_takes_them_from_there(h, config_dir):
    (config_dir / "settings.json").write_text('{\n  "model": "opus"\n}\n')
    r = h.ok("agent", "install", "--host", "claude", "--scope", "user")
    assert str(config_dir / "settings.json") in r.out and str(config_dir / "skills") in r.out
    doc = json.loads((config_dir / "settings.json").read_text())
    assert doc["model"] == "opus" and OURS in json.dumps(doc["hooks"])
    assert (config_dir / "skills" / ROOT_SKILL).is_file()
    assert not (Path.home() / ".claude").exists()
    h.ok("agent", "uninstall", "--host", "claude", "--scope", "user")
    assert (config_dir / "settings.json").read_text() == '{\n  "model": "opus"\n}\n'


def test_f0400_harness_skills_install_for_claude_s_user_scope_follows_it_too(h, config_dir):
    h.ok("skills", "install", "--agent", "claude", "--scope", "user")
    assert (config_dir / "skills" / ROOT_SKILL).is_file() and not (Path.home() / ".claude").exists()
    h.ok("skills", "uninstall", "--agent", "claude", "--scope", "user")
    assert not (config_dir / "skills" / ROOT_SKILL).exists()


def test_f0400_project_scope_stays_in_the_project_with_the_variable_set(h, repo, config_dir):
    h.ok("agent", "install", "--host", "claude")
    assert OURS in (repo / ".claude/settings.json").read_text() and (repo / ".claude/skills" / ROOT_SKILL).is_file()
    assert list(config_dir.iterdir()) == []


def test_f0400_without_the_variable_the_user_scope_is_still_the_home_folder_s(h, monkeypatch):
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    h.ok("agent", "install", "--host", "claude", "--scope", "user")
    assert OURS in (Path.home() / ".claude/settings.json").read_text()
    assert (Path.home() / ".claude/skills" / ROOT_SKILL).is_file()


def test_f0400_codex_s_user_skills_stay_in_the_cross_host_folder_with_codex_home_set(h, tmp_path, monkeypatch):
    # CODEX_HOME moves Codex's hooks.json; the skills are read from the shared ~/.agents/skills.
    monkeypatch.setenv("CODEX_HOME", str(tmp_path / "codex-home"))
    h.ok("agent", "install", "--host", "codex", "--scope", "user")
    assert "harness hook agent codex" in (tmp_path / "codex-home/hooks.json").read_text()
    assert (Path.home() / ".agents/skills" / ROOT_SKILL).is_file()
