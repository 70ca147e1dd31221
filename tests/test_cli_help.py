"""Every command and every option says what it is for in `--help`."""

from __future__ import annotations

import click

from harness.cli.main import cli


def _commands(cmd: click.Command, path: tuple[str, ...] = ()):
    yield path, cmd
    if isinstance(cmd, click.Group):
        ctx = click.Context(cmd)
        for name in cmd.list_commands(ctx):
            sub = cmd.get_command(ctx, name)
            assert sub is not None, name
            yield from _commands(sub, (*path, name))


def test_every_command_and_option_has_help_text():
    missing = [" ".join(path) or "harness" for path, cmd in _commands(cli) if not (cmd.help or cmd.short_help)]
    missing += [f"{' '.join(path)} {p.opts[0]}" for path, cmd in _commands(cli) for p in cmd.params
                if isinstance(p, click.Option) and not p.help and "--help" not in p.opts]
    assert missing == []


def test_an_unknown_hook_stage_lists_the_stages(h, repo):
    r = h("hook", "run", "bogus")
    assert r.code == 2 and "one of: pre-commit, pre-merge-commit" in r.err
