"""Every hook fails closed: an unexpected error is a deny (pre-tool-use), one block (stop) or a
one-line refusal (git hooks, pre-receive) — never a traceback on an exit code its caller reads
as "go ahead" — and leaves a crash log (version, git, Python, argv, traceback) it names.

The hostile inputs go through the real command (`python -m harness hook agent …`): what a host
sees is the process's stdout and exit code. Injected errors are monkeypatched into in-process
calls of the entry points (no switch in the product can make it crash)."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

import harness
from harness import crashlog
from harness.cli import launch
from harness.cli.main import main

from support.gitrepo import git

SCHEMAS = Path(__file__).parent / "agent_hosts"
HOSTS = ("claude", "codex", "gemini")
DEEP = "[" * 100_000 + "]" * 100_000  # past any recursion limit: json raises RecursionError
SHELL = {"claude": "Bash", "codex": "Bash", "gemini": "run_shell_command"}


def schema(host: str, event: str) -> dict:
    return json.loads((SCHEMAS / f"{host}.{event}.output.schema.json").read_text())


def agent_proc(cwd: Path, host: str, event: str, stdin: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "harness", "hook", "agent", host, event], input=stdin,
                          capture_output=True, text=True, cwd=cwd, timeout=120)


def agent_in_process(monkeypatch, host: str, event: str, stdin: str) -> int:
    """`harness hook agent HOST EVENT` through main(), as the entry point runs it; its exit code."""
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin.encode())))
    try:
        return main(["hook", "agent", host, event])
    except SystemExit as exc:  # the crash guard ends the process, as pre-commit's handler does
        return int(exc.code or 0)


def shell_call(host: str, cwd: Path, command: str, **extra: object) -> str:
    return json.dumps({"session_id": "s-1", "cwd": str(cwd), "hook_event_name": "PreToolUse",
                       "tool_name": SHELL[host], "tool_input": {"command": command}, **extra})


def answer(host: str, event: str, stdout: str) -> dict | None:
    """The JSON answer, checked against what the host accepts."""
    if not stdout.strip():
        return None
    out = json.loads(stdout)
    jsonschema.validate(out, schema(host, event))
    return out


def denied(host: str, out: dict | None) -> bool:
    if out is None:
        return False
    if host == "gemini":
        return out.get("decision") == "deny"
    return out.get("hookSpecificOutput", {}).get("permissionDecision") == "deny"


def stop_blocked(host: str, out: dict | None) -> bool:
    return out is not None and out.get("decision") == ("deny" if host == "gemini" else "block")


def named_log(text: str) -> Path:
    found = re.search(r"crash log: (\S+?\.log)", text)
    assert found, f"no crash log named in: {text}"
    return Path(found.group(1))


def crash_logs(root: Path) -> list[Path]:
    return sorted((root / ".git" / "harness").glob("crash-*.log"))


def assert_crash_log(path: Path, *expected: str) -> str:
    text = path.read_text("utf-8")
    for needle in (f"harness version: {harness.__version__}", "git --version: git version", "sys.version: 3.",
                   "argv: [", "Traceback (most recent call last)", *expected):
        assert needle in text, f"{needle!r} missing from {path}:\n{text}"
    return text


def one_line_refusal(err: str, error: str) -> Path:
    """A git hook's answer to a crash: one line naming the error and its crash log, no traceback."""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(f"harness: internal error ({error}), crash log: "), err
    return named_log(lines[0])


def injected(error: BaseException):
    def raising(*args: object, **kwargs: object) -> None:
        raise error

    return raising


# -- pre-tool-use -----------------------------------------------------------------------------

@pytest.mark.parametrize("host", HOSTS)
def test_a_deeply_nested_payload_is_denied_in_the_hosts_shape(h, host) -> None:
    p = agent_proc(h.root, host, "pre-tool-use", DEEP)
    assert p.returncode == 0 and "Traceback" not in p.stdout + p.stderr
    out = answer(host, "pre-tool-use", p.stdout)
    assert denied(host, out)
    log = named_log(p.stdout)
    assert log.parent == h.root / ".git" / "harness"
    assert_crash_log(log, "RecursionError", "'hook', 'agent'", "stdin:")


def test_a_payload_no_host_can_be_told_from_is_refused_with_exit_2(h) -> None:
    # `auto` cannot tell the host from an unreadable payload: exit 2 is the deny all three take.
    p = agent_proc(h.root, "auto", "pre-tool-use", DEEP)
    assert p.returncode == 2 and p.stdout == "" and "Traceback" not in p.stderr
    assert "could not read the hook input (RecursionError" in p.stderr
    assert named_log(p.stderr).is_file()


