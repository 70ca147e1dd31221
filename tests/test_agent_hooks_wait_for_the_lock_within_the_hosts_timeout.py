"""F-0369: an agent hook waits for the store's lock only within a bound below the timeout its host gives it
(hook_settings.TIMEOUT_SECONDS); past it, the stop is blocked naming the lock and its holder, counted per source
tree as any other block (read 108's F-0380: not as an internal error, once per session), and the session start says
so. The bound is the host's timeout less a margin; HARNESS_HOOK_LOCK_WAIT may only shorten it (how the tests keep it
short). No assertion here reads a clock: the answers' content is what is held."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from harness.agent import hook_budget, hook_settings

from support.cli import walk_to

HOLD = """
import select, sys
from pathlib import Path
sys.argv = ["harness", "requirement", "add", "held"]
from harness.store import fsio
with fsio.locked(Path(".harness/local/lock")):
    print("held", flush=True)
    select.select([sys.stdin], [], [], 120)
"""


@pytest.fixture
def holder(repo):
    """A process holding the store's lock exclusively, as a writer does, until the test ends."""
    proc = subprocess.Popen([sys.executable, "-c", HOLD], cwd=repo, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            text=True)
    try:
        assert proc.stdout.readline().strip() == "held"
        yield proc
    finally:
        proc.kill()
        proc.wait(10)


def hook(event: str, repo: Path, session: str = "s1", wait: str = "0.3") -> tuple[dict | None, int]:
    """The real hook, as the host runs it, cancelled (as the host would) at the host's own timeout."""
    data = {"session_id": session, "cwd": str(repo), "hook_event_name": {"stop": "Stop"}.get(event, "SessionStart"),
            "stop_hook_active": False}
    p = subprocess.run([sys.executable, "-m", "harness", "hook", "agent", "claude", event], input=json.dumps(data),
                       capture_output=True, text=True, cwd=repo, timeout=hook_settings.TIMEOUT_SECONDS[event],
                       env={**os.environ, "HARNESS_HOOK_LOCK_WAIT": wait})
    assert "Traceback" not in p.stdout + p.stderr
    return (json.loads(p.stdout) if p.stdout.strip() else None), p.returncode


@pytest.fixture
def stale(h, repo, task) -> Path:
    """A task the stop hook blocks on: its required evidence ran, then the code changed."""
    walk_to(h, "SPECIFYING", "PLANNED", "IMPLEMENTING")
    for etype in ("build", "unit_test"):
        h.ok("evidence", etype, "--", sys.executable, "-c", "pass")
    (repo / "app.py").write_text("def answer():\n    return 43\n")
    return repo


def test_the_stop_hook_blocks_naming_the_lock_and_its_holder_up_to_the_per_tree_limit(stale, holder):
    # Read 108's F-0380: a held lock is no internal error (blocked once per session, then "not blocking twice" on
    # every later tree): its blocks are counted, per source tree, as any other's (stop_block_limit, 3 here).
    answers = [hook("stop", stale) for _ in range(4)]
    for out, code in answers[:3]:
        assert code == 0 and out is not None and out.get("decision") == "block", answers
        assert "gave up waiting for the harness lock" in out["reason"], out
        assert f"pid {holder.pid} (harness requirement add)" in out["reason"], out
    released, code = answers[3]
    assert code == 0 and released is not None and released.get("decision") != "block", released
    assert "3 consecutive blocks on this source tree" in released["systemMessage"], released


def test_a_held_lock_still_blocks_the_stop_on_a_new_source_tree(stale, holder):
    for _ in range(4):  # the first tree: blocked to the limit, then released
        hook("stop", stale)
    (stale / "app.py").write_text("def answer():\n    return 44\n")  # new work: the evidence is stale again
    out, code = hook("stop", stale)
    assert code == 0 and out is not None and out.get("decision") == "block", out
    assert f"pid {holder.pid}" in out["reason"], out


def test_a_stop_with_fresh_evidence_goes_through_once_the_held_lock_is_free(h, stale, holder):
    # The neighbour: the blocks a held lock cost are no error remembered against the session; once the lock is
    # free, a task whose evidence is fresh again stops.
    out, _ = hook("stop", stale)
    assert out is not None and out.get("decision") == "block", out
    holder.kill()
    holder.wait(10)
    for etype in ("build", "unit_test"):
        h.ok("evidence", etype, "--", sys.executable, "-c", "pass")
    out, code = hook("stop", stale)
    assert code == 0 and (out is None or out.get("decision") != "block"), out


def test_the_session_start_says_the_store_is_locked(stale, holder):
    out, code = hook("session-start", stale)
    assert code == 0 and out is not None, out
    assert "could not read the task state" in out["hookSpecificOutput"]["additionalContext"]
    assert "gave up waiting for the harness lock" in out["systemMessage"] and f"pid {holder.pid}" in out["systemMessage"]


def test_the_tool_guard_still_answers_while_the_lock_is_held(stale, holder):
    # The neighbour: the guard reads no task state, so a held lock changes none of its answers.
    data = {"session_id": "s1", "cwd": str(stale), "hook_event_name": "PreToolUse", "tool_name": "Bash",
            "tool_input": {"command": "ls -la"}}
    p = subprocess.run([sys.executable, "-m", "harness", "hook", "agent", "claude", "pre-tool-use"],
                       input=json.dumps(data), capture_output=True, text=True, cwd=stale,
                       timeout=hook_settings.TIMEOUT_SECONDS["pre-tool-use"])
    assert p.returncode == 0 and "deny" not in p.stdout, p.stdout + p.stderr


def test_the_stop_hook_judges_as_before_once_the_lock_is_free(stale):
    out, code = hook("stop", stale)
    assert code == 0 and out is not None and out.get("decision") == "block" and "unit_test" in out["reason"], out


@pytest.mark.parametrize("event", ["session-start", "stop"])
def test_the_lock_wait_of_each_hook_is_bounded_below_its_hosts_timeout(event):
    wait = hook_budget.LOCK_WAIT_SECONDS[event]
    assert 0 < wait < hook_settings.TIMEOUT_SECONDS[event]
