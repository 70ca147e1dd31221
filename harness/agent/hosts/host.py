"""What the guard and the installer know of one agent host: the protocol each host module fills in."""

from __future__ import annotations

from collections import namedtuple

TYPE_CHECKING = False  # typing is not imported: the guard answers a `Read` without it
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, NamedTuple

# A namedtuple, not a dataclass or typing.NamedTuple: typing and dataclasses cost a `Read` a tenth
# (and a third) of its time. mypy reads the class below.
if TYPE_CHECKING:
    class Host(NamedTuple):
        name: str
        events: dict[str, str]          # our event -> the host's own name for it
        shell_tools: tuple[str, ...]    # tools that run a command line
        edit_tools: tuple[str, ...]     # tools that write files
        settings: tuple[str, str]       # (the project's settings file, the user's, under the home folder)
        deny_decision: bool             # a deny is `{"decision": "deny"}` (else Claude's hookSpecificOutput)
        stop_block: str                 # the decision that keeps the agent from stopping
        hook_names: bool                # its handlers carry a name and count timeouts in milliseconds
        skills_dir: str                 # where it discovers skills, in a project or the home folder
        install_note: str               # what `harness agent install` adds for it ("" for nothing)
        workdir_keys: tuple[str, ...] = ()                  # a shell tool's input keys naming its folder
        claims: Callable[[dict[str, Any]], bool] | None = None  # a payload only this host sends (auto)
        home_env: str = ""              # a variable naming the folder of the user's settings file, when set (and of
                                        # the user's skills, when they live in that folder too)
        hides_shell_folder: bool = False  # a shell call may run in a folder its payload does not name
        settings_comments: bool = False   # it reads `//` and `/* */` comments in its settings file
else:
    Host = namedtuple("Host", "name events shell_tools edit_tools settings deny_decision stop_block hook_names "
                              "skills_dir install_note workdir_keys claims home_env hides_shell_folder "
                              "settings_comments",
                      defaults=((), None, "", False, False))

# The events as Claude Code names them; Codex took the same names.
CLAUDE_EVENTS = {"session-start": "SessionStart", "pre-tool-use": "PreToolUse", "stop": "Stop"}


def matcher(host: Host) -> str:
    """The tool-name regex installed for the pre-tool-use hook: every tool the guard judges, so no tool
    the guard knows goes unsent to it."""
    return "|".join((*host.shell_tools, *host.edit_tools))
