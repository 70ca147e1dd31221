"""The programs a shell line runs, and every PATH it sets, for the check that the tree supplies no runner.

A `shell: true` test command is a line the shell reads, not one argv: `PATH="$PWD/bin:$PATH" pytest`, `export
PATH=bin:$PATH; pytest` or `cd sub && pytest` start a runner the line's first plain words do not show. Each simple
command the line runs (in lists, pipelines, loops, `sh -c` and `timeout …` included: the agent guard's parser,
:mod:`harness.agent.judge.shell_commands`) is looked up on every PATH the line assigns, as a prefix
(`PATH=… pytest`), alone (`PATH=…; pytest`) or through `export`/`declare`. A value is expanded as the shell would:
`$NAME` and `${NAME}` from the run's environment (`$PWD` is the folder it starts in), `~` from `HOME`. A value that
needs the shell to run something or to decide (`$(pwd)`, `${ROOT:-.}`, a backquote) cannot be known before the run:
it is refused, not guessed.
"""

from __future__ import annotations

import re

from harness.errors import HarnessError

DECLARERS = frozenset({"export", "declare", "typeset", "readonly", "local"})
# `$NAME`, `${NAME}` (the whole of a parameter expansion the shell decides nothing in), a `~` that starts an entry
_PARAMETER = re.compile(r"\$(?:\{([A-Za-z_]\w*)\}|([A-Za-z_]\w*))")
_TILDE = re.compile(r"~(?=/|$)")  # an entry's own `~`: `~USER` is the user database's to answer


class UnknownPath(HarnessError):
    """A PATH the line assigns that the shell alone can compute."""


def line_runners(text: str, environ: dict[str, str], cwd: str) -> tuple[list[list[str]], list[str]]:
    """(the words of each simple command ``text`` runs, every PATH value it assigns, expanded). Raises
    :class:`UnknownPath` for a PATH value that cannot be expanded before the run, and HarnessError for a line
    the parser cannot read."""
    from harness.agent.judge.shell_commands import ShellSyntaxError, TooMuchToJudge, parse

    try:
        commands = parse(text)
    except (ShellSyntaxError, TooMuchToJudge) as exc:
        raise HarnessError(f"the shell line cannot be read ({exc}), so the programs it runs were not checked") from None
    paths = []
    for command in commands:
        declared = command.words[1:] if command.program in DECLARERS else ()
        for assignment in (*command.assignments, *declared):
            name, eq, value = assignment.partition("=")
            if eq and name == "PATH":
                paths.append(expanded(value, environ, cwd))
    return [list(c.words) for c in commands if c.words], list(dict.fromkeys(paths))


def expanded(value: str, environ: dict[str, str], cwd: str) -> str:
    """The PATH value ``value`` (quotes removed) as the shell expands it in an assignment."""
    def parameter(match: re.Match[str]) -> str:
        name = match.group(1) or match.group(2)
        return cwd if name == "PWD" else environ.get(name, "")

    home = environ.get("HOME", "")
    entries = value.split(":")
    if "$" in _PARAMETER.sub("", value) or "`" in value or any(
            e.startswith("~") and not (home and _TILDE.match(e)) for e in entries):
        raise UnknownPath(f"the shell line sets PATH={value}, which only the shell can compute (a substitution, an "
                          "expansion that decides, or `~USER`), so where its programs are found was not checked")
    return ":".join(_PARAMETER.sub(parameter, home + e[1:] if e.startswith("~") else e) for e in entries)