@pytest.mark.parametrize("raw", ["[1, 2]", '"git status"', "42", "null", "{not json"])
def test_a_payload_that_is_not_a_json_object_is_denied(h, monkeypatch, capfd, raw) -> None:
    monkeypatch.chdir(h.root)
    for host in HOSTS:
        capfd.readouterr()
        assert agent_in_process(monkeypatch, host, "pre-tool-use", raw) == 0
        out, err = capfd.readouterr()
        assert denied(host, answer(host, "pre-tool-use", out)) and "Traceback" not in out + err
        assert named_log(out).is_file()


@pytest.mark.parametrize("tool_input", [["git commit --no-verify -m x"], {"command": {"argv": "git commit -n"}},
                                        {"command": ["git", "commit", 1]}, "git commit --no-verify"])
def test_a_guarded_command_sent_with_the_wrong_types_is_denied(h, tool_input) -> None:
    data = {"session_id": "s-1", "cwd": str(h.root), "tool_name": "Bash", "tool_input": tool_input}
    p = agent_proc(h.root, "codex", "pre-tool-use", json.dumps(data))
    assert p.returncode == 0 and denied("codex", answer("codex", "pre-tool-use", p.stdout))


def test_wrong_types_that_name_nothing_guarded_are_allowed_with_the_error_shown(h) -> None:
    # Not a deny-everything guard: what the call could run touches nothing the guard covers.
    data = {"session_id": "s-1", "cwd": str(h.root), "tool_name": "Bash", "tool_input": ["ls -la"]}
    p = agent_proc(h.root, "claude", "pre-tool-use", json.dumps(data))
    out = answer("claude", "pre-tool-use", p.stdout)
    assert p.returncode == 0 and not denied("claude", out)
    assert "not an object" in out["systemMessage"]


@pytest.mark.parametrize("host", HOSTS)
def test_legitimate_calls_still_pass_and_leave_no_crash_log(h, host) -> None:
    for command in ("ls -la", "git status", "git commit -m 'fine'"):
        p = agent_proc(h.root, host, "pre-tool-use", shell_call(host, h.root, command))
        assert p.returncode == 0 and p.stdout == "", (command, p.stdout, p.stderr)
    p = agent_proc(h.root, host, "pre-tool-use", shell_call(host, h.root, "git commit --no-verify -m x"))
    assert denied(host, answer(host, "pre-tool-use", p.stdout))  # the guard itself still judges
    stop = json.dumps({"session_id": "s-ok", "cwd": str(h.root), "stop_hook_active": False})
    p = agent_proc(h.root, host, "stop", stop)
    assert p.returncode == 0 and p.stdout == ""
    assert crash_logs(h.root) == []


@pytest.mark.parametrize("host", HOSTS)
def test_an_error_escaping_the_pre_tool_use_hook_denies_even_a_harmless_call(h, monkeypatch, capfd, host) -> None:
    import harness.agent.run as agent_run

    monkeypatch.chdir(h.root)
    monkeypatch.setattr(agent_run, "run", injected(RecursionError("maximum recursion depth exceeded")))
    assert agent_in_process(monkeypatch, host, "pre-tool-use", shell_call(host, h.root, "ls -la")) == 0
    out, err = capfd.readouterr()
    assert denied(host, answer(host, "pre-tool-use", out)) and "Traceback" not in out + err
    assert_crash_log(named_log(out), "RecursionError: maximum recursion depth exceeded", "ls -la")


def test_an_internal_error_in_the_guard_is_logged_and_named_in_the_deny(h, monkeypatch, capfd) -> None:
    import harness.agent.judge.bypass as bypass

    monkeypatch.chdir(h.root)
    monkeypatch.setattr(bypass, "check_shell", injected(KeyError("parser exploded")))
    assert agent_in_process(monkeypatch, "claude", "pre-tool-use", shell_call("claude", h.root, "git commit -m x")) == 0
    out = answer("claude", "pre-tool-use", capfd.readouterr().out)
    assert denied("claude", out)
    assert_crash_log(named_log(out["hookSpecificOutput"]["permissionDecisionReason"]), "KeyError: 'parser exploded'")


