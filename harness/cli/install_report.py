"""`harness install` / `harness uninstall` reporters."""

from __future__ import annotations

import click

from harness.cli.reporters import report as report  # what `harness install` / `uninstall` call
from harness.cli.reporters import text_report
from harness.install.hook_stages import CLIENT_STAGES
from harness.install.shims import Installed, Uninstalled


@text_report.register
def installed_text(i: Installed) -> None:
    if i.twice:
        click.echo(f"warning: {i.twice}: the pre-commit framework already runs the harness hooks, so with these shims "
                   "every harness check runs twice (slower, same verdict). Keep one: `harness uninstall` removes the "
                   "shims; the notes settings below are still worth having.", err=True)
    for stage in i.kept:
        click.echo(f"kept your {stage} hook: it runs first, from {stage}.pre-harness")
    for stage in i.dispatched:
        click.echo(f"your {stage} hook runs every file of {stage}.d/: the harness is {stage}.d/harness "
                   "(your hook unchanged)")
    for stage in i.own:
        click.echo(f"your {stage} hook runs the harness itself (`harness hook run {stage}`): left as it is")
    for stage in i.legacy:
        mine = (i.folder / f"{stage}.pre-harness").exists()
        click.echo(f"the pre-commit framework runs the harness's {stage} shim as {stage}.legacy: kept there, current"
                   + (f" (your {stage} hook runs first, from {stage}.pre-harness)" if mine else ""))
    _stale_text(i.stale)
    if i.server:
        where = i.folder / "pre-receive.d" if "pre-receive" in i.dispatched else i.folder
        click.echo(f"installed the harness pre-receive hook in {where}: every pushed ref is checked")
        for key, value in i.server_config.items():
            click.echo(f"{key} = {value}")
        if "receive.denyNonFastForwards" in i.server_config:
            click.echo("  git now refuses every non-fast-forward push, on every ref, even a rewrite a human approved "
                       "(`harness install --server --allow-non-fast-forward` leaves it to the hook: protected refs only)")
        return
    click.echo(f"installed harness hooks in {i.folder}: {', '.join(s for s in CLIENT_STAGES if s not in i.own)}")
    click.echo(f"notes.rewriteRef = {i.ref}, notes.rewriteMode = ignore (amend and rebase keep one stamp per commit)")
    if i.remotes:
        click.echo(f"{i.ref} is pushed and fetched with {', '.join(i.remotes)} (a plain `git push` sends the current "
                   "branch and the stamps)")
    else:
        click.echo(f"no remote yet: after `git remote add`, run `harness install` again so {i.ref} travels")


def _stale_text(stale: list[str]) -> None:
    for name in stale:
        click.echo(f"removed {name}: a stale copy of the pre-commit framework's own hook, which the shim had chained "
                   f"before `pre-commit install` put the framework's at {name.removesuffix('.pre-harness')}")


@text_report.register
def uninstalled_text(u: Uninstalled) -> None:
    _stale_text(u.stale)
    for stage in u.restored:
        click.echo(f"restored your {stage} hook")
    if u.restored_config:
        click.echo(f"restored {', '.join(u.restored_config)} as they were before `harness install --server`")
    click.echo(f"removed harness hooks: {', '.join(u.removed) or 'none were installed'}")
