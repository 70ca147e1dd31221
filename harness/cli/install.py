"""`harness install` / `harness uninstall`: native git hook shims for users without pre-commit."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from harness.errors import Refused

if TYPE_CHECKING:  # imported lazily where used; named here for the annotations
    from harness.gitio.git import Git


def _server_repo() -> Git:
    from harness.cli.hooks import _server_git

    git = _server_git()
    if not git.is_bare:
        raise Refused(f"{git.root} is not a bare repository",
                      hint="run `harness install --server` inside the bare repository your remote serves "
                           "(e.g. /srv/git/project.git); in a clone, plain `harness install` sets up the client hooks")
    return git


@click.command()
@click.option("--server", is_flag=True, help="In a bare repository a remote serves: install the pre-receive hook, "
              "which runs the push guard's checks on every pushed ref before git accepts any of them.")
@click.option("--allow-non-fast-forward", "allow_non_ff", is_flag=True,
              help="With --server: do not set receive.denyNonFastForwards (which refuses every non-fast-forward "
                   "push, on every ref, even one a human approved); the hook still refuses them on protected refs "
                   "without a `harness approve history-rewrite`.")
def install(server: bool, allow_non_ff: bool) -> None:
    """Install the harness into this repository's git hooks.

    Use it only without the pre-commit framework: when .pre-commit-config.yaml already runs
    the harness hooks it warns that every check would run twice.

    An existing hook keeps running as it did: one that runs every file of a <stage>.d/
    folder gets the harness there (<stage>.d/harness); any other is chained (renamed to
    <stage>.pre-harness and run first) unless it reads its own name ($0): then, as for husky
    and a hooks folder inside the work tree, install refuses, changes nothing and names the
    line to add to your hook (`harness hook run <stage> "$@"`).
    Also adds notes.rewriteRef and sets notes.rewriteMode=ignore, so amend and rebase keep
    one stamp per commit; `harness uninstall` restores your previous values.

    \b
    With --server (inside a bare repository, e.g. /srv/git/project.git):
      a pre-receive hook that no client flag skips (--no-verify, SKIP=, hooksPath),
      and receive.fsckObjects = true, receive.denyNonFastForwards = true (uninstall
      restores what was there).
    """
    from harness.cli.hooks import _git
    from harness.cli.install_report import report
    from harness.install.shims import install_hooks

    if allow_non_ff and not server:
        raise Refused("--allow-non-fast-forward is a server setting", hint="harness install --server --allow-non-fast-forward")
    from harness import context

    report(install_hooks(_server_repo() if server else _git(), server, allow_non_ff, context.current().on_lock_wait),
           as_json=False)


@click.command()
@click.option("--server", is_flag=True, help="Remove the pre-receive hook from this bare repository.")
def uninstall(server: bool) -> None:
    """Remove the harness shims and restore any hook they had chained."""
    from harness import context
    from harness.cli.hooks import _git
    from harness.cli.install_report import report
    from harness.install.shims import uninstall_hooks

    report(uninstall_hooks(_server_repo() if server else _git(), server, context.current().on_lock_wait), as_json=False)
