"""`harness agent install|uninstall`: wire the agent hooks into a coding agent's settings."""

from __future__ import annotations

from pathlib import Path

import click

from harness.agent.hosts import HOSTS, REGISTRY

host_option = click.option("--host", type=click.Choice(HOSTS), required=True,
                           help="The coding agent: claude (Claude Code), codex (Codex CLI), gemini (Gemini CLI).")
scope_option = click.option("--scope", type=click.Choice(["project", "user"]), default="project", show_default=True,
                            help="project: this repository's settings file; user: the one in your home directory "
                                 "($CLAUDE_CONFIG_DIR, $CODEX_HOME when set).")


@click.group()
def agent() -> None:
    """Install the agent hooks (session start, before a tool runs, at stop) into a host.

    \b
    harness agent install --host claude      # .claude/settings.json
    harness agent install --host codex       # .codex/hooks.json (Codex loads it in trusted projects)
    harness agent install --host gemini      # .gemini/settings.json
    harness agent uninstall --host claude
    harness agent stats                      # stop releases and hook errors recorded here

    The hooks are a convenience for honest agents and a tripwire for hurried ones: git
    hooks and CI (`harness audit`) remain the enforcement.
    """


def _root() -> Path | None:
    """The work tree this runs in, or None outside any git repository (the installer then says so)."""
    from harness.errors import HarnessError
    from harness.store.layout import find_worktree

    try:
        return find_worktree(None)
    except (HarnessError, OSError):
        return None


@agent.command("install")
@host_option
@scope_option
@click.option("--absolute", is_flag=True,
              help="Call this Python by its absolute path instead of `harness` from PATH (for a harness not on "
                   "PATH; the settings then work only on this machine: do not commit them).")
def install_cmd(host: str, scope: str, absolute: bool) -> None:
    """Merge the harness's hook entries into the host's settings (idempotent; your other
    hooks, permissions and settings are kept as they are), then install the skills where
    the host finds them (as `harness skills install --agent HOST` does).

    The hooks call `harness` from PATH, so the project's settings file holds no path of this
    machine and can be committed for the whole team (each teammate installs the harness)."""
    import shutil

    from harness.agent import hook_settings as inst

    root = _root() if scope == "project" else None
    path = inst.settings_path(host, scope, root)
    change = inst.install(host, path, inst.absolute_python() if absolute else None)
    verb = "installed" if change.changed else "already installed"
    click.echo(f"{verb}: {change.entries} harness hook(s) in {path}")
    if absolute and scope == "project":
        click.echo(f"note: the hooks call {inst.absolute_python()}: this settings file works only on this machine; "
                   "do not commit it")
    elif shutil.which("harness") is None:
        click.echo("warning: `harness` is not on PATH here, and the hooks call it from PATH: a host started from this "
                   "shell would fail to run them (and go on unguarded). Activate the environment that has the harness "
                   "before starting the agent, or `harness agent install --absolute` (this machine only)", err=True)
    _skills(host, scope, root)
    note = REGISTRY[host].install_note
    if note:
        click.echo(f"note: {note}")


def _skills(host: str, scope: str, root: Path | None) -> None:
    """The skills go where this host discovers them (Codex: the cross-host .agents/skills)."""
    from harness.agent.skills_install import install_skills

    r = install_skills(host, scope, root or Path.cwd(), Path.home())
    click.echo(f"skills in {r.target}: {len(r.written)} file(s) written, {len(r.unchanged)} already current")
    for rel in r.kept:
        click.echo(f"  kept {rel}: edited since it was installed (`harness skills install --agent {host} --force` "
                   "replaces it)")


@agent.command("uninstall")
@host_option
@scope_option
def uninstall_cmd(host: str, scope: str) -> None:
    """Remove exactly the harness's own hook entries from the host's settings."""
    from harness.agent import hook_settings as inst

    path = inst.settings_path(host, scope, _root() if scope == "project" else None)
    change = inst.uninstall(path, host)
    click.echo(f"removed {change.entries} harness hook(s) from {path}" if change.changed
               else f"no harness hooks in {path}")
    click.echo(f"the skills stay: `harness skills uninstall --agent {host} --scope {scope}` removes them")


@agent.command("stats")
@click.option("--json", "as_json", is_flag=True, help="Print the counts as JSON.")
def stats_cmd(as_json: bool) -> None:
    """Count what the stop hook recorded in this clone: releases after the block limit
    (the agent stopped with stale evidence) and internal errors, per host."""
    from harness.agent.stopstate import tally
    from harness.cli.common import emit_json
    from harness.store.layout import open_layout

    counts = tally(open_layout().root)
    if as_json:
        emit_json(counts)
        return
    if not counts:
        click.echo("no stop releases or hook errors recorded in this clone")
    for event, per in sorted(counts.items()):
        hosts = ", ".join(f"{h} {n}" for h, n in sorted(per["by_host"].items()))
        click.echo(f"{event}: {per['total']} ({hosts})")
