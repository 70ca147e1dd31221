"""The guard answers before the host's own timeout kills it (F-0374): a killed hook lets the call run in all three
hosts. Substitutions nested past a bound are refused as a line the guard cannot judge, the fallback reader reads a
nested line once rather than once per level, and a judgement still running at the guard's deadline (below the
installed timeout) is answered with a deny."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from harness.agent import hook_settings
from harness.agent import run as run_module
from harness.agent.judge import shell_quotes
from harness.agent.judge.bypass import check_shell
from harness.agent.judge.guarded_paths import Where
from harness.agent.judge.shell_commands import parse

TOP = Where("/repo", "/repo", "/home/u")


def _nested(n: int, before: str = "git commit --no-verify -m x; ") -> str:
    """``before``, then `echo "$(echo "$(echo … x)")"` nested ``n`` deep."""
    return before + "echo " + '"$(echo ' * n + "x" + ')"' * n


def _answer(cwd: Path, command: str) -> dict | None:
    data = {"session_id": "s1", "transcript_path": "/tmp/t.jsonl", "cwd": str(cwd), "permission_mode": "default",
            "hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": command},
            "tool_use_id": "toolu_1"}
    reply = run_module.run("claude", "pre-tool-use", json.dumps(data))
    assert reply.code == 0
    return json.loads(reply.stdout) if reply.stdout else None


def _reason(out: dict | None) -> str:
    assert out is not None and out["hookSpecificOutput"]["permissionDecision"] == "deny", out
    return out["hookSpecificOutput"]["permissionDecisionReason"]


def test_f0374_substitutions_nested_past_the_bound_are_refused_with_a_reason(h, task):
    # 2,500 levels: the reviewer's line, unanswered at 15 s before.
    assert "nest" in _reason(_answer(h.root, _nested(2500)))
    assert "nest" in _reason(_answer(h.root, _nested(2500, before="")))  # no bypass on it: refused all the same


@pytest.mark.parametrize("quote", ['"', ""])
def test_f0374_the_bound_refuses_the_line_in_the_pure_judge(quote):
    line = "echo " + f"{quote}$(echo " * 200 + "x" + f"){quote}" * 200
    denial = check_shell(line, TOP)
    assert denial is not None and denial.rule == "unresolved" and "nest" in denial.reason


def test_f0374_substitutions_nested_a_few_deep_are_still_judged_and_allowed(h, task):
    assert _answer(h.root, 'git commit -m "$(echo "$(echo "$(echo fix)")")"') is None
    assert _answer(h.root, _nested(20, before="")) is None
    assert "--no-verify" in _reason(_answer(h.root, _nested(20)))  # and a bypass beside them is still found


def test_f0374_the_fallback_reader_reads_a_nested_line_once_not_once_per_level(monkeypatch):
    """Each level was scanned again by the fallback reader (`[[ … ]]` sends a line to it): the work grew with the
    nesting times the line. Counted in the scanner's pieces, not timed."""
    pieces = []
    real = shell_quotes._piece

    def counted(*args, **kwargs):
        pieces.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(shell_quotes, "_piece", counted)
    line = _nested(60, before="[[ -n x ]] && git commit --no-verify -m x; ")
    commands = parse(line)
    assert ["git", "commit", "--no-verify", "-m", "x"] in [list(c.words) for c in commands]
    assert sum(c.words[:1] == ("echo",) for c in commands) == 61  # every level's command is still found
    assert len(pieces) <= 3 * len(line), (len(pieces), len(line))


def test_f0374_the_guard_s_deadline_is_below_every_installed_timeout():
    deadline = getattr(run_module, "DEADLINE_SECONDS", None)
    assert deadline is not None, "the guard has no deadline of its own"
    root = Path(__file__).resolve().parent.parent
    plugin = json.loads((root / "hooks" / "hooks.json").read_text())["hooks"]["PreToolUse"][0]["hooks"][0]
    assert 0 < deadline < hook_settings.TIMEOUT_SECONDS["pre-tool-use"] <= plugin["timeout"]
    # Gemini counts milliseconds: its installed entry says the same number of seconds
    [gemini] = hook_settings.entries("gemini")["BeforeTool"]
    assert deadline * 1000 < gemini["hooks"][0]["timeout"]


def test_f0374_a_judgement_still_running_at_the_deadline_is_answered_with_a_deny(h, task, monkeypatch):
    import harness.agent.judge.bypass as bypass

    def slow(*args: object, **kwargs: object) -> None:
        for _ in range(500):  # far past the deadline set below (and the call returns an allow if nothing stops it)
            time.sleep(0.01)
        return None

    monkeypatch.setattr(bypass, "check_shell", slow)
    monkeypatch.setattr(run_module, "DEADLINE_SECONDS", 0.2, raising=False)
    reason = _reason(_answer(h.root, "make build"))
    assert "in time" in reason and "harness:" in reason


def test_f0374_the_deadline_leaves_no_alarm_behind(h, task):
    import signal

    before = signal.getsignal(signal.SIGALRM)
    assert _answer(h.root, "make build") is None
    assert "--no-verify" in _reason(_answer(h.root, "git commit --no-verify -m x"))
    assert signal.getsignal(signal.SIGALRM) == before
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
