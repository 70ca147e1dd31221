"""`harness hook agent HOST EVENT`: read the host's JSON, decide, answer in its shape.

Failure policy (an agent hook must never fail open on what it guards, nor trap the agent):
- pre-tool-use: input it cannot read (not JSON, not an object, nested past the recursion
  limit) is denied; an internal error denies a command that touches what the guard covers,
  and lets anything else through with a visible message;
- stop: an internal error blocks once per session with the error, then lets the agent stop;
- session-start: an error becomes a visible message, never a traceback.
A lock (the store's, the hooks' own) is waited for only within a bound below the host's timeout
(harness.agent.hook_budget): a hook the host cancels decides nothing, so running out of it is an error
answered as above, but for the store's lock at stop: a process holds it (an agent can, on purpose), so the
stop is blocked naming the holder and counted per source tree as any block (read 108's F-0380).
An unexpected error (not a HarnessError) also leaves a crash log (harness.crashlog), named
in the answer. :func:`failsafe` is the answer when an error escapes all of this.
"""

from __future__ import annotations

import os

from harness.agent import hosts
from harness.agent.hosts import Reply

TYPE_CHECKING = False  # typing itself costs a `Read` a tenth of its answer
if TYPE_CHECKING:  # pathlib is imported where a path is made: a `Read` is answered without it
    from collections.abc import Callable
    from pathlib import Path
    from typing import Any

    from harness.agent.judge.denials import Denial
    from harness.agent.judge.git_config_view import GitSetup
    from harness.agent.judge.guarded_paths import Where


def run(host: str, event: str, raw: str, on_wait: Callable[[str], None] | None = None) -> Reply:
    """The answer to ``event`` from ``host`` given its payload ``raw``; ``on_wait`` hears (from the command's
    context, harness.context) that the store's lock or the hooks' own is held by another process."""
    bad_input: Exception | None = None
    try:
        data = hosts.read_payload(raw)
        if host == "auto":
            host = hosts.detect_host(data)
        p = hosts.payload(data)
    except Exception as exc:  # not JSON, not an object, too deep to parse: judged as unreadable
        p, bad_input = hosts.Payload(session_id=hosts.UNKNOWN_SESSION, cwd=None), exc
    if event == "pre-tool-use":
        return _pre_tool_use(host, p, raw, bad_input)
    from harness.agent.hook_budget import lock_deadline

    deadline = lock_deadline(event)
    if event == "stop":
        return _stop(host, p, raw, bad_input, on_wait, deadline)
    return _session_start(host, p, raw, bad_input, on_wait, deadline)


def failsafe(host: str, event: str, raw: str, why: str, on_wait: Callable[[str], None] | None = None) -> Reply:
    """The answer when an error escaped the event's own handling (the front end's last guard):
    pre-tool-use denies whatever the call was, stop blocks once, session-start says so."""
    if host == "auto":
        host = _guess(hosts.detect_host, raw, "auto")  # "auto" left: hosts answer with exit 2
    if event == "pre-tool-use":
        return hosts.deny(host, f"harness: the guard failed: {why}; it refuses rather than allow a tool "
                                "call unchecked. Run `harness status`, or retry the call.")
    if event == "stop":
        from harness.agent.hook_budget import lock_deadline

        return _block_once(host, _guess(lambda d: hosts.payload(d).session_id, raw, hosts.UNKNOWN_SESSION), why, on_wait,
                           lock_deadline(event))
    return hosts.context(host, "", message=f"harness: session-start: {why}")


def _guess(of: Callable[[dict[str, Any]], object], raw: str, default: str) -> str:
    try:
        return str(of(hosts.read_payload(raw)))
    except Exception:  # the payload is what failed: the default answers
        return default


# -- session start ------------------------------------------------------------------------

def _session_start(host: str, p: hosts.Payload, raw: str, bad_input: Exception | None,
                   on_wait: Callable[[str], None] | None, deadline: float) -> Reply:
    from harness.agent import hook_facts as facts
    from harness.agent.session_text import session_context

    try:
        if bad_input:
            raise bad_input
        root = facts.repo_root(p.cwd)
        if not facts.has_harness(root):
            return hosts.context(host, "")
        assert root is not None
        f = facts.load_facts(root, on_wait, deadline)
        if f is None:
            return hosts.context(host, "Engineering Harness is set up here, but no task is current: "
                                       "start one with `harness task new \"TITLE\"` (`harness status` shows more).")
        return hosts.context(host, session_context(f))
    except Exception as exc:  # the agent sees a message, never a traceback
        why = _logged(exc, p, raw)
        return hosts.context(host, f"Engineering Harness: could not read the task state ({why}); "
                                   "run `harness status` to see it.", message=f"harness: session-start: {why}")


