"""Which variables of a test run's environment could have shaped it where PASS_TO_PASS's clean run would not: a pure
rule (read 110's F-0391).

PASS_TO_PASS reuses the suite's own run in the checkout, instead of running the suite again, only when that run's
environment held nothing beyond what its own clean run keeps (the runner's KEPT_ENV) that could change what a case
does. What a variable changes cannot be told from its name: PYTHONOPTIMIZE strips the asserts pytest does not rewrite
(an assertion helper's), PYTHONHOME, PYTHONUSERBASE or LD_PRELOAD put other code in the interpreter, BASH_ENV runs a
file before a shell line, PYTEST_* and COV_CORE_* drive plugins, and the code under test may read any name at all. So
the rule lists the few names known to change nothing a test sees (a shell's, a terminal's and a login session's own
bookkeeping) and counts every other name that is set: a run refused reuse needlessly costs one more run of the suite,
never a wrong answer. Names only are ever returned: a value may be a secret.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

# Set by a shell, a terminal or a login session for their own use; no interpreter, test runner or library reads them
# to decide what code runs or what a check compares.
INERT = frozenset({
    "PWD", "OLDPWD", "SHLVL", "_", "HOSTNAME", "HOSTTYPE", "OSTYPE", "MACHTYPE", "USERNAME", "MAIL", "MAILCHECK",
    "MOTD_SHOWN", "PS1", "PS2", "HISTFILE", "HISTSIZE", "HISTFILESIZE", "HISTCONTROL", "HISTTIMEFORMAT",
    "LS_COLORS", "LSCOLORS", "CLICOLOR", "COLORTERM", "COLORFGBG", "TERM_PROGRAM", "TERM_PROGRAM_VERSION",
    "TERM_SESSION_ID", "LC_TERMINAL", "LC_TERMINAL_VERSION", "ITERM_PROFILE", "ITERM_SESSION_ID", "VTE_VERSION",
    "WINDOWID", "TMUX", "TMUX_PANE", "STY", "WINDOW", "SSH_AUTH_SOCK", "SSH_AGENT_PID", "SSH_CLIENT",
    "SSH_CONNECTION", "SSH_TTY", "GPG_TTY", "DISPLAY", "WAYLAND_DISPLAY", "XAUTHORITY", "DBUS_SESSION_BUS_ADDRESS",
    "XDG_RUNTIME_DIR", "XDG_SESSION_ID", "XDG_SESSION_TYPE", "XDG_SESSION_CLASS", "XDG_SESSION_DESKTOP",
    "XDG_CURRENT_DESKTOP", "XDG_SEAT", "XDG_VTNR", "DESKTOP_SESSION", "EDITOR", "VISUAL", "PAGER", "LESS",
    "VIRTUAL_ENV_PROMPT",
})
# An activated virtualenv's folder: inert when the program the command starts is that environment's own, which the
# PATH (kept by the clean run) chose already; otherwise a tool that reads it (poetry, pipenv) picks another
# interpreter than the one PATH names.
VIRTUAL_ENV = "VIRTUAL_ENV"


def shaping(environ: Mapping[str, str], kept: Iterable[str], program: str | None) -> list[str]:
    """The names set in ``environ`` (a run's whole environment) that could have shaped the run where PASS_TO_PASS's
    clean run, which holds only ``kept``, would not have been: sorted, names only. ``program`` is the absolute path of
    the program the command starts (None when none was found)."""
    keep = set(kept)
    return sorted(name for name in environ if name not in keep and name not in INERT
                  and not (name == VIRTUAL_ENV and _in_virtualenv(program, environ[name])))


def _in_virtualenv(program: str | None, folder: str) -> bool:
    """Whether ``program`` lies in the scripts folder of the virtualenv ``folder`` (`bin/`, `Scripts\\`)."""
    base = folder.rstrip("/\\")
    if not program or not base:
        return False
    return any(program.startswith(f"{base}{sep}{scripts}{sep}") for sep in "/\\" for scripts in ("bin", "Scripts"))
