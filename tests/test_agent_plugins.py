"""This repository as a plugin for each host: the Claude Code plugin passes the real
validator, the Codex manifest points at its own hooks file, the Gemini extension shares
`hooks/hooks.json` with Claude Code (Gemini keeps only the events it knows)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from harness.agent.hosts import REGISTRY, matcher

ROOT = Path(__file__).resolve().parent.parent
VALIDATOR = ROOT / ".ci" / "node" / "node_modules" / ".bin" / "claude"
SCHEMAS = Path(__file__).parent / "agent_hosts"
CLAUDE_EVENTS = {"SessionStart", "PreToolUse", "Stop"}


def load(rel: str) -> dict:
    return json.loads((ROOT / rel).read_text())


def commands(doc: dict) -> dict[str, list[str]]:
    return {event: [h["command"] for g in groups for h in g["hooks"]] for event, groups in doc["hooks"].items()}


@pytest.mark.slow
@pytest.mark.e2e
def test_the_claude_plugin_passes_claude_plugin_validate_strict() -> None:
    if not VALIDATOR.exists():
        if shutil.which("npm") is None:
            pytest.skip("npm is not available to install @anthropic-ai/claude-code")
        subprocess.run(["npm", "install", "--silent", "--no-audit", "--no-fund", "--prefix", str(ROOT / ".ci" / "node"),
                        "@anthropic-ai/claude-code"], check=True, timeout=900, capture_output=True)
    # With a marketplace.json beside it, `validate .` checks the marketplace; the manifest's
    # own path checks the plugin, its hooks file included.
    for target, what in ((".", "marketplace manifest"), (".claude-plugin/plugin.json", "plugin manifest")):
        p = subprocess.run([str(VALIDATOR), "plugin", "validate", target, "--strict"], cwd=ROOT, capture_output=True,
                           text=True, timeout=300)
        assert p.returncode == 0, p.stdout + p.stderr
        assert f"Validating {what}" in p.stdout and "Validation passed" in p.stdout


def test_the_shared_hooks_file_holds_only_events_claude_code_accepts() -> None:
    doc = load("hooks/hooks.json")
    assert set(doc["hooks"]) == CLAUDE_EVENTS
    cmds = commands(doc)
    assert cmds["SessionStart"] == ["harness hook agent auto session-start"]  # Gemini reads this one too
    assert cmds["PreToolUse"] == ["harness hook agent claude pre-tool-use"]
    assert cmds["Stop"] == ["harness hook agent claude stop"]


# The events Gemini CLI knows by name (its hooks reference): from the shared hooks/hooks.json it keeps these and skips
# the rest (Claude Code's PreToolUse, Stop).
GEMINI_EVENT_NAMES = {"BeforeTool", "AfterTool", "BeforeAgent", "AfterAgent", "Notification", "SessionStart",
                      "SessionEnd", "PreCompress", "BeforeModel", "AfterModel", "BeforeToolSelection"}
GEMINI_DEFAULT_TIMEOUT_MS = 60000  # a handler without "timeout" (gemini-cli hooks reference)


def test_f0373_every_entry_gemini_keeps_from_the_shared_file_gives_it_the_installer_s_time() -> None:
    """Gemini reads a timeout in milliseconds (hookRunner.ts kills the hook after `timeout` ms): the shared file's
    entries it keeps must give the hook at least what `harness agent install --host gemini` gives it."""
    from harness.agent.hook_settings import entries

    installed = {event: group["hooks"][0].get("timeout", GEMINI_DEFAULT_TIMEOUT_MS)
                 for event, [group] in entries("gemini").items()}
    kept = {event: groups for event, groups in load("hooks/hooks.json")["hooks"].items() if event in GEMINI_EVENT_NAMES}
    assert kept, "Gemini keeps no entry of the shared file: the session start is gone"
    for event, groups in kept.items():
        for handler in (h for g in groups for h in g["hooks"]):
            ms = handler.get("timeout", GEMINI_DEFAULT_TIMEOUT_MS)
            assert ms >= installed[event], (event, handler)


def test_the_codex_manifest_points_at_its_own_hooks_file() -> None:
    manifest = load(".codex-plugin/plugin.json")
    assert manifest["name"] == load(".claude-plugin/plugin.json")["name"] == load("gemini-extension.json")["name"]
    assert manifest["hooks"] == "./.codex-plugin/hooks.json"
    cmds = commands(load(manifest["hooks"]))
    assert set(cmds) == CLAUDE_EVENTS and all(" codex " in c for cs in cmds.values() for c in cs)
    assert load(manifest["hooks"])["hooks"]["PreToolUse"][0]["matcher"] == matcher(REGISTRY["codex"])


def test_the_gemini_extension_manifest_has_what_gemini_requires() -> None:
    manifest = load("gemini-extension.json")
    assert manifest["name"] == "engineering-harness" and manifest["version"]
    assert "hooks" not in manifest  # Gemini reads hooks only from hooks/hooks.json


@pytest.mark.parametrize("host,payload", [
    ("claude", {"session_id": "s", "transcript_path": "/t", "hook_event_name": "SessionStart", "source": "startup"}),
    ("gemini", {"session_id": "s", "transcript_path": "/t", "hook_event_name": "SessionStart", "source": "startup",
                "timestamp": "2026-12-01T04:00:00Z"}),
])
def test_the_shared_session_start_answers_claude_and_gemini_in_their_shapes(h, task, host, payload) -> None:
    command = commands(load("hooks/hooks.json"))["SessionStart"][0]
    command = command.replace("harness ", f"{sys.executable} -m harness ", 1)
    p = subprocess.run(command, shell=True, input=json.dumps({**payload, "cwd": str(h.root)}), capture_output=True,
                       text=True, cwd=h.root, timeout=120)
    out = json.loads(p.stdout)
    jsonschema.validate(out, json.loads((SCHEMAS / f"{host}.session-start.output.schema.json").read_text()))
    assert task in out["hookSpecificOutput"]["additionalContext"]