def test_when_even_the_failsafe_fails_a_pre_tool_use_exits_2_and_a_stop_is_let_go(h, monkeypatch, capfd) -> None:
    import harness.agent.run as agent_run

    monkeypatch.chdir(h.root)
    monkeypatch.setattr(agent_run, "run", injected(RuntimeError("first")))
    monkeypatch.setattr(agent_run, "failsafe", injected(RuntimeError("second")))
    assert agent_in_process(monkeypatch, "claude", "pre-tool-use", shell_call("claude", h.root, "ls")) == 2
    out, err = capfd.readouterr()
    assert out == "" and err.startswith("harness: internal error (RuntimeError: first)") and "Traceback" not in err
    # A stop block nothing could remember might loop: exit 0, the reason shown.
    assert agent_in_process(monkeypatch, "claude", "stop", json.dumps({"session_id": "s", "cwd": str(h.root)})) == 0
    out = capfd.readouterr().out
    assert not stop_blocked("claude", answer("claude", "stop", out)) and "not blocking" in out


# -- stop and session start -------------------------------------------------------------------

@pytest.mark.parametrize("host", HOSTS)
def test_a_nul_in_cwd_blocks_the_stop_once_then_lets_the_agent_go(h, host) -> None:
    data = json.dumps({"session_id": f"nul-{host}", "cwd": f"{h.root}\0elsewhere", "stop_hook_active": False})
    first = agent_proc(h.root, host, "stop", data)
    assert first.returncode == 0 and "Traceback" not in first.stdout + first.stderr
    out = answer(host, "stop", first.stdout)
    assert stop_blocked(host, out) and "embedded null byte" in out["reason"]
    assert_crash_log(named_log(out["reason"]), "ValueError: embedded null byte")
    second = agent_proc(h.root, host, "stop", data)
    out = answer(host, "stop", second.stdout)
    assert second.returncode == 0 and not stop_blocked(host, out) and "not blocking twice" in out["systemMessage"]


def test_an_error_escaping_the_stop_hook_blocks_once_per_session(h, monkeypatch, capfd) -> None:
    import harness.agent.run as agent_run

    monkeypatch.chdir(h.root)
    monkeypatch.setattr(agent_run, "run", injected(MemoryError()))
    for session, blocks in (("a", True), ("a", False), ("b", True)):
        data = json.dumps({"session_id": session, "cwd": str(h.root), "stop_hook_active": False})
        assert agent_in_process(monkeypatch, "gemini", "stop", data) == 0
        out = answer("gemini", "stop", capfd.readouterr().out)
        assert stop_blocked("gemini", out) is blocks, (session, out)
    assert_crash_log(crash_logs(h.root)[-1], "MemoryError")


def test_an_error_escaping_session_start_becomes_a_message(h, monkeypatch, capfd) -> None:
    import harness.agent.run as agent_run

    monkeypatch.chdir(h.root)
    monkeypatch.setattr(agent_run, "run", injected(RuntimeError("boom")))
    assert agent_in_process(monkeypatch, "codex", "session-start", json.dumps({"cwd": str(h.root)})) == 0
    out = answer("codex", "session-start", capfd.readouterr().out)
    assert out is not None and "RuntimeError: boom" in out["systemMessage"]
    assert named_log(out["systemMessage"]).is_file()


# -- git hooks and pre-receive ----------------------------------------------------------------

@pytest.mark.parametrize("argv", [["hook", "validate"], ["hook", "run", "pre-commit"]])
def test_a_crashing_commit_hook_refuses_in_one_line_naming_its_crash_log(h, monkeypatch, capfd, argv) -> None:
    import harness.history.change_rules as validate

    monkeypatch.chdir(h.root)
    assert main(["hook", "validate"]) == 0  # the hook passes first: what follows is the crash alone
    capfd.readouterr()
    monkeypatch.setattr(validate, "validate_change", injected(RecursionError("maximum recursion depth exceeded")))
    import harness.gitio.fast_path as fast_path

    # The full check itself (nothing is staged: the one code-only predicate would answer before the rules).
    monkeypatch.setattr(fast_path, "staged_nothing_to_judge", lambda **_: False)
    with pytest.raises(SystemExit) as exited:
        main(argv)
    assert exited.value.code == 2
    log = one_line_refusal(capfd.readouterr().err, "RecursionError: maximum recursion depth exceeded")
    assert log.parent == h.root / ".git" / "harness"
    assert_crash_log(log, f"argv: [{sys.argv[0]!r}", "validate_change")


def test_a_crash_in_the_hooks_fast_path_refuses_in_one_line(h, monkeypatch, capfd) -> None:
    import harness.gitio.fast_path as fast_path

    monkeypatch.chdir(h.root)
    monkeypatch.setattr(fast_path, "staged_nothing_to_judge", injected(UnicodeDecodeError("utf-8", b"\xff", 0, 1, "bad")))
    monkeypatch.setattr(sys, "argv", ["harness", "hook", "run", "pre-commit"])
    with pytest.raises(SystemExit) as exited:
        launch.entry()
    assert exited.value.code == 2
    assert_crash_log(one_line_refusal(capfd.readouterr().err, "UnicodeDecodeError: 'utf-8' codec can't decode "
                                                              "byte 0xff in position 0: bad"),
                     "'hook', 'run', 'pre-commit'")


