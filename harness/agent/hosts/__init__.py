"""The agent hosts, one module each in REGISTRY, and their hook I/O: a payload read, an answer shaped.

What a host's stdin JSON holds, and the exact shape of an answer.

In Claude Code, Codex and Gemini CLI alike only exit 2 blocks, and exit 1 or a crash lets
the action proceed; so every answer here is a JSON decision on exit 0, in the host's own
words (Codex rejects an unknown key in a Stop answer, and an invalid answer blocks nothing).
A deny or block for host "auto" whose payload told nothing (unreadable) is exit 2 with the
reason on stderr: the one answer all three take as a block.
"""

from __future__ import annotations

import posixpath
from collections import namedtuple

from harness.agent.hosts import claude, codex, gemini
from harness.agent.hosts.host import Host, matcher
from harness.agent.judge.patch_text import DELETE_HEADER, PROGRAMS, patch_paths

__all__ = ["Host", "matcher"]  # with the names defined below: the protocol is read from here

TYPE_CHECKING = False  # typing (and json) are not imported: the guard answers a `Read` without them
if TYPE_CHECKING:
    from typing import Any, NamedTuple

UNKNOWN_SESSION = "unknown-session"


# One module per host, one line each here: the guard, the installer, the CLI's choices, the skills
# installer and the plugin manifests all read REGISTRY (tests/test_agent_host_registry.py holds them equal).
REGISTRY = {h.name: h for h in (claude.HOST, codex.HOST, gemini.HOST)}
HOSTS = tuple(REGISTRY)
# Views of the registry, read by the guard and the installer.
ANY_SHELL_TOOL = frozenset(t for h in REGISTRY.values() for t in h.shell_tools)
ANY_EDIT_TOOL = frozenset(t for h in REGISTRY.values() for t in h.edit_tools)
DETECTION_ORDER = sorted(REGISTRY.values(), key=lambda h: h.events == claude.HOST.events)  # stable: registry order
WORKDIR_KEYS = tuple(k for h in REGISTRY.values() for k in h.workdir_keys)


# Named tuples, not dataclasses: the guard answers a `Read` before anything imports dataclasses
# (and inspect with it), a third of what such a call cost. At run time they are collections'
# namedtuples (what typing.NamedTuple makes too) with the same fields and defaults: importing
# typing for the class syntax alone costs a `Read` a tenth of its time. mypy reads the classes.
if TYPE_CHECKING:
    class Payload(NamedTuple):
        session_id: str
        cwd: str | None
        tool_name: str = ""
        tool_input: Any = None                                # as sent (None: none): tool_action checks its type

    class ToolAction(NamedTuple):
        shell: str | None = None                              # a command line the tool will run
        writes: tuple[str, ...] = ()                          # files the tool will write or delete
        workdir: str | None = None                            # where the shell runs, when not the session's cwd
        deletes: tuple[str, ...] = ()                         # files a patch deletes
        refuse: str | None = None                             # why the guard cannot judge it (denied)
        patch_read: bool = False                              # a patch the host applies itself, its paths judged

    class Reply(NamedTuple):
        stdout: str = ""
        stderr: str = ""
        code: int = 0
else:
    Payload = namedtuple("Payload", "session_id cwd tool_name tool_input", defaults=("", None))
    ToolAction = namedtuple("ToolAction", "shell writes workdir deletes refuse patch_read",
                            defaults=(None, (), None, (), None, False))
    Reply = namedtuple("Reply", "stdout stderr code", defaults=("", "", 0))


def detect_host(data: dict[str, Any]) -> str:
    """For the plugin hooks file all hosts share: the first host whose marks the payload carries, else
    Claude Code. A host with event names of its own is asked first (those names are unambiguous), then
    the hosts that share Claude Code's. Claude Code and Codex accept the same answer shapes for these
    events, so a wrong guess between the two answers correctly anyway."""
    return next((h.name for h in DETECTION_ORDER if h.claims and h.claims(data)), claude.HOST.name)


def read_payload(raw: str) -> dict[str, Any]:
    from harness.agent.payload_json import loads

    data = loads(raw) if raw.strip() else {}
    if not isinstance(data, dict):
        raise ValueError("the hook input is not a JSON object")
    return data


def payload(data: dict[str, Any]) -> Payload:
    data = _no_lone_surrogates(data)
    tool_input = data.get("tool_input")
    return Payload(session_id=str(data.get("session_id") or UNKNOWN_SESSION),
                   cwd=data.get("cwd") if isinstance(data.get("cwd"), str) else None,
                   tool_name=str(data.get("tool_name") or ""),
                   tool_input={} if tool_input is None else tool_input)


def tool_action(p: Payload) -> ToolAction:
    """What a tool call will do, in terms the denier judges; unknown tools do nothing it guards.

    Input of the wrong type for a tool the guard judges (a list where the host sends an object,
    a number for a command) raises ValueError: read as "nothing", it would be an allow of what
    the host may run anyway, and the failure policy (harness.agent.run) judges it instead."""
    name, ti = p.tool_name, p.tool_input
    # Any host's names count for every host (and for "auto"): a tool one host calls so is judged wherever sent.
    shell, edit = name in ANY_SHELL_TOOL, name in ANY_EDIT_TOOL
    if not (shell or edit):
        return ToolAction()
    if not isinstance(ti, dict):
        raise ValueError(f"the {name} tool's input is a JSON {type(ti).__name__}, not an object")
    if shell:
        return _shell_action(name, ti)
    if name == "apply_patch":
        text = ti.get("command") or ti.get("input") or ti.get("patch") or ""
        if isinstance(text, list):
            text = "\n".join(_strings(text, "patch"))
        elif not isinstance(text, str):
            raise ValueError(f"the {name} tool's patch is a JSON {type(text).__name__}, not a string")
        return ToolAction(writes=tuple(patch_paths(text)), deletes=tuple(patch_paths(text, DELETE_HEADER)))
    path = ti.get("file_path") or ti.get("notebook_path") or ti.get("path")
    if path is not None and not isinstance(path, str):
        raise ValueError(f"the {name} tool's path is a JSON {type(path).__name__}, not a string")
    return ToolAction(writes=(path,) if path else ())