# -- pre-tool-use -------------------------------------------------------------------------

# The guard's own time limit, below the one its install gives the host (hook_settings.TIMEOUT_SECONDS: 15 s): a hook
# the host kills lets the call run in all three hosts, so a judgement still running at this one is denied (F-0374).
# Tests set it lower.
DEADLINE_SECONDS = 10.0


class OutOfTime(BaseException):
    """Raised by the deadline's alarm wherever the judge stands: no Exception, so no `except Exception` on the way
    (bashlex's fallback, a best-effort read) takes it for something else."""


def _pre_tool_use(host: str, p: hosts.Payload, raw: str, bad_input: Exception | None) -> Reply:
    try:
        if bad_input:
            raise bad_input
        return _judge_in_time(host, p)
    except OutOfTime:
        return hosts.deny(host, f"harness: the guard could not judge this call in time ({DEADLINE_SECONDS:g} s, "
                                "before the agent's host would stop waiting and let it run), so it refuses it. "
                                "Instead: split the command into shorter, plainer ones.")
    except Exception as exc:  # the failure policy above, whatever went wrong
        why = _logged(exc, p, raw)
        if bad_input:  # nothing says what the call would do: refuse it (fail closed)
            return hosts.deny(host, f"harness: could not read the hook input ({why}), so the guard refuses "
                                    "rather than allow a tool call unchecked.")
        from harness.agent.judge.bypass import mentions_guarded

        # What the call carries, never the whole payload: the session's folder (its cwd) is no part of
        # what the call would do, and a project under ~/git/ must be answered as one anywhere else.
        subject = _subject(p) or _carried(p, raw)
        if mentions_guarded(subject):
            return hosts.deny(host, f"harness: the guard failed ({why}) on a command that touches what it "
                                    "protects (git, .harness/, hooks), so it refuses rather than allow it "
                                    "unchecked. Rephrase the command plainly, or run `harness status`.")
        return hosts.allow(f"harness: the guard failed ({why}); allowed a command it does not cover")


def _judge_in_time(host: str, p: hosts.Payload) -> Reply:
    """:func:`_judge_tool` under an alarm at DEADLINE_SECONDS, which raises OutOfTime; free until it rings (a
    handler and a timer set, then cleared). Without SIGALRM (Windows) or off the main thread, unbounded as before."""
    if TYPE_CHECKING:
        import signal as alarm
    else:  # the builtin under signal, imported at every interpreter's start: signal itself imports enum
        import _signal as alarm
    try:
        previous = alarm.signal(alarm.SIGALRM, _ring)
    except (AttributeError, ValueError):
        return _judge_tool(host, p)
    earlier = (0.0, 0.0)
    try:
        earlier = alarm.setitimer(alarm.ITIMER_REAL, DEADLINE_SECONDS)
        try:
            return _judge_tool(host, p)
        finally:
            alarm.setitimer(alarm.ITIMER_REAL, 0)
    finally:
        alarm.signal(alarm.SIGALRM, alarm.SIG_DFL if previous is None else previous)
        if earlier[0]:  # another's timer (a test runner's): set again, as it stood
            alarm.setitimer(alarm.ITIMER_REAL, *earlier)


def _ring(signum: int, frame: object) -> None:
    raise OutOfTime


