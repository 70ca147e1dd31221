"""`harness hook agent HOST EVENT` fed the payloads each host sends, answers checked against
JSON Schemas of what each host accepts (tests/agent_hosts/, written from the hosts' docs and
source), and exit codes: every decision is JSON on exit 0, since only exit 2 blocks."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from harness.agent import stopstate
from harness.agent.run import run

from support.cli import Harness, walk_to
from support.templates import Template, template

SCHEMAS = Path(__file__).parent / "agent_hosts"
HOSTS = ("claude", "codex", "gemini")


def schema(host: str, event: str, kind: str = "output") -> dict:
    return json.loads((SCHEMAS / f"{host}.{event}.{kind}.schema.json").read_text())


def payload(host: str, event: str, cwd: Path, session: str = "sess-1", **extra: object) -> dict:
    """The fields each host's documentation lists for the event."""
    if host == "gemini":
        base = {"session_id": session, "transcript_path": "/tmp/t.json", "cwd": str(cwd),
                "timestamp": "2026-12-01T04:00:00Z",
                "hook_event_name": {"session-start": "SessionStart", "pre-tool-use": "BeforeTool",
                                    "stop": "AfterAgent"}[event]}
        if event == "session-start":
            base["source"] = "startup"
        elif event == "stop":
            base.update(prompt="add the feature", prompt_response="All done, tests pass.", stop_hook_active=False)
        return {**base, **extra}
    base = {"session_id": session, "transcript_path": "/tmp/t.jsonl", "cwd": str(cwd),
            "permission_mode": "default",
            "hook_event_name": {"session-start": "SessionStart", "pre-tool-use": "PreToolUse", "stop": "Stop"}[event]}
    if host == "codex":
        base.update(model="gpt-5-codex", turn_id="turn-1")
    if event == "session-start":
        base["source"] = "startup"
        base.pop("turn_id", None)
    elif event == "pre-tool-use":
        base["tool_use_id"] = "toolu_01"
    elif event == "stop":
        base.update(stop_hook_active=False, last_assistant_message="All done, tests pass.")
    return {**base, **extra}


def shell_tool(host: str, command: str) -> dict:
    return {"tool_name": {"claude": "Bash", "codex": "Bash", "gemini": "run_shell_command"}[host],
            "tool_input": {"command": command}}


def hook(host: str, event: str, data: dict) -> tuple[dict | None, int, str]:
    """Run the real command as the host would: JSON on stdin, read stdout and the exit code."""
    p = subprocess.run([sys.executable, "-m", "harness", "hook", "agent", host, event], input=json.dumps(data),
                       capture_output=True, text=True, cwd=data["cwd"], timeout=120)
    assert "Traceback" not in p.stdout + p.stderr
    return (json.loads(p.stdout) if p.stdout.strip() else None), p.returncode, p.stderr


def answer(host: str, event: str, data: dict) -> dict | None:
    """In-process, for the many cases where the process boundary proves nothing new."""
    reply = run(host, event, json.dumps(data))
    assert reply.code == 0
    out = json.loads(reply.stdout) if reply.stdout else None
    if out is not None:
        jsonschema.validate(out, schema(host, event))
    return out


def stop_blocked(host: str, out: dict | None) -> bool:
    return out is not None and out.get("decision") == ("deny" if host == "gemini" else "block")


def denied(host: str, out: dict | None) -> bool:
    if out is None:
        return False
    if host == "gemini":
        return out.get("decision") == "deny"
    return out.get("hookSpecificOutput", {}).get("permissionDecision") == "deny"


@pytest.fixture(scope="session")
def stale_template(tmp_path_factory, task_template) -> Template:
    """What ``stale`` copies: the task in IMPLEMENTING, its required evidence run, then the code changed."""

    def build(repo: Path, h: Harness) -> dict:
        walk_to(h, "SPECIFYING", "PLANNED", "IMPLEMENTING")
        for etype in ("build", "unit_test"):
            h.ok("evidence", etype, "--", sys.executable, "-c", "pass")
        (repo / "app.py").write_text("def answer():\n    return 43\n")
        return {}

    return template(tmp_path_factory, "agent-hooks-stale", build, on=task_template)


@pytest.fixture
def task(task_template, h) -> str:
    """conftest's ``task`` (a fresh current task), copied from this module's template."""
    return task_template.data["task"]


@pytest.fixture
def stale(stale_template, task, repo) -> Path:
    """A task in IMPLEMENTING whose required evidence ran, then the code changed."""
    return repo


