"""`harness skills install|uninstall` text reporters (their JSON: the results' ``as_dict()``)."""

from __future__ import annotations

import click

from harness.cli.reporters import report as report  # what `harness skills` calls
from harness.cli.reporters import text_report
from harness.install.skills import SkillsInstalled, SkillsUninstalled


@text_report.register
def installed_text(i: SkillsInstalled) -> None:
    r = i.result
    click.echo(f"skills in {r.target}: {len(r.written)} file(s) written, {len(r.unchanged)} already current")
    for rel in r.kept:
        click.echo(f"  kept {rel}: edited since it was installed (or not installed by harness); --force replaces it")
    for rel in r.removed:
        click.echo(f"  removed {rel}: no longer shipped")


@text_report.register
def uninstalled_text(u: SkillsUninstalled) -> None:
    r = u.result
    click.echo(f"skills in {r.target}: {len(r.removed)} file(s) removed")
    for rel in r.kept:
        click.echo(f"  kept {rel}: edited since it was installed")