def _judge_tool(host: str, p: hosts.Payload) -> Reply:
    # Imported past the early answers: a `Read` (most tool calls) pays for none of the rules.
    action = hosts.tool_action(p)
    if action.refuse:
        return hosts.deny(host, action.refuse)
    if action.shell is None and not action.writes:
        return hosts.allow()
    from harness.agent.quick_allow import surely_allowed

    if surely_allowed(p.cwd, action):  # `ls`, an edit of a source file: what the rules would allow anyway
        return hosts.allow()
    from harness.agent import hook_facts as facts

    root = facts.guarded_root(p.cwd)
    from harness.agent.deferred_imports import defer

    defer()  # inspect, which the rules' imports import and nothing they run reads
    # A shell line the host may run in a folder its payload does not name (Codex's workdir; F-0375).
    unsaid = action.shell is not None and host in hosts.REGISTRY and hosts.REGISTRY[host].hides_shell_folder
    if root is None:  # no harness around the session: what an edit writes may still be a harness's record
        denial = _outside_writes(p.cwd, action) or (_unplaced(p.cwd, action.shell or "") if unsaid else None)
        return hosts.deny(host, denial.message()) if denial else hosts.allow()
    # The git processes the judgement needs run while the rules load.
    git_setup = facts.start_git_setup(root, " ".join([action.shell or "", *action.writes, *action.deletes]))
    if action.shell is not None:
        from harness.agent import guard_caches

        guard_caches.arm()  # bashlex, if a line needs it, with its parser tables from the cache
    from harness.agent.judge.bypass import check_delete, check_write
    from harness.agent.judge.guarded_paths import Where
    from harness.core.value_class import replace

    # Real paths on both sides, so a symlinked checkout (macOS /tmp) compares like with like.
    cwd = os.path.realpath(p.cwd or root)
    # What `~` names in the line, and where `mktemp` makes what it makes.
    nested = facts.nested_repositories(os.path.realpath(root), cwd)  # (none for a line that may run elsewhere)
    where = Where(os.path.realpath(root), cwd, os.environ.get("HOME", ""), os.environ.get("TMPDIR") or "/tmp",
                  () if unsaid else nested, facts.other_git(os.path.realpath(root), cwd))
    denial = None
    setup = replace(git_setup(), patch_read=action.patch_read)  # Codex applies it: its paths are the writes below
    if action.shell is not None:
        denial, setup = _shell_denial(action, where, root, setup, nested if unsaid else None)
    for path in action.writes:
        # By its real path and by the name it is written under: through a symlinked `.git`, `.git/config`
        # is really `.store/config`, a name nothing guards (#25's task F-0022).
        for full in dict.fromkeys((os.path.realpath(os.path.join(cwd, path)), os.path.normpath(os.path.join(cwd, path)))):
            denial = (denial or check_write(full, where, setup) or _framework_edit(p, full, where)
                      or _pytest_config_edit(p, full, where, setup.hooks_dirs))
    for path in action.deletes:
        for full in dict.fromkeys((os.path.realpath(os.path.join(cwd, path)), os.path.normpath(os.path.join(cwd, path)))):
            denial = denial or check_delete(full, where, setup)
    denial = denial or _outside_writes(cwd, action, root)
    return hosts.deny(host, denial.message()) if denial else hosts.allow()


def _shell_denial(action: hosts.ToolAction, where: Where, root: str, setup: GitSetup,
                  unsaid: tuple[str, ...] | None) -> tuple[Denial | None, GitSetup]:
    """The judge's answer to the call's shell line, and ``setup`` with what it read from disk for the line. ``unsaid``
    (the nested repositories around the session, left out of ``where``) for a line the host may run in a folder its
    payload does not name: judged in every folder up to the top as well, with no nested repository's allowance."""
    from harness.agent import hook_facts as facts
    from harness.agent.judge.bypass import check_shell
    from harness.agent.line_facts import line_facts  # a patch's paths, a commit's change, a real folder
    from harness.agent.real_names import follower, link_lookup  # what symlinks lead into .harness/ or .git/
    from harness.core.value_class import replace

    shell = action.shell or ""
    shell_where = where.cd(os.path.realpath(os.path.join(where.cwd, action.workdir))) if action.workdir else where
    setup = replace(setup, archive_members=facts.archive_members(shell, shell_where.cwd),
                    **line_facts(shell, where.root, shell_where.cwd))

    def judged(there: Where) -> Denial | None:
        return check_shell(shell, there, facts.notes_ref(root), setup, real_name=follower(root), links=link_lookup(root))

    denial = judged(shell_where)
    if unsaid is not None:
        denial = _unsaid(denial, "as git in this harness's repository") if denial and unsaid else denial
        denial = denial or _unsaid(next(filter(None, map(judged, _up_to_top(where))), None),
                                   "in each folder up to the repository's top")
    return denial, setup


def _up_to_top(where: Where) -> list[Where]:
    """``where`` moved to each folder above its own, up to its repository's top."""
    out, folder, top = [], where.cwd, where.root.rstrip("/")
    while folder.startswith(top + "/"):
        folder = os.path.dirname(folder)
        out.append(where.cd(folder))
    return out