# -- the fixtures themselves are what the hosts send --------------------------------------

def test_the_codex_payloads_match_codex_input_schemas(tmp_path) -> None:
    jsonschema.validate(payload("codex", "stop", tmp_path), schema("codex", "stop", "input"))
    jsonschema.validate(payload("codex", "pre-tool-use", tmp_path, **shell_tool("codex", "ls")),
                        schema("codex", "pre-tool-use", "input"))


def test_the_codex_stop_schema_rejects_an_unknown_key() -> None:
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"decision": "block", "reason": "x", "hookSpecificOutput": {}}, schema("codex", "stop"))
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"decision": "deny", "reason": "x"}, schema("codex", "stop"))


# -- stop ---------------------------------------------------------------------------------

@pytest.mark.parametrize("host", HOSTS)
def test_stop_is_blocked_when_code_changed_since_required_evidence(host, stale) -> None:
    out, code, _ = hook(host, "stop", payload(host, "stop", stale))
    assert code == 0
    jsonschema.validate(out, schema(host, "stop"))
    assert stop_blocked(host, out)
    assert "harness evidence build" in out["reason"] and "app.py" in out["reason"]


@pytest.mark.parametrize("host", HOSTS)
def test_stop_is_allowed_once_the_evidence_is_fresh_again(host, h, stale) -> None:
    for etype in ("build", "unit_test"):
        h.ok("evidence", etype, "--", sys.executable, "-c", "pass")
    assert answer(host, "stop", payload(host, "stop", stale)) is None


def test_stop_never_reads_the_assistants_message(stale) -> None:
    for message in ("All tests pass!", "I have NOT finished, please block me", ""):
        out = answer("claude", "stop", payload("claude", "stop", stale, session=message or "x",
                                               last_assistant_message=message))
        assert stop_blocked("claude", out)


@pytest.mark.parametrize("states", [(), ("SPECIFYING",), ("SPECIFYING", "PLANNED")])
def test_stop_is_never_blocked_before_implementation(h, task, repo, states) -> None:
    walk_to(h, *states)
    h.ok("evidence", "unit_test", "--", sys.executable, "-c", "pass")
    (repo / "app.py").write_text("changed = True\n")
    for host in HOSTS:
        assert answer(host, "stop", payload(host, "stop", repo)) is None


def test_stop_is_never_blocked_without_a_harness_or_a_task(repo, h) -> None:
    bare = repo.parent / "bare"
    bare.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=bare, check=True)
    for host in HOSTS:
        assert answer(host, "stop", payload(host, "stop", bare)) is None
        assert answer(host, "stop", payload(host, "stop", repo)) is None  # .harness/ but no task


@pytest.mark.parametrize("host", HOSTS)
def test_stop_lets_the_agent_go_after_the_limit_and_records_the_release(host, stale) -> None:
    data = payload(host, "stop", stale, session=f"loop-{host}")
    for _ in range(3):
        assert stop_blocked(host, answer(host, "stop", data))
    released = answer(host, "stop", data)
    assert not stop_blocked(host, released) and "3 consecutive blocks" in released["systemMessage"]
    assert answer(host, "stop", data) is not None  # still released, still says why
    log = [e for e in stopstate.read_log(stale) if e["event"] == "stop.released"]
    assert len(log) == 1 and log[0]["session"] == f"loop-{host}" and log[0]["host"] == host
    # Another session, or this one on a new tree, starts counting afresh.
    assert stop_blocked(host, answer(host, "stop", payload(host, "stop", stale, session="other")))
    (stale / "app.py").write_text("def answer():\n    return 44\n")
    assert stop_blocked(host, answer(host, "stop", data))


def test_the_block_limit_comes_from_config_yaml(stale) -> None:
    config = stale / ".harness" / "config.yaml"
    config.write_text(config.read_text().replace("stop_block_limit: 3", "stop_block_limit: 1"))
    data = payload("codex", "stop", stale, session="limit-1")
    assert stop_blocked("codex", answer("codex", "stop", data))
    assert not stop_blocked("codex", answer("codex", "stop", data))


def test_a_broken_harness_blocks_the_stop_once_with_the_error(stale) -> None:
    (stale / ".harness" / "gate.yaml").write_text("gate: [not, a, mapping]\n")
    for host in HOSTS:
        data = payload(host, "stop", stale, session=f"err-{host}")
        first = answer(host, "stop", data)
        assert stop_blocked(host, first) and "gate.yaml" in first["reason"]
        second = answer(host, "stop", data)
        assert not stop_blocked(host, second) and "not blocking twice" in second["systemMessage"]


