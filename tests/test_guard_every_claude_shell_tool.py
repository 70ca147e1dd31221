"""Every Claude Code tool that runs a command line reaches the guard and is judged as `Bash` is: `Monitor` (a
command run in the background, its output streamed back; `MonitorInput {command?, description, timeout_ms,
persistent}`) and the opt-in `PowerShell` tool (F-0372). A PowerShell line is read as a bash line, and what bash
cannot read of it where it touches what the guard protects (its cmdlets, `$env:`) is refused."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from harness.agent import hook_settings
from harness.agent.run import run

ROOT = Path(__file__).resolve().parent.parent
LEDGER = ".harness/tasks/T/events.jsonl"


def _answer(cwd: Path, tool: str, tool_input: dict) -> dict | None:
    """Claude Code's PreToolUse payload for ``tool``, answered in-process; the answer's JSON (None: a silent allow)."""
    data = {"session_id": "s1", "transcript_path": "/tmp/t.jsonl", "cwd": str(cwd), "permission_mode": "default",
            "hook_event_name": "PreToolUse", "tool_name": tool, "tool_input": tool_input, "tool_use_id": "toolu_1"}
    reply = run("claude", "pre-tool-use", json.dumps(data))
    assert reply.code == 0
    return json.loads(reply.stdout) if reply.stdout else None


def _denied(out: dict | None) -> bool:
    return out is not None and out.get("hookSpecificOutput", {}).get("permissionDecision") == "deny"


def _monitor(command: str) -> dict:
    return {"command": command, "description": "watch", "timeout_ms": 300000, "persistent": False}


def _powershell(command: str) -> dict:
    return {"command": command, "description": "run"}


TOOLS = {"Monitor": _monitor, "PowerShell": _powershell}


@pytest.mark.parametrize("tool", sorted(TOOLS))
@pytest.mark.parametrize("command", ["git commit --no-verify -m x", f"echo '{{}}' >> {LEDGER}", "rm -rf .harness",
                                     "git config core.hooksPath /dev/null"])
def test_f0372_a_bypass_through_monitor_or_powershell_is_denied_as_through_bash(h, task, tool, command):
    assert _denied(_answer(h.root, "Bash", {"command": command})), command  # the control
    out = _answer(h.root, tool, TOOLS[tool](command))
    assert _denied(out), (tool, command)
    assert out["hookSpecificOutput"]["permissionDecisionReason"].startswith("harness: ")


@pytest.mark.parametrize("tool", sorted(TOOLS))
@pytest.mark.parametrize("command", ["tail -f build.log", "git commit -m x", "git log --oneline -3", "pytest -q"])
def test_f0372_ordinary_monitor_and_powershell_commands_are_still_allowed(h, task, tool, command):
    assert not _denied(_answer(h.root, tool, TOOLS[tool](command))), (tool, command)


def test_f0372_a_monitor_call_without_a_command_is_allowed(h, task):
    assert _answer(h.root, "Monitor", {"description": "watch", "timeout_ms": 1000, "persistent": True}) is None


@pytest.mark.parametrize("command", [
    "git commit `--no-verify -m x",                                # PowerShell's escape: to bash, an open substitution
    '$env:SKIP = "harness-validate"; git commit -m x',             # skips a harness hook, in PowerShell's words
    "Remove-Item -Recurse -Force .harness",
    f"Set-Content -Path {LEDGER} -Value x",
    f'Write-Output "{{}}" | Out-File -Append {LEDGER}',
    f"[IO.File]::AppendAllText('{LEDGER}', 'x')",
    "ri -r .harness",
])
def test_f0372_powershell_the_bash_judge_cannot_read_is_refused_where_it_touches_the_record(h, task, command):
    out = _answer(h.root, "PowerShell", _powershell(command))
    assert _denied(out), command
    assert out["hookSpecificOutput"]["permissionDecisionReason"].startswith("harness: ")


@pytest.mark.parametrize("command", ["Get-ChildItem -Path src | Select-Object -First 3",
                                     "if (Test-Path build) { Write-Host 'built' }", '$env:PYTHONPATH = "src"; pytest -q'])
def test_f0372_powershell_s_own_commands_away_from_the_record_are_allowed(h, task, command):
    assert not _denied(_answer(h.root, "PowerShell", _powershell(command))), command


def test_f0372_the_installed_matcher_and_the_plugin_s_send_monitor_and_powershell_to_the_guard():
    installed = hook_settings.entries("claude")["PreToolUse"][0]["matcher"]
    plugin = json.loads((ROOT / "hooks" / "hooks.json").read_text())["hooks"]["PreToolUse"][0]["matcher"]
    for matcher in (installed, plugin):
        for tool in ("Bash", "Monitor", "PowerShell"):
            assert re.fullmatch(matcher, tool), (matcher, tool)  # Claude Code matches the regex against tool_name


@pytest.mark.parametrize("command", [
    'cmd /c "git commit --no-verify -m x"',                # another interpreter's line
    "$x='commit','--no-verify','-m','x'; git @x",          # splatting
    ". git commit --no-verify -m x",                       # dot-invocation
    "& git commit --no-verify -m x",                       # call operator
    "git commit ('--no-'+'verify') -m x",                  # an expression argument
    "git commit $('--no-verify') -m x",                    # a subexpression
    "git commit ('--no-{0}' -f 'verify') -m x",            # the format operator
    "gci .harness | rm -r -fo",                            # pipeline input to a deleting alias
    "rm -r -fo ('.har'+'ness')",                           # names nothing the guard protects
    'pwsh -Command "git commit --no-verify -m x"',
    'powershell -c "rm -r -fo .harness"',
    "iex 'git commit --no-verify -m x'",
])
def test_f0382_a_powershell_line_the_guard_cannot_read_that_writes_or_runs_is_refused(h, task, command):
    out = _answer(h.root, "PowerShell", _powershell(command))
    assert _denied(out), command
    assert out["hookSpecificOutput"]["permissionDecisionReason"].startswith("harness: ")


@pytest.mark.parametrize("command", [
    'pwsh -Command "git commit --no-verify -m x"',
    "pwsh -c 'Remove-Item -Recurse .harness'",
    "powershell -NoProfile -Command \"git commit ('--no-'+'verify') -m x\"",
    "pwsh -EncodedCommand ZwBpAHQAIABjAG8AbQBtAGkAdAA=",
    "pwsh -enc ZwBpAHQA",
])
def test_f0382_pwsh_through_the_bash_tool_is_judged_as_a_powershell_line(h, task, command):
    out = _answer(h.root, "Bash", {"command": command})
    assert _denied(out), command
    assert out["hookSpecificOutput"]["permissionDecisionReason"].startswith("harness: ")


@pytest.mark.parametrize("tool,command", [
    ("Bash", 'pwsh -Command "Get-ChildItem src"'),
    ("Bash", "pwsh -NoProfile -File build.ps1"),
    ("PowerShell", "$files = Get-ChildItem src; $files.Count"),    # dynamic, but writes and runs nothing
    ("PowerShell", "bash -c 'ls -la'"),                            # bash's line, which the bash judge reads
    ("PowerShell", "(Get-Content notes.txt).Length"),
    ("PowerShell", "git commit -m x"),
])
def test_f0382_powershell_lines_that_write_or_run_nothing_unread_are_still_allowed(h, task, tool, command):
    body = _powershell(command) if tool == "PowerShell" else {"command": command}
    assert not _denied(_answer(h.root, tool, body)), command


@pytest.mark.parametrize("command", ["git log --oneline | Select-Object -First 5", "git status; Get-Date",
                                     "Get-Content .harness/config.yaml", "git diff --stat | Out-String",
                                     "Get-ChildItem .harness | Where-Object Name -like '*.yaml' | Format-Table"])
def test_f0384_honest_read_only_powershell_lines_on_git_or_the_harness_are_allowed(h, task, command):
    assert not _denied(_answer(h.root, "PowerShell", _powershell(command))), command


@pytest.mark.parametrize("command", [f"Set-Content -Path {LEDGER} -Value x", f"Add-Content {LEDGER} x",
                                     f"Write-Output x > {LEDGER}", f"Get-Content a.txt | Out-File {LEDGER}"])
def test_f0384_a_powershell_line_writing_the_ledger_is_still_refused(h, task, command):
    assert _denied(_answer(h.root, "PowerShell", _powershell(command))), command