def _unsaid(denial: Denial | None, how: str) -> Denial | None:
    """``denial`` saying why a line is judged where the session is not (F-0375)."""
    if denial is None:
        return None
    from harness.core.value_class import replace

    return replace(denial, reason=f"{denial.reason} (the agent's host does not say which folder a shell call runs "
                                  f"in, its `workdir`: the line is judged {how})")


def _unplaced(cwd: str | None, shell: str) -> Denial | None:
    """A shell line the host may run in any folder, the session outside any harness: judged as if it ran at the top of
    a harness repository, and refused so where one lies below the session's folder (the call's workdir may be it)."""
    if not cwd or not shell:
        return None
    from harness.agent import guard_caches
    from harness.agent.judge.bypass import check_shell
    from harness.agent.judge.denials import Denial
    from harness.agent.judge.guarded_paths import Where
    from harness.agent.judge.shell_commands import ShellSyntaxError

    base = os.path.realpath(cwd)
    guard_caches.arm()
    try:
        denial = check_shell(shell, Where(base, base, os.environ.get("HOME", ""), os.environ.get("TMPDIR") or "/tmp"))
    except (ShellSyntaxError, RecursionError):
        denial = Denial("unresolved", "the guard cannot read the command", "write it plainly")
    below = _harness_below(base) if denial else None
    return _unsaid(denial, f"as if run in the harness repository {below}") if below else None


# Folders a harness repository is not looked for in below themselves: what package managers and tools fill with their
# own files. Each is still looked at, and each folder right in it: a repository named or kept so is found (F-0383).
# A `.git` is not looked in at all.
NOT_SEARCHED = frozenset({"node_modules", ".venv", "venv", "__pycache__", ".tox", ".nox", ".mypy_cache",
                          ".pytest_cache", ".ruff_cache", "site-packages", "target", ".cache"})
MAX_FOLDERS_SEARCHED = 2000


def _harness_below(top: str) -> str | None:
    """A folder below ``top`` holding `.harness/` and `.git` (breadth first, through links to folders, each real
    folder once, so a loop ends; F-0383), else None; ``top`` itself ("one may lie below") when it holds more than
    MAX_FOLDERS_SEARCHED folders to look through."""
    from harness.paths import HARNESS

    todo, seen, looked = [(top, os.path.realpath(top), -1)], set(), 0
    while todo:
        folder, real, levels = todo.pop()  # levels: how deep below it to look, -1 all
        if real in seen:
            continue
        seen.add(real)
        if levels == 0:  # a folder right in a skipped one: by two stats, not counted against the bound
            if _is_harness_repository(folder):
                return folder
            continue
        looked += 1
        if looked > MAX_FOLDERS_SEARCHED:
            return f"that may lie below {top}"
        names = _folders_in(folder)
        if names is None:
            continue
        if folder != top and HARNESS in names and _is_harness_repository(folder):
            return folder
        if levels:  # below a skipped name, its own folders are looked at, and no deeper
            todo[:0] = [(os.path.join(folder, n), _real(folder, real, n, linked),
                         (-1 if n not in NOT_SEARCHED else 1) if levels < 0 else levels - 1)
                        for n, linked in sorted(names.items()) if n != ".git"]
    return None


def _folders_in(folder: str) -> dict[str, bool] | None:
    """The folders in ``folder``, links to one among them, each name with whether it is a link; None if unreadable."""
    try:
        with os.scandir(folder) as entries:
            return {e.name: e.is_symlink() for e in entries if e.is_dir()}
    except OSError:
        return None


def _real(folder: str, real: str, name: str, linked: bool) -> str:
    return os.path.realpath(os.path.join(folder, name)) if linked else os.path.join(real, name)


def _is_harness_repository(folder: str) -> bool:
    from harness.paths import HARNESS

    return os.path.isdir(os.path.join(folder, HARNESS)) and os.path.lexists(os.path.join(folder, ".git"))