# -- session start ------------------------------------------------------------------------

@pytest.mark.parametrize("host", HOSTS)
def test_session_start_names_the_task_what_is_stale_and_the_next_step(host, h, task, stale) -> None:
    out, code, _ = hook(host, "session-start", payload(host, "session-start", stale))
    assert code == 0
    jsonschema.validate(out, schema(host, "session-start"))
    text = out["hookSpecificOutput"]["additionalContext"]
    assert task in text and "IMPLEMENTING" in text
    assert "Stale evidence" in text and "unit_test" in text and "app.py" in text
    first = json.loads(h.ok("status", "--json").out)["next"][0]
    assert f"Next: {first['command']} — {first['why']}" in text  # the same next step `harness status` gives


def test_session_start_says_nothing_without_a_harness(repo) -> None:
    for host in HOSTS:
        assert answer(host, "session-start", payload(host, "session-start", repo)) is None


def test_session_start_turns_an_error_into_a_visible_message(stale) -> None:
    (stale / ".harness" / "gate.yaml").write_text("gate: [not, a, mapping]\n")
    for host in HOSTS:
        out = answer(host, "session-start", payload(host, "session-start", stale))
        assert "could not read the task state" in out["hookSpecificOutput"]["additionalContext"]
        assert "gate.yaml" in out["systemMessage"]


# -- pre-tool-use -------------------------------------------------------------------------

@pytest.mark.parametrize("host", HOSTS)
def test_a_bypass_is_denied_in_the_hosts_shape(host, h) -> None:
    out, code, _ = hook(host, "pre-tool-use", payload(host, "pre-tool-use", h.root,
                                                      **shell_tool(host, "git commit --no-verify -m done")))
    assert code == 0
    jsonschema.validate(out, schema(host, "pre-tool-use"))
    assert denied(host, out)
    reason = out["reason"] if host == "gemini" else out["hookSpecificOutput"]["permissionDecisionReason"]
    assert "Instead: run `git commit` without it" in reason


@pytest.mark.parametrize("host", HOSTS)
def test_a_look_alike_is_allowed_silently(host, h) -> None:
    data = payload(host, "pre-tool-use", h.root, **shell_tool(host, 'git commit -m "never --no-verify"'))
    assert answer(host, "pre-tool-use", data) is None


@pytest.mark.parametrize("host,tool,tool_input", [
    ("claude", "Write", {"file_path": "{root}/.harness/tasks/T/events.jsonl", "content": "{}"}),
    ("claude", "Edit", {"file_path": "{root}/.harness/approvals.jsonl", "old_string": "a", "new_string": "b"}),
    ("claude", "MultiEdit", {"file_path": "{root}/.harness/tasks/T/evidence/unit_test.json", "edits": []}),
    ("codex", "apply_patch", {"command": "*** Begin Patch\n*** Update File: .harness/tasks/T/evidence/build.json\n"
                                         "@@\n-failed\n+passed\n*** End Patch\n"}),
    ("codex", "apply_patch", {"command": "*** Begin Patch\n*** Delete File: .harness/tasks/T/findings/F-0001.yaml\n"
                                         "*** End Patch\n"}),
    ("gemini", "write_file", {"file_path": "{root}/.harness/allowed_signers", "content": "me ssh-ed25519 AAAA"}),
    ("gemini", "replace", {"file_path": "{root}/.harness/tasks/T/events.jsonl", "old_string": "a",
                           "new_string": "b"}),
])
def test_edit_tools_cannot_write_ledgers_evidence_or_approvals(h, host, tool, tool_input) -> None:
    ti = {k: v.replace("{root}", str(h.root)) if isinstance(v, str) else v for k, v in tool_input.items()}
    assert denied(host, answer(host, "pre-tool-use", payload(host, "pre-tool-use", h.root,
                                                             tool_name=tool, tool_input=ti)))


@pytest.mark.parametrize("host,tool,tool_input", [
    ("claude", "Write", {"file_path": "{root}/app.py", "content": "x = 1\n"}),
    ("codex", "apply_patch", {"command": "*** Begin Patch\n*** Update File: app.py\n@@\n-1\n+2\n*** End Patch\n"}),
    ("gemini", "write_file", {"file_path": "{root}/.harness/tasks/T/requirements.yaml", "content": "x"}),
    ("claude", "Read", {"file_path": "{root}/.harness/tasks/T/events.jsonl"}),
])
def test_edit_tools_writing_ordinary_files_are_allowed(h, host, tool, tool_input) -> None:
    ti = {k: v.replace("{root}", str(h.root)) for k, v in tool_input.items()}
    assert answer(host, "pre-tool-use", payload(host, "pre-tool-use", h.root, tool_name=tool, tool_input=ti)) is None


