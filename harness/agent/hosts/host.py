"""What the guard and the installer know of one agent host: the protocol each host module fills in."""

from __future__ import annotations

from collections import namedtuple

TYPE_CHECKING = False  # typing is not imported: the guard answers a `Read` without it
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, NamedTuple


# The answer shapes the three hosts take, each host naming its own in its module: a host that answers in another
# shape brings its function with it, and nothing else changes (harness.agent.hosts shapes every answer so).
def permission_decision(event: str, reason: str) -> dict[str, Any]:
    """A deny as Claude Code (and Codex) read it: the event's own output, its permission decision."""
    return {"hookSpecificOutput": {"hookEventName": event, "permissionDecision": "deny",
                                   "permissionDecisionReason": reason}}


def decision(word: str) -> Callable[[str, str], dict[str, Any]]:
    """The answer `{"decision": WORD, "reason": …}`: Gemini's deny, and every host's stop block in its own word."""
    return lambda _event, reason: {"decision": word, "reason": reason}


def additional_context(event: str, text: str, message: str | None) -> dict[str, Any]:
    """Session start, as all three hosts read it: text the model reads first, a message shown to the user."""
    out: dict[str, Any] = {}
    if text:
        out["hookSpecificOutput"] = {"hookEventName": event, "additionalContext": text}
    if message:
        out["systemMessage"] = message
    return out


# A namedtuple, not a dataclass or typing.NamedTuple: typing and dataclasses cost a `Read` a tenth
# (and a third) of its time. mypy reads the class below.
if TYPE_CHECKING:
    class Host(NamedTuple):
        name: str
        events: dict[str, str]          # our event -> the host's own name for it
        shell_tools: tuple[str, ...]    # tools that run a command line
        edit_tools: tuple[str, ...]     # tools that write files
        settings: tuple[str, str]       # (the project's settings file, the user's, under the home folder)
        deny: Callable[[str, str], dict[str, Any]]  # (its pre-tool-use event's name, reason) -> its deny answer
        stop: Callable[[str, str], dict[str, Any]]  # (its stop event's name, reason) -> the answer that keeps it going
        hook_names: bool                # its handlers carry a name and count timeouts in milliseconds
        skills_dir: str                 # where it discovers skills, in a project or the home folder
        install_note: str               # what `harness agent install` adds for it ("" for nothing)
        workdir_keys: tuple[str, ...] = ()                  # a shell tool's input keys naming its folder
        claims: Callable[[dict[str, Any]], bool] | None = None  # a payload only this host sends (auto)
        home_env: str = ""              # a variable naming the folder of the user's settings file, when set (and of
                                        # the user's skills, when they live in that folder too)
        hides_shell_folder: bool = False  # a shell call may run in a folder its payload does not name
        settings_comments: bool = False   # it reads `//` and `/* */` comments in its settings file
        # (its session-start event's name, text the model reads first, a message to the user) -> its answer
        context: Callable[[str, str, str | None], dict[str, Any]] = additional_context
else:
    Host = namedtuple("Host", "name events shell_tools edit_tools settings deny stop hook_names "
                              "skills_dir install_note workdir_keys claims home_env hides_shell_folder "
                              "settings_comments context",
                      defaults=((), None, "", False, False, additional_context))

# The events as Claude Code names them; Codex took the same names.
CLAUDE_EVENTS = {"session-start": "SessionStart", "pre-tool-use": "PreToolUse", "stop": "Stop"}


def matcher(host: Host) -> str:
    """The tool-name regex installed for the pre-tool-use hook: every tool the guard judges, so no tool
    the guard knows goes unsent to it."""
    return "|".join((*host.shell_tools, *host.edit_tools))