def _outside_writes(cwd: str | None, action: hosts.ToolAction, judged: str | None = None) -> Denial | None:
    """What an edit writes or deletes, or a shell command names, in another harness's repository than the
    session's (an absolute path from outside, `../` out of a nested one): judged against the repository
    that holds it (#25's task F-0020, F-0030)."""
    from harness.agent import hook_facts as facts
    from harness.agent.judge.bypass import check_delete, check_write
    from harness.agent.judge.guarded_paths import Where

    base = os.path.realpath(cwd or "/")
    for shell_owner in _shell_owners(base, action.shell or "", judged):
        from harness.agent import guard_caches
        from harness.agent.judge.bypass import check_shell

        guard_caches.arm()
        top = str(shell_owner)
        there = Where(top, base, nested=facts.nested_repositories(top, base), other_git=facts.other_git(top, base))
        denial = check_shell(action.shell or "", there, facts.notes_ref(shell_owner),
                             facts.git_setup(shell_owner, action.shell or ""))
        if denial:
            return denial
    for paths, check in ((action.writes, check_write), (action.deletes, check_delete)):
        for path in paths:
            full = os.path.realpath(os.path.join(base, path))
            owner = facts.guarded_root(os.path.dirname(full))
            if owner is not None and owner != judged:
                denial = check(full, Where(str(owner), base), facts.git_setup(owner, full))
                if denial:
                    return denial
    return None


def _shell_owners(base: str, command: str, judged: str | None) -> list[str]:
    """The harness repositories other than ``judged`` that a path word of ``command`` falls under."""
    if "/" not in command:
        return []
    import re

    from harness.agent import hook_facts as facts

    owners: list[str] = []
    for word in re.findall(r"[^\s;&|<>()'\"`=]+", command):
        if "/" not in word:
            continue
        full = os.path.realpath(os.path.join(base, os.path.expanduser(word)))
        owner = facts.guarded_root(full if os.path.isdir(full) else os.path.dirname(full))
        if owner is not None and owner != judged and owner not in owners:
            owners.append(owner)
    return owners


def _framework_edit(p: hosts.Payload, full: str, where: Where) -> Denial | None:
    """An edit of .pre-commit-config.yaml that leaves out a harness hook the file runs now."""
    from harness.agent.judge.framework_config import framework_denial
    from harness.paths import FRAMEWORK_CONFIG

    if where.resolve(full) != FRAMEWORK_CONFIG:
        return None
    from pathlib import Path

    from harness.agent import hook_facts as facts

    hooks = facts.framework_edit_dropped(Path(full), p.tool_name, p.tool_input)
    return framework_denial(hooks) if hooks else None


def _pytest_config_edit(p: hosts.Payload, full: str, where: Where, hooks_dirs: tuple[str, ...]) -> Denial | None:
    """An edit of pytest's configuration that makes it write or empty the record (#25's task F-0023; a
    writing option, a cache_dir or a log_file: #28's task F-0132, F-0133)."""
    from harness.agent.quick_allow import PYTEST_CONFIGS

    if os.path.basename(full) not in PYTEST_CONFIGS:
        return None
    from harness.agent.judge.bypass_files import check_pytest_config
    from harness.agent.judge.framework_config import edited_text

    try:
        with open(full, encoding="utf-8", errors="replace") as f:
            before = f.read(1 << 20)
    except OSError:
        before = ""
    text = edited_text(p.tool_name, p.tool_input, before) if isinstance(p.tool_input, dict) else None
    if text is None:  # a patch, or a tool whose result cannot be worked out: judge all it says
        text = json_text(p.tool_input)
    return check_pytest_config(text, where, hooks_dirs)


