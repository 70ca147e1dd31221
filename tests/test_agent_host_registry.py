"""One object per agent host (`harness.agent.hosts.REGISTRY`): the guard's tool names, the installed matchers,
the plugin manifests, the settings files and the CLI's choices all come from it, and agree (#27 item 2)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness.agent import hook_settings as install
from harness.agent import hosts
from harness.agent.hosts import REGISTRY, matcher
from harness.cli import agent_hook
from harness.cli.agent import host_option

ROOT = Path(__file__).resolve().parent.parent
MANIFESTS = {"hooks/hooks.json": "claude", ".codex-plugin/hooks.json": "codex"}


@pytest.mark.parametrize("path,host", sorted(MANIFESTS.items()))
def test_a_plugin_manifest_sends_the_guard_every_tool_it_judges(path, host):
    doc = json.loads((ROOT / path).read_text())
    [group] = doc["hooks"][REGISTRY[host].events["pre-tool-use"]]
    assert group["matcher"] == matcher(REGISTRY[host])


@pytest.mark.parametrize("path,host", sorted(MANIFESTS.items()))
def test_a_plugin_manifest_is_what_the_installer_writes_for_its_host(path, host):
    hooks = json.loads((ROOT / path).read_text())["hooks"]
    assert hooks == install.plugin_entries(host)  # the plugin's session start serves every host (`auto`)


@pytest.mark.parametrize("host", hosts.HOSTS)
def test_the_installed_hooks_are_the_registry_s(host):
    entries = install.entries(host)
    assert set(entries) == set(REGISTRY[host].events.values())
    [group] = entries[REGISTRY[host].events["pre-tool-use"]]
    assert group["matcher"] == matcher(REGISTRY[host])
    project, _ = REGISTRY[host].settings
    assert install.settings_path(host, "project", Path("/r")) == Path("/r") / project


@pytest.mark.parametrize("host", hosts.HOSTS)
def test_every_tool_a_host_s_matcher_sends_is_judged_and_every_judged_tool_is_sent(host):
    sent = set(matcher(REGISTRY[host]).split("|"))
    judged = set()
    for name in hosts.ANY_SHELL_TOOL | hosts.ANY_EDIT_TOOL | {"Read", "Glob", "WebFetch"}:
        patch = "*** Begin Patch\n*** Update File: x\n*** End Patch\n"  # a command line to a shell tool
        p = hosts.Payload("s", "/", name, {"command": patch, "file_path": "x", "path": "x"})
        if hosts.tool_action(p) != hosts.ToolAction():
            judged.add(name)
    assert sent <= judged
    assert set(REGISTRY[host].shell_tools) | set(REGISTRY[host].edit_tools) == sent


def test_the_cli_offers_the_registry_s_hosts():
    choices = None
    for param in host_option(lambda **kw: None).__click_params__:  # type: ignore[attr-defined]
        choices = param.type.choices
    assert tuple(choices) == hosts.HOSTS
    assert (*hosts.HOSTS, "auto") == agent_hook.HOSTS
    from harness.cli.hooks import agent_hook as hook_command

    host, event = hook_command.params[:2]
    assert (tuple(host.type.choices), tuple(event.type.choices)) == (agent_hook.HOSTS, agent_hook.EVENTS)
    assert all(set(h.events) == set(agent_hook.EVENTS) for h in REGISTRY.values())


def test_a_new_host_is_one_registry_entry(monkeypatch):
    from harness.agent.hosts.host import decision, permission_decision

    extra = hosts.Host("newhost", {"session-start": "Start", "pre-tool-use": "BeforeTool", "stop": "End"},
                       ("sh",), ("write",), (".newhost/hooks.json", ".newhost/hooks.json"), decision("deny"),
                       decision("deny"), False, ".newhost/skills", "")
    monkeypatch.setitem(REGISTRY, "newhost", extra)
    entries = install.entries("newhost")
    assert entries["BeforeTool"][0]["matcher"] == "sh|write" and set(entries) == {"Start", "BeforeTool", "End"}
    assert json.loads(hosts.deny("newhost", "no").stdout) == {"decision": "deny", "reason": "no"}
    # an answer names the event in the host's own words
    assert json.loads(hosts.context("newhost", "hi").stdout)["hookSpecificOutput"]["hookEventName"] == "Start"
    monkeypatch.setitem(REGISTRY, "newhost", extra._replace(deny=permission_decision))
    said = json.loads(hosts.deny("newhost", "no").stdout)["hookSpecificOutput"]
    assert (said["hookEventName"], said["permissionDecision"]) == ("BeforeTool", "deny")


def test_a_host_that_answers_in_a_shape_of_its_own_brings_it_in_its_module(monkeypatch):
    # #27 item 2: "a new host is one module and one registry line", even when none of the three shapes is its own
    extra = hosts.Host("other", {"session-start": "Begin", "pre-tool-use": "ToolCall", "stop": "Finish"}, ("sh",), (),
                       (".other/hooks.json", ".other/hooks.json"),
                       lambda event, reason: {"verdict": "reject", "on": event, "why": reason},
                       lambda event, reason: {"continue": True, "on": event, "why": reason}, False, ".other/skills", "",
                       context=lambda event, text, message: {"preamble": text, "on": event})
    monkeypatch.setitem(REGISTRY, "other", extra)
    assert json.loads(hosts.deny("other", "no").stdout) == {"verdict": "reject", "on": "ToolCall", "why": "no"}
    assert json.loads(hosts.block_stop("other", "wait").stdout) == {"continue": True, "on": "Finish", "why": "wait"}
    assert json.loads(hosts.context("other", "read me").stdout) == {"preamble": "read me", "on": "Begin"}


@pytest.mark.parametrize("host", hosts.HOSTS)
def test_each_host_s_answers_keep_the_shapes_the_hosts_read(host):
    deny, stop = json.loads(hosts.deny(host, "r").stdout), json.loads(hosts.block_stop(host, "s").stdout)
    if host == "gemini":
        assert deny == {"decision": "deny", "reason": "r"} and stop == {"decision": "deny", "reason": "s"}
    else:
        assert deny == {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
                                               "permissionDecisionReason": "r"}}
        assert stop == {"decision": "block", "reason": "s"}
    assert json.loads(hosts.context(host, "t", "m").stdout) == {
        "hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "t"}, "systemMessage": "m"}
    assert hosts.context(host, "").stdout == ""


def test_the_skills_go_where_each_host_discovers_them():
    from harness.agent import skills_install

    assert (*hosts.HOSTS, "agents") == skills_install.AGENTS
    assert all(skills_install.SKILL_DIRS[name] == h.skills_dir for name, h in REGISTRY.items())


def test_each_host_is_one_module_and_the_registry_holds_exactly_them():
    import importlib
    import pkgutil

    from harness.agent.hosts import host as protocol

    folder = Path(hosts.__file__).parent
    modules = {m.name for m in pkgutil.iter_modules([str(folder)])} - {"host"}
    registered = {}
    for name in modules:
        module = importlib.import_module(f"harness.agent.hosts.{name}")
        assert isinstance(module.HOST, protocol.Host), name
        registered[module.HOST.name] = module.HOST
    assert registered == REGISTRY


@pytest.mark.parametrize("payload,expected", [
    ({"hook_event_name": "BeforeTool", "tool_name": "run_shell_command"}, "gemini"),
    ({"hook_event_name": "SessionStart", "timestamp": "2026-12-04T00:00:00Z"}, "gemini"),
    ({"hook_event_name": "PreToolUse", "turn_id": "t1", "tool_name": "Bash"}, "codex"),
    ({"hook_event_name": "PreToolUse", "tool_name": "apply_patch"}, "codex"),
    ({"hook_event_name": "BeforeTool", "turn_id": "t1", "timestamp": "x"}, "gemini"),  # its own event names first
    ({"hook_event_name": "PreToolUse", "tool_name": "Bash"}, "claude"),
    ({}, "claude"),
])
def test_the_shared_hooks_file_finds_the_host_by_the_marks_its_module_names(payload, expected):
    assert hosts.detect_host(payload) == expected


@pytest.mark.parametrize("key", ["dir_path", "directory"])
def test_a_shell_tool_s_folder_is_read_under_any_host_s_name_for_it(key):
    p = hosts.Payload("s", "/", "Bash", {"command": "ls", key: "/elsewhere"})
    assert hosts.tool_action(p).workdir == "/elsewhere"


def test_f0375_codex_names_no_folder_key_and_says_its_shell_s_folder_is_not_in_the_payload():
    """Codex's PreToolUse input is `{"command": …}` and the turn's cwd: the call's `workdir` is never sent."""
    assert REGISTRY["codex"].workdir_keys == ()
    assert getattr(REGISTRY["codex"], "hides_shell_folder", False) is True
    assert not any(getattr(REGISTRY[h], "hides_shell_folder", False) for h in ("claude", "gemini"))


def test_a_hosts_user_settings_follow_the_variable_it_names(monkeypatch, tmp_path):
    from harness.agent.hook_settings import settings_path

    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("CODEX_HOME", raising=False)
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    assert settings_path("codex", "user", None) == tmp_path / "home/.codex/hooks.json"
    monkeypatch.setenv("CODEX_HOME", str(tmp_path / "codex"))
    assert settings_path("codex", "user", None) == tmp_path / "codex/hooks.json"
    assert settings_path("claude", "user", None) == tmp_path / "home/.claude/settings.json"  # not Claude's variable
    assert settings_path("codex", "project", tmp_path / "repo") == tmp_path / "repo/.codex/hooks.json"
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "claude-work"))  # F-0400: Claude Code's own variable
    assert settings_path("claude", "user", None) == tmp_path / "claude-work/settings.json"
    assert settings_path("claude", "project", tmp_path / "repo") == tmp_path / "repo/.claude/settings.json"
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", "")  # set but empty: unset, as for CODEX_HOME
    assert settings_path("claude", "user", None) == tmp_path / "home/.claude/settings.json"