def _shell_action(name: str, ti: dict[str, Any]) -> ToolAction:
    command, script = ti.get("command"), None
    if isinstance(command, list):  # Codex's exec tools pass argv
        import shlex

        argv = _strings(command, "command")
        if len(argv) == 3 and posixpath.basename(argv[0]) in ("bash", "sh", "zsh") and argv[1] in ("-c", "-lc"):
            # Codex's usual call: the script is the line judged, as the shell reads it. Joined and quoted
            # back, a multi-line script with a here-document and a `'` was misread (#27's task F-0022).
            script = argv[2]
        command = script if script is not None else shlex.join(argv)
        if len(argv) == 2 and argv[0] in PROGRAMS:  # `["apply_patch", PATCH]`: Codex applies PATCH as given
            from harness.agent.patch_commands import paths_in

            writes, deletes = paths_in(argv[1], _workdir(ti))
            return ToolAction(shell=command, workdir=_workdir(ti), writes=writes, deletes=deletes, patch_read=True)
    elif command is not None and not isinstance(command, str):
        raise ValueError(f"the {name} tool's command is a JSON {type(command).__name__}, not a string")
    workdir = _workdir(ti)
    text = command or ""
    if name == claude.POWERSHELL:  # judged as bash reads it, but for PowerShell's own words (F-0372)
        from harness.agent.judge.powershell_words import refusal, unread

        word = unread(text)
        if word is not None:
            return ToolAction(shell=text, workdir=workdir, refuse=refusal(word))
    if "apply_patch" in text or "applypatch" in text:
        from harness.agent import patch_commands

        # A form Codex applies itself: its patch's paths, in the folder it names, are the call's writes. Any
        # other line that runs the program is the shell judge's (bypass._check_apply_patch); one that only
        # names it (grep, a commit message) runs nothing (#27's task F-0025).
        applied = patch_commands.written(script or text, workdir)
        if applied is not None:
            return ToolAction(shell=text, workdir=workdir, writes=applied[0], deletes=applied[1], patch_read=True)
    return ToolAction(shell=text, workdir=workdir)


def _workdir(ti: dict[str, Any]) -> str | None:
    # Any host's name for the folder counts for every host, as its tool names do.
    return next((ti[k] for k in WORKDIR_KEYS if isinstance(ti.get(k), str)), None)


def _strings(items: list[Any], what: str) -> list[str]:
    if not all(isinstance(item, str) for item in items):
        raise ValueError(f"the {what} holds something other than strings")
    return items


def _no_lone_surrogates(value: Any) -> Any:
    """``value`` with each lone surrogate of its strings as U+FFFD: what a host written in Node runs (it
    writes strings as UTF-8), and what the guard can encode (#27's task F-0015). JSON's surrogate pairs
    were joined by the decoder: a surrogate left in a string stands alone."""
    if isinstance(value, str):
        if value.isascii():
            return value
        try:
            value.encode("utf-8")  # no regex: a `Read` is answered without importing re
            return value
        except UnicodeEncodeError:
            return "".join("\ufffd" if "\ud800" <= c <= "\udfff" else c for c in value)
    if isinstance(value, dict):
        return {_no_lone_surrogates(k): _no_lone_surrogates(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_no_lone_surrogates(v) for v in value]
    return value


# -- answers ------------------------------------------------------------------------------

def _json(obj: dict[str, Any]) -> str:
    from harness.agent.answer_json import dumps  # only an answer with something to say is JSON: an allow is silent

    return dumps(obj)  # json.dumps(obj, ensure_ascii=False), without loading json


def context(host: str, text: str, message: str | None = None) -> Reply:
    """Session start: text the model reads first, in the host's shape ("auto": Claude Code's)."""
    out = REGISTRY.get(host, claude.HOST).context(_event(host, "session-start"), text, message)
    return Reply(_json(out) if out else "")


def _unknown_host_block(reason: str) -> Reply:
    return Reply(stderr=reason, code=2)


def deny(host: str, reason: str) -> Reply:
    if host not in REGISTRY:
        return _unknown_host_block(reason)
    return Reply(_json(REGISTRY[host].deny(_event(host, "pre-tool-use"), reason)))


def _event(host: str, event: str) -> str:
    """The host's own name for one of our events (an answer names it); "auto" answers as Claude names them."""
    return REGISTRY.get(host, claude.HOST).events[event]


def allow(message: str | None = None) -> Reply:
    """Let the action proceed; a message, when there is one, is shown to the user."""
    return Reply(_json({"systemMessage": message}) if message else "")


def block_stop(host: str, reason: str) -> Reply:
    if host not in REGISTRY:
        return _unknown_host_block(reason)
    return Reply(_json(REGISTRY[host].stop(_event(host, "stop"), reason)))