def json_text(value: object) -> str:
    """Every string in ``value`` (a tool's input), one per line."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        return "\n".join(json_text(v) for v in value.values())
    if isinstance(value, list):
        return "\n".join(json_text(v) for v in value)
    return ""


def _carried(p: hosts.Payload, raw: str) -> str:
    """The text of what a call carries when its action cannot be described: its tool name and input
    as sent (the raw payload only when even those cannot be told apart)."""
    if p.tool_name or p.tool_input:
        import json  # the failure path only

        return f"{p.tool_name} {json.dumps(p.tool_input, ensure_ascii=False, default=str)}"
    return raw


def _subject(p: hosts.Payload) -> str:
    try:
        action = hosts.tool_action(p)
        return ((action.shell or "") + " " + " ".join(action.writes)).strip()
    except Exception:  # describing the action is best effort
        return ""


# -- stop ---------------------------------------------------------------------------------

def _stop(host: str, p: hosts.Payload, raw: str, bad_input: Exception | None,
          on_wait: Callable[[str], None] | None, deadline: float) -> Reply:
    from harness.agent import hook_facts as facts
    from harness.agent import stopstate
    from harness.agent.judge import agent_policy as policy

    try:
        root = facts.repo_root(p.cwd)
    except Exception as exc:  # a cwd no path can be (a NUL byte): no task to judge, nor its memory
        return _block_once(host, p.session_id, _logged(exc, p, raw), on_wait, deadline)
    if not facts.has_harness(root):
        return hosts.allow()
    assert root is not None
    try:
        if bad_input:
            raise bad_input
        f, verdict, tree = _judged(root, on_wait, deadline)
        limit = min(facts.block_limit(root), 1) if verdict.once else facts.block_limit(root)
        with stopstate.session_counts(root, on_wait, deadline) as counts:
            prior = stopstate.get(counts, p.session_id)
            verdict, count, released = policy.apply_cap(verdict, prior, p.session_id, tree, limit)
            stopstate.put(counts, p.session_id, count)
        if released and f is not None:
            stopstate.record(root, "stop.released", host=host, session=p.session_id, task=f.task_id,
                             state=f.state, tree=tree, blocks=count.blocks if count else limit)
    except Exception as exc:  # block once with the error, then let the agent stop
        return _stop_error(host, root, p.session_id, _logged(exc, p, raw, near=root), on_wait, deadline)
    if verdict.block:
        return hosts.block_stop(host, verdict.reason)
    return hosts.allow(verdict.message or None)


def _judged(root: Path, on_wait: Callable[[str], None] | None, deadline: float) -> tuple[Any, Any, str]:
    """(the task's facts, the stop verdict, the source tree it is counted against). The store's lock held past the
    wait is no internal error (one block per session, then none on any later tree: read 108's F-0380): a block
    naming the holder, counted on the tree read from git, which needs no store lock."""
    from harness.agent import hook_facts as facts
    from harness.agent.judge import agent_policy as policy
    from harness.errors import LockWaitRanOut

    try:
        f = facts.load_facts(root, on_wait, deadline)
    except LockWaitRanOut as exc:
        return None, policy.lock_verdict(exc.message), facts.source_tree(root)
    return f, policy.stop_verdict(f), f.tree if f else ""


def _stop_error(host: str, root: Path, session: str, why: str, on_wait: Callable[[str], None] | None,
                deadline: float) -> Reply:
    from harness.agent import stopstate
    from harness.agent.judge import agent_policy as policy

    try:
        with stopstate.session_counts(root, on_wait, deadline) as counts:
            verdict, count = policy.error_verdict(stopstate.get(counts, session), session, why)
            stopstate.put(counts, session, count)
        if verdict.block:
            stopstate.record(root, "stop.error", host=host, session=session, error=why)
    except Exception as exc:  # the task's memory is out of reach: the crash logs' folder remembers
        also = _describe(exc)
        return _block_once(host, session, why if also == why else f"{why}; {also}", on_wait, deadline)
    if verdict.block:
        return hosts.block_stop(host, verdict.reason)
    return hosts.allow(verdict.message)


def _block_once(host: str, session: str, why: str, on_wait: Callable[[str], None] | None, deadline: float) -> Reply:
    """Block a stop that failed outside the task's own memory once per session, remembered
    beside the crash logs; when even that cannot be remembered, let the agent stop (a block
    nothing remembers could loop forever)."""
    from harness import crashlog
    from harness.agent import stopstate
    from harness.agent.judge import agent_policy as policy

    try:
        where = crashlog.folder()
        if where is None:
            raise OSError("no folder to remember the block in")
        first = stopstate.first_crash_block(where, session, on_wait, deadline)
    except Exception as exc:
        return hosts.allow(f"harness: the stop check failed ({why}; {_describe(exc)}); not blocking")
    if not first:
        return hosts.allow(f"harness: the stop check failed again ({why}); not blocking twice")
    verdict, _ = policy.error_verdict(None, session, why)
    return hosts.block_stop(host, verdict.reason)


def _logged(exc: BaseException, p: hosts.Payload, raw: str, near: Path | None = None) -> str:
    """``exc`` described for an answer; an unexpected one (not a HarnessError) is also written
    to a crash log, near the repository the host named when it is a usable path, and named."""
    from harness import crashlog
    from harness.errors import HarnessError

    why = _describe(exc)
    if isinstance(exc, HarnessError):
        return why
    if near is None and p.cwd:
        from pathlib import Path

        near = Path(p.cwd)  # an unusable one (a NUL byte) leaves the log in the current directory's
    log = crashlog.write(exc, near=near, stdin=raw)
    return f"{why}; crash log: {log}" if log else why


def _describe(exc: BaseException) -> str:
    from harness.errors import HarnessError

    if isinstance(exc, HarnessError):
        return exc.message
    return f"{type(exc).__name__}: {exc}"[:300]