def test_nothing_is_denied_in_a_repository_without_a_harness(repo) -> None:
    for host in HOSTS:
        assert answer(host, "pre-tool-use", payload(host, "pre-tool-use", repo,
                                                    **shell_tool(host, "git commit -n -m x"))) is None


def test_an_internal_error_denies_a_guarded_command_and_allows_the_rest(h, monkeypatch) -> None:
    import harness.agent.judge.bypass as bypass

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("parser exploded")

    monkeypatch.setattr(bypass, "check_shell", broken)
    for host in HOSTS:
        guarded = answer(host, "pre-tool-use", payload(host, "pre-tool-use", h.root,
                                                       **shell_tool(host, "git commit -m fine")))
        assert denied(host, guarded)
        # `make build`, not `ls -la`: a plain reader is answered before the judge runs (harness.agent.quick_allow)
        other = answer(host, "pre-tool-use", payload(host, "pre-tool-use", h.root, **shell_tool(host, "make build")))
        assert not denied(host, other) and "parser exploded" in other["systemMessage"]


def test_an_unreadable_command_touching_git_is_denied(h) -> None:
    out = answer("claude", "pre-tool-use", payload("claude", "pre-tool-use", h.root,
                                                    **shell_tool("claude", "git commit -m 'unterminated")))
    assert denied("claude", out)


@pytest.mark.parametrize("event", ["session-start", "pre-tool-use", "stop"])
def test_garbage_on_stdin_never_becomes_a_traceback(h, event) -> None:
    p = subprocess.run([sys.executable, "-m", "harness", "hook", "agent", "claude", event], input="{not json",
                       capture_output=True, text=True, cwd=h.root, timeout=120)
    assert p.returncode == 0 and "Traceback" not in p.stdout + p.stderr
    if p.stdout.strip():
        jsonschema.validate(json.loads(p.stdout), schema("claude", event))


@pytest.mark.parametrize("host", HOSTS)
def test_auto_answers_each_host_in_its_own_shape(host, stale) -> None:
    out = answer(host, "stop", payload(host, "stop", stale, session=f"auto-{host}"))
    auto = run("auto", "stop", json.dumps(payload(host, "stop", stale, session=f"auto2-{host}")))
    assert json.loads(auto.stdout)["decision"] == out["decision"]


def test_a_gemini_shell_in_another_directory_is_judged_there(h) -> None:
    data = payload("gemini", "pre-tool-use", h.root, tool_name="run_shell_command",
                   tool_input={"command": "echo '{}' >> events.jsonl", "dir_path": ".harness/tasks/TASK-1"})
    assert denied("gemini", answer("gemini", "pre-tool-use", data))
    data["tool_input"]["dir_path"] = "src"
    assert answer("gemini", "pre-tool-use", data) is None


def test_a_checkout_reached_through_a_symlink_is_still_guarded(h, tmp_path) -> None:
    link = tmp_path / "link"
    link.symlink_to(h.root)
    data = payload("claude", "pre-tool-use", link, tool_name="Write",
                   tool_input={"file_path": str(link / ".harness" / "approvals.jsonl"), "content": "x"})
    assert denied("claude", answer("claude", "pre-tool-use", data))


def test_agent_stats_and_metrics_count_the_recorded_releases(h, stale) -> None:
    data = payload("codex", "stop", stale, session="stats")
    for _ in range(4):
        answer("codex", "stop", data)
    out = json.loads(h.ok("agent", "stats", "--json").out)
    assert out["stop.released"] == {"total": 1, "by_host": {"codex": 1}}
    metrics = json.loads(h.ok("metrics", "--json").out)
    assert metrics["agent_stop_releases"] == {"total": 1, "by_host": {"codex": 1}}
    line = next(x for x in h.ok("metrics").out.splitlines() if "agent stop releases" in x)
    assert line.split()[-1] == "1"


def test_unreadable_input_that_names_a_guarded_command_is_denied(h, monkeypatch) -> None:
    monkeypatch.chdir(h.root)  # no cwd in the input: its crash log goes to the current directory's git dir
    reply = run("codex", "pre-tool-use", '{"tool_name": "Bash", "tool_input": {"command": "git commit -n"')
    assert denied("codex", json.loads(reply.stdout))
