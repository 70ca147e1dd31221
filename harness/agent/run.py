"""`harness hook agent HOST EVENT`: read the host's JSON, decide, answer in its shape.

Failure policy (an agent hook must never fail open on what it guards, nor trap the agent):
- pre-tool-use: an internal error denies a command that touches what the guard covers,
  and lets anything else through with a visible message;
- stop: an internal error blocks once per session with the error, then lets the agent stop;
- session-start: an error becomes a visible message, never a traceback.
"""

from __future__ import annotations

import os
from pathlib import Path

from harness.agent import hosts
from harness.agent.hosts import Reply


def run(host: str, event: str, raw: str) -> Reply:
    try:
        data = hosts.read_payload(raw)
    except ValueError as exc:
        data, bad_input = {}, str(exc)
    else:
        bad_input = ""
    if host == "auto":
        host = hosts.detect_host(data)
    p = hosts.payload(data)
    if event == "pre-tool-use":
        return _pre_tool_use(host, p, raw, bad_input)
    if event == "stop":
        return _stop(host, p, bad_input)
    return _session_start(host, p, bad_input)


# -- session start ------------------------------------------------------------------------

def _session_start(host: str, p: hosts.Payload, bad_input: str) -> Reply:
    from harness.agent import facts
    from harness.core.agent_policy import session_context

    try:
        if bad_input:
            raise ValueError(bad_input)
        root = facts.repo_root(p.cwd)
        if not facts.has_harness(root):
            return hosts.context(host, "")
        assert root is not None
        f = facts.load_facts(root)
        if f is None:
            return hosts.context(host, "Engineering Harness is set up here, but no task is current: "
                                       "start one with `harness task new \"TITLE\"` (`harness status` shows more).")
        return hosts.context(host, session_context(f))
    except Exception as exc:  # the agent sees a message, never a traceback
        why = _describe(exc)
        return hosts.context(host, f"Engineering Harness: could not read the task state ({why}); "
                                   "run `harness status` to see it.", message=f"harness: session-start: {why}")


# -- pre-tool-use -------------------------------------------------------------------------

def _pre_tool_use(host: str, p: hosts.Payload, raw: str, bad_input: str) -> Reply:
    from harness.core.bypass import mentions_guarded

    try:
        if bad_input:
            raise ValueError(bad_input)
        return _judge_tool(host, p)
    except Exception as exc:  # the failure policy above, whatever went wrong
        why = _describe(exc)
        subject = _subject(host, p) or raw
        if mentions_guarded(subject):
            return hosts.deny(host, f"harness: the guard failed ({why}) on a command that touches what it "
                                    "protects (git, .harness/, hooks), so it refuses rather than allow it "
                                    "unchecked. Rephrase the command plainly, or run `harness status`.")
        return hosts.allow(host, f"harness: the guard failed ({why}); allowed a command it does not cover")


def _judge_tool(host: str, p: hosts.Payload) -> Reply:
    from harness.agent import facts
    from harness.core.bypass import check_delete, check_shell, check_write
    from harness.core.guarded_paths import Where

    action = hosts.tool_action(host, p)
    if action.shell is None and not action.writes:
        return hosts.allow(host)
    root = facts.repo_root(p.cwd)
    if not facts.has_harness(root):
        return hosts.allow(host)  # nothing of the harness's here to protect
    assert root is not None
    # Real paths on both sides, so a symlinked checkout (macOS /tmp) compares like with like.
    cwd = os.path.realpath(p.cwd or root)
    where = Where(os.path.realpath(root), cwd)
    denial = None
    if action.shell is not None:
        shell_where = where.cd(os.path.realpath(os.path.join(cwd, action.workdir))) if action.workdir else where
        denial = check_shell(action.shell, shell_where, facts.notes_ref(root))
    for path in action.writes:
        denial = denial or check_write(os.path.realpath(os.path.join(cwd, path)), where)
    for path in action.deletes:
        denial = denial or check_delete(os.path.realpath(os.path.join(cwd, path)), where)
    return hosts.deny(host, denial.message()) if denial else hosts.allow(host)


def _subject(host: str, p: hosts.Payload) -> str:
    try:
        action = hosts.tool_action(host, p)
        return ((action.shell or "") + " " + " ".join(action.writes)).strip()
    except Exception:  # describing the action is best effort
        return ""


# -- stop ---------------------------------------------------------------------------------

def _stop(host: str, p: hosts.Payload, bad_input: str) -> Reply:
    from harness.agent import facts, stopstate
    from harness.core import agent_policy as policy

    root = facts.repo_root(p.cwd)
    if not facts.has_harness(root):
        return hosts.allow(host)
    assert root is not None
    try:
        if bad_input:
            raise ValueError(bad_input)
        f = facts.load_facts(root)
        verdict = policy.stop_verdict(f)
        limit = facts.block_limit(root)
        tree = f.tree if f else ""
        with stopstate.session_counts(root) as counts:
            prior = stopstate.get(counts, p.session_id)
            verdict, count, released = policy.apply_cap(verdict, prior, p.session_id, tree, limit)
            stopstate.put(counts, p.session_id, count)
        if released and f is not None:
            stopstate.record(root, "stop.released", host=host, session=p.session_id, task=f.task_id,
                             state=f.state, tree=tree, blocks=count.blocks if count else limit)
    except Exception as exc:  # block once with the error, then let the agent stop
        return _stop_error(host, root, p.session_id, _describe(exc))
    if verdict.block:
        return hosts.block_stop(host, verdict.reason)
    return hosts.allow(host, verdict.message or None)


def _stop_error(host: str, root: Path, session: str, why: str) -> Reply:
    from harness.agent import stopstate
    from harness.core import agent_policy as policy

    try:
        with stopstate.session_counts(root) as counts:
            verdict, count = policy.error_verdict(stopstate.get(counts, session), session, why)
            stopstate.put(counts, session, count)
        if verdict.block:
            stopstate.record(root, "stop.error", host=host, session=session, error=why)
    except Exception as exc:  # cannot remember a block: blocking could loop forever
        return hosts.allow(host, f"harness: the stop check failed ({why}; {_describe(exc)}); not blocking")
    if verdict.block:
        return hosts.block_stop(host, verdict.reason)
    return hosts.allow(host, verdict.message)


def _describe(exc: BaseException) -> str:
    from harness.errors import HarnessError

    if isinstance(exc, HarnessError):
        return exc.message
    return f"{type(exc).__name__}: {exc}"[:300]
