"""`harness skills install|uninstall|list`: the harness's Agent Skills where a coding agent finds them."""

from __future__ import annotations

from pathlib import Path

import click

from harness.agent.skills_install import AGENTS, SCOPES
from harness.cli.common import json_option

agent_option = click.option("--agent", type=click.Choice(AGENTS), default="agents", show_default=True,
                            help="claude: .claude/skills · gemini: .gemini/skills · codex and agents: the "
                                 "cross-host .agents/skills.")
scope_option = click.option("--scope", type=click.Choice(SCOPES), default="project", show_default=True,
                            help="project: this repository · user: under your home directory (claude: "
                                 "$CLAUDE_CONFIG_DIR/skills when set).")


def _roots(scope: str) -> tuple[Path, Path]:
    from harness.store.layout import find_worktree

    root = find_worktree() if scope == "project" else Path.cwd()
    return root, Path.home()


@click.group()
def skills() -> None:
    """The skills that drive an agent through the harness: engineering-harness (the
    controller) and its sub-skills (task-contract, adversarial-review, reproduce-finding,
    collect-evidence, quality-gate, convergence)."""


@skills.command("install")
@agent_option
@scope_option
@click.option("--force", is_flag=True, help="Overwrite copies that were edited since they were installed.")
@json_option
def install(agent: str, scope: str, force: bool, as_json: bool) -> None:
    """Copy the skills where AGENT discovers them. Running it again updates them and
    changes nothing already current; a copy you edited is kept (and named) unless --force."""
    from harness.cli.skills_report import report
    from harness.install import skills as use
    root, home = _roots(scope)
    report(use.install(agent, scope, root, home, force), as_json)


@skills.command("uninstall")
@agent_option
@scope_option
@json_option
def uninstall(agent: str, scope: str, as_json: bool) -> None:
    """Remove the skill files `harness skills install` wrote; files edited since stay."""
    from harness.cli.skills_report import report
    from harness.install import skills as use
    root, home = _roots(scope)
    report(use.uninstall(agent, scope, root, home), as_json)


@skills.command("list")
def list_() -> None:
    """The names of the skills this harness ships."""
    from harness.agent.skills_install import source_dir

    for skill in sorted(p for p in source_dir().iterdir() if (p / "SKILL.md").is_file()):
        click.echo(skill.name)
