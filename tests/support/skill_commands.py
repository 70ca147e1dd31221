"""Read the `harness …` command lines a skill writes, and parse them against the real CLI."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import click

FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.M | re.S)
INLINE = re.compile(r"`(harness [^`]+)`")


def command_lines(markdown: str) -> list[str]:
    """Every `harness …` command of a code block: a command an agent will copy and run (each of a
    line's commands joined by `&&`, as in `harness converge --apply && harness transition DONE`)."""
    out = []
    for lang, body in FENCE.findall(markdown):
        if lang in ("", "bash", "sh", "shell", "text"):
            for line in body.splitlines():
                if line.strip().startswith("#"):
                    continue
                out += [part.strip() for part in line.split(" && ") if part.strip().startswith("harness ")]
    return out


def mentions(markdown: str) -> list[str]:
    """Every inline `harness …` span of the prose: it may leave out arguments, not invent commands or options."""
    return INLINE.findall(FENCE.sub("", markdown))


def parse(line: str, complete: bool = True) -> click.Command | None:
    """Parse one command line with the real command tree; raises click.UsageError when it does not fit.

    ``complete=False`` lets required arguments be left out, as prose does; subcommands,
    options and the values given must still be right."""
    try:
        return _parse(line)
    except click.MissingParameter:
        if complete:
            raise
        return None


def files_named(line: str) -> list[str]:
    """The paths a line passes to --file (they must exist for click to accept them)."""
    argv = shlex.split(line, comments=True)
    return [argv[i + 1] for i, a in enumerate(argv[:-1]) if a == "--file"]


def _parse(line: str) -> click.Command:
    from harness.cli.main import cli

    argv = shlex.split(line, comments=True)
    assert argv[0] == "harness", line
    cmd: click.Command = cli
    ctx = None
    args = argv[1:]
    name = "harness"
    while True:
        try:
            ctx = cmd.make_context(name, list(args), parent=ctx)
        except click.exceptions.Exit as done:  # `--help` (an eager option) printed the help: a valid line
            if done.exit_code == 0:
                return cmd
            raise
        if not isinstance(cmd, click.Group):
            return cmd
        rest = [*getattr(ctx, "_protected_args", []), *ctx.args]
        name, sub, args = cmd.resolve_command(ctx, rest)
        if sub is None:
            raise click.UsageError(f"no such command {name!r}")
        cmd = sub


def skill_dirs(root: Path) -> list[Path]:
    return sorted(p for p in root.iterdir() if (p / "SKILL.md").is_file())