def test_a_crashing_pre_receive_refuses_the_push_in_one_line(tmp_path, monkeypatch, capfd) -> None:
    import harness.history.pre_receive as pre_receive

    bare = tmp_path / "server.git"
    git(tmp_path, "init", "-q", "--bare", str(bare))
    monkeypatch.chdir(bare)
    monkeypatch.setenv("GIT_DIR", ".")  # as git runs a bare repository's receive hooks
    monkeypatch.setattr(pre_receive, "check_push", injected(AttributeError("'NoneType' object has no attribute 'id'")))
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(f"{'0' * 40} {'1' * 40} refs/heads/main\n".encode())))
    with pytest.raises(SystemExit) as exited:
        main(["hook", "run", "pre-receive"])
    assert exited.value.code == 2
    log = one_line_refusal(capfd.readouterr().err, "AttributeError: 'NoneType' object has no attribute 'id'")
    assert log.resolve().parent == (bare / "harness").resolve()
    assert_crash_log(log, "check_push")


def test_a_crashing_stamp_never_fails_the_commit_but_names_its_crash_log(h, monkeypatch, capfd) -> None:
    import harness.history.stamp as stamp

    monkeypatch.chdir(h.root)
    monkeypatch.setattr(stamp, "quick_stamp_head", injected(RuntimeError("notes ref vanished")))
    launch.stamp_head()  # returns: the stamp never fails a commit
    err = capfd.readouterr().err
    assert err.startswith("harness: stamp skipped after an internal error (RuntimeError: notes ref vanished), "
                          "crash log: ")
    assert_crash_log(named_log(err), "quick_stamp_head")


def test_errors_a_hook_reports_itself_are_no_crash(h, monkeypatch, capfd) -> None:
    monkeypatch.chdir(h.root)
    assert main(["hook", "run", "no-such-stage"]) == 2
    assert "unknown hook stage" in capfd.readouterr().err
    assert crash_logs(h.root) == []


def test_only_hooks_answer_a_crash_in_one_line_other_commands_keep_the_traceback(h, monkeypatch, capfd) -> None:
    import harness.cli.main as cli_main

    monkeypatch.chdir(h.root)
    monkeypatch.setattr(cli_main, "_check_utf8", injected(RuntimeError("a bug")))
    with pytest.raises(RuntimeError, match="a bug"):  # a bug under `harness status` is seen as it is
        main(["status"])
    with pytest.raises(SystemExit) as exited:
        main(["hook", "validate"])
    assert exited.value.code == 2
    one_line_refusal(capfd.readouterr().err, "RuntimeError: a bug")


# -- the crash log itself ---------------------------------------------------------------------

def test_the_crash_log_redacts_secrets_in_argv_the_environment_and_the_error(h, monkeypatch) -> None:
    monkeypatch.chdir(h.root)
    monkeypatch.setenv("DEPLOY_TOKEN", "env-secret-0123456789")
    monkeypatch.setattr(sys, "argv", ["harness", "hook", "validate", "--password", "hunter2hunter2"])
    try:
        raise RuntimeError("could not push with env-secret-0123456789 and ghp_" + "a" * 36)
    except RuntimeError as exc:
        log = crashlog.write(exc, stdin='{"token": "env-secret-0123456789"}')
    assert log is not None
    text = assert_crash_log(log, "RuntimeError: could not push")
    assert "env-secret-0123456789" not in text and "hunter2hunter2" not in text and "ghp_aaaa" not in text
    assert "[REDACTED:" in text


def test_crash_logs_keep_only_the_newest(h, monkeypatch) -> None:
    monkeypatch.chdir(h.root)
    written = [crashlog.write(ValueError(f"crash {n}")) for n in range(crashlog.KEEP + 5)]
    kept = crash_logs(h.root)
    assert len(kept) == crashlog.KEEP and written[-1] in kept and written[0] not in kept


def test_outside_any_repository_the_log_goes_to_a_private_temp_folder(tmp_path, monkeypatch) -> None:
    import tempfile

    plain = tmp_path / "plain"
    plain.mkdir()
    monkeypatch.chdir(plain)
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    try:
        raise OSError("disk gone")
    except OSError as exc:
        log = crashlog.write(exc)
    assert log is not None and log.parent == tmp_path / "tmp" / f"harness-crash-{os.getuid()}"
    assert log.parent.stat().st_mode & 0o777 == 0o700
    assert_crash_log(log, "OSError: disk gone")
