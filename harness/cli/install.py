"""`harness install` / `harness uninstall`: native git hook shims for users without pre-commit."""

from __future__ import annotations

import json
import os
import sys

import click

from harness import resources
from harness.errors import Refused
from harness.store import fsio

STAGES = ("pre-commit", "pre-merge-commit", "post-commit", "post-merge", "post-rewrite", "pre-push")
SERVER_STAGES = ("pre-receive",)
MARKER = "engineering-harness native hook shim"
CHAINED = ".pre-harness"


def _hooks_dir(git):
    custom = git.config_get("core.hooksPath")
    if custom:
        return (git.root / os.path.expanduser(custom)).resolve()
    return git.common_dir / "hooks"


def _record_path(git):
    return git.common_dir / "harness-install.json"


def _read_record(git) -> dict:
    try:
        return json.loads(_record_path(git).read_text("utf-8"))
    except (OSError, ValueError):
        return {}


def _ours(path) -> bool:
    try:
        return MARKER in path.read_text("utf-8", "replace")
    except OSError:
        return False


def _server_repo():
    from harness.cli.hooks import _server_git

    git = _server_git()
    if not git.is_bare:
        raise Refused(f"{git.root} is not a bare repository",
                      hint="run `harness install --server` inside the bare repository your remote serves "
                           "(e.g. /srv/git/project.git); in a clone, plain `harness install` sets up the client hooks")
    return git


def _write_shims(folder, stages: tuple[str, ...]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    shim = resources.data_dir("hooks").joinpath("native-hook").read_text("utf-8").replace("@PYTHON@", sys.executable)
    for stage in stages:
        path = folder / stage
        if path.exists() and not _ours(path):
            backup = folder / (stage + CHAINED)
            if backup.exists():
                raise Refused(f"{path} exists and so does {backup}", hint="merge or remove one of them, then re-run")
            os.replace(path, backup)
            click.echo(f"kept your {stage} hook: it runs first, from {backup.name}")
        fsio.atomic_write(path, shim.encode("utf-8"))
        path.chmod(0o755)


@click.command()
@click.option("--server", is_flag=True, help="In a bare repository a remote serves: install the pre-receive hook, "
              "which runs the push guard's checks on every pushed ref before git accepts any of them.")
def install(server: bool) -> None:
    """Install the harness into this repository's git hooks.

    An existing hook is kept and chained (renamed to <stage>.pre-harness and run first).
    Also adds notes.rewriteRef and sets notes.rewriteMode=ignore, so amend and rebase keep
    one stamp per commit; `harness uninstall` restores your previous values.

    \b
    With --server (inside a bare repository, e.g. /srv/git/project.git):
      a pre-receive hook that no client flag skips (--no-verify, SKIP=, hooksPath).
    """
    if server:
        git = _server_repo()
        folder = _hooks_dir(git)
        _write_shims(folder, SERVER_STAGES)
        click.echo(f"installed the harness pre-receive hook in {folder}: every pushed ref is checked")
        return
    from harness.cli.hooks import _git
    from harness.guard.stamp import DEFAULT_REF

    git = _git()
    folder = _hooks_dir(git)
    _write_shims(folder, STAGES)
    ref = DEFAULT_REF
    from harness.store.layout import Layout
    from harness.store.settings import load_config

    layout = Layout(git.root)
    if layout.config.exists():
        ref = load_config(layout)["notes_ref"]
    # Settings are added beside the user's own, and what was there is kept for uninstall.
    record = _read_record(git)
    if ref not in git.config_get_all("notes.rewriteRef"):
        git.config_set("notes.rewriteRef", ref, add=True)
        record["added_rewrite_ref"] = ref
    if "previous_rewrite_mode" not in record:
        previous = git.config_get_all("notes.rewriteMode")
        record["previous_rewrite_mode"] = previous[-1] if previous else None
    # The post-commit stamp already wrote a fresh note on each rewritten commit; copying the
    # old one too would concatenate two JSON documents into one note.
    git.config_set("notes.rewriteMode", "ignore")
    from harness.cli import install_notes

    remotes = install_notes.configure(git, ref, record)
    fsio.atomic_write(_record_path(git), json.dumps(record).encode())
    click.echo(f"installed harness hooks in {folder}: {', '.join(STAGES)}")
    click.echo(f"notes.rewriteRef = {ref}, notes.rewriteMode = ignore (amend and rebase keep one stamp per commit)")
    install_notes.report(remotes, ref)


@click.command()
@click.option("--server", is_flag=True, help="Remove the pre-receive hook from this bare repository.")
def uninstall(server: bool) -> None:
    """Remove the harness shims and restore any hook they had chained."""
    from harness.cli.hooks import _git

    git = _server_repo() if server else _git()
    folder = _hooks_dir(git)
    removed = []
    for stage in SERVER_STAGES if server else STAGES:
        path, backup = folder / stage, folder / (stage + CHAINED)
        if path.exists() and _ours(path):
            path.unlink()
            removed.append(stage)
            if backup.exists():
                os.replace(backup, path)
                click.echo(f"restored your {stage} hook")
    if server:
        click.echo(f"removed harness hooks: {', '.join(removed) or 'none were installed'}")
        return
    record = _read_record(git)
    from harness.cli import install_notes

    install_notes.unconfigure(git, record)
    if record.get("added_rewrite_ref"):
        git.config_unset("notes.rewriteRef", record["added_rewrite_ref"])
    if "previous_rewrite_mode" in record:
        git.config_unset("notes.rewriteMode")
        if record["previous_rewrite_mode"] is not None:
            git.config_set("notes.rewriteMode", record["previous_rewrite_mode"])
    _record_path(git).unlink(missing_ok=True)
    click.echo(f"removed harness hooks: {', '.join(removed) or 'none were installed'}")
