"""`harness agent install|uninstall`: merged into each host's settings without disturbing
anything else, idempotent, removed exactly; and one scripted session per host that runs
the installed commands the way the host would."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from support.cli import walk_to

SCHEMAS = Path(__file__).parent / "agent_hosts"
FILES = {"claude": ".claude/settings.json", "codex": ".codex/hooks.json", "gemini": ".gemini/settings.json"}
EVENTS = {"claude": ("SessionStart", "PreToolUse", "Stop"), "codex": ("SessionStart", "PreToolUse", "Stop"),
          "gemini": ("SessionStart", "BeforeTool", "AfterAgent")}
USERS_OWN = {
    "permissions": {"allow": ["Bash(npm test)"], "deny": ["Read(.env)"]},
    "model": "whatever-the-user-chose",
    "someFutureKey": {"nested": [1, 2, 3]},
    "hooks": {
        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "~/bin/audit-shell"}]}],
        "Notification": [{"hooks": [{"type": "command", "command": "notify-send done"}]}],
    },
}


def settings(root: Path, host: str) -> dict:
    return json.loads((root / FILES[host]).read_text())


@pytest.mark.parametrize("host", sorted(FILES))
def test_install_merges_beside_the_users_settings_and_is_idempotent(h, host) -> None:
    path = h.root / FILES[host]
    path.parent.mkdir()
    path.write_text(json.dumps(USERS_OWN, indent=4))
    h.ok("agent", "install", "--host", host)
    doc = settings(h.root, host)
    assert {k: doc[k] for k in ("permissions", "model", "someFutureKey")} == {
        k: USERS_OWN[k] for k in ("permissions", "model", "someFutureKey")}
    assert doc["hooks"]["Notification"] == USERS_OWN["hooks"]["Notification"]
    assert doc["hooks"]["PreToolUse"][0] == USERS_OWN["hooks"]["PreToolUse"][0]
    for event in EVENTS[host]:
        commands = [hd["command"] for g in doc["hooks"][event] for hd in g["hooks"]]
        assert sum(f"hook agent {host} " in c for c in commands) == 1
    skills = {"claude": ".claude/skills", "codex": ".agents/skills", "gemini": ".gemini/skills"}[host]
    assert (h.root / skills / "engineering-harness" / "SKILL.md").is_file()
    before = path.read_bytes()
    again = h.ok("agent", "install", "--host", host)
    assert "already installed" in again.out and "0 file(s) written" in again.out and path.read_bytes() == before


@pytest.mark.parametrize("host", sorted(FILES))
def test_uninstall_removes_exactly_its_own_entries(h, host) -> None:
    path = h.root / FILES[host]
    path.parent.mkdir()
    path.write_text(json.dumps(USERS_OWN))
    h.ok("agent", "install", "--host", host)
    h.ok("agent", "uninstall", "--host", host)
    assert settings(h.root, host) == USERS_OWN
    assert "no harness hooks" in h.ok("agent", "uninstall", "--host", host).out


def test_gemini_timeouts_are_milliseconds_and_claude_seconds(h) -> None:
    h.ok("agent", "install", "--host", "gemini")
    h.ok("agent", "install", "--host", "claude")
    gem = settings(h.root, "gemini")["hooks"]["AfterAgent"][0]["hooks"][0]
    cla = settings(h.root, "claude")["hooks"]["Stop"][0]["hooks"][0]
    assert gem["timeout"] == 1000 * cla["timeout"]


def test_user_scope_writes_under_the_home_directory(h, tmp_path, monkeypatch) -> None:
    home = tmp_path / "home2"
    monkeypatch.setenv("HOME", str(home))
    h.ok("agent", "install", "--host", "claude", "--scope", "user")
    assert (home / ".claude" / "settings.json").exists() and not (h.root / ".claude").exists()


def test_a_settings_file_that_is_not_json_is_never_overwritten(h) -> None:
    path = h.root / ".claude" / "settings.json"
    path.parent.mkdir()
    path.write_text("{ // a comment the user wrote\n}")
    r = h("agent", "install", "--host", "claude")
    assert r.code == 2 and "not valid JSON" in r.err
    assert path.read_text() == "{ // a comment the user wrote\n}"


# -- a scripted session per host, through the commands the installer wrote -----------------

def run_installed(root: Path, host: str, event: str, data: dict) -> dict | None:
    """Find our command for EVENT in the settings file and run it as the host does (a shell)."""
    name = dict(zip(("session-start", "pre-tool-use", "stop"), EVENTS[host], strict=True))[event]
    groups = settings(root, host)["hooks"][name]
    command = next(hd["command"] for g in groups for hd in g["hooks"] if "hook agent" in hd["command"])
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"  # `harness` on PATH, as after pip install
    p = subprocess.run(command, shell=True, input=json.dumps(data), capture_output=True, text=True, cwd=root,
                       env={**os.environ, "PATH": path}, timeout=120)
    assert p.returncode == 0 and "Traceback" not in p.stderr, p.stderr
    out = json.loads(p.stdout) if p.stdout.strip() else None
    if out is not None:
        jsonschema.validate(out, json.loads((SCHEMAS / f"{host}.{event}.output.schema.json").read_text()))
    return out


def event_payload(host: str, event: str, root: Path, **extra: object) -> dict:
    name = dict(zip(("session-start", "pre-tool-use", "stop"), EVENTS[host], strict=True))[event]
    data = {"session_id": f"e2e-{host}", "transcript_path": "/tmp/t", "cwd": str(root), "hook_event_name": name}
    if host == "gemini":
        data["timestamp"] = "2026-12-01T04:00:00Z"
    else:
        data["permission_mode"] = "default"
    if host == "codex":
        data.update(model="gpt-5-codex", turn_id="turn-7")
    return {**data, **extra}


@pytest.mark.e2e
@pytest.mark.parametrize("host", sorted(FILES))
def test_a_scripted_session_through_the_installed_hooks(h, task, host) -> None:
    root = h.root
    h.ok("agent", "install", "--host", host)
    walk_to(h, "SPECIFYING", "PLANNED", "IMPLEMENTING")

    start = run_installed(root, host, "session-start", event_payload(host, "session-start", root, source="startup"))
    context = start["hookSpecificOutput"]["additionalContext"]
    first = json.loads(h.ok("status", "--json").out)["next"][0]["command"]
    assert task in context and "IMPLEMENTING" in context and f"Next: {first} — " in context

    for etype in ("build", "unit_test"):
        h.ok("evidence", etype, "--", sys.executable, "-c", "pass")
    assert run_installed(root, host, "stop", event_payload(host, "stop", root, stop_hook_active=False)) is None

    (root / "app.py").write_text("def answer():\n    return 41 + 1\n")  # the agent edits code
    blocked = run_installed(root, host, "stop", event_payload(host, "stop", root, stop_hook_active=False))
    assert blocked["decision"] in ("block", "deny") and "harness evidence build" in blocked["reason"]

    for etype in ("build", "unit_test"):
        h.ok("evidence", etype, "--", sys.executable, "-c", "pass")
    assert run_installed(root, host, "stop", event_payload(host, "stop", root, stop_hook_active=True)) is None

    tool = {"claude": "Bash", "codex": "Bash", "gemini": "run_shell_command"}[host]
    bypass = run_installed(root, host, "pre-tool-use", event_payload(
        host, "pre-tool-use", root, tool_name=tool, tool_input={"command": "git commit -a --no-verify -m done"},
        tool_use_id="call-1"))
    reason = bypass.get("reason") or bypass["hookSpecificOutput"]["permissionDecisionReason"]
    assert "--no-verify" in reason and "Instead:" in reason
