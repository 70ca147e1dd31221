"""`harness approve gate-change|config-change`: a human's approval of a loosening.

Bound to the sha-256 of the exact file approved, recorded in .harness/approvals.jsonl with
who approved. It is a record a reviewer can check, not a signature: the terminal check
keeps an agent's non-interactive shell out, nothing stronger (README: where it stops).
"""

from __future__ import annotations

import getpass
import hashlib
import json
import sys

import click

from harness.errors import Refused
from harness.store import fsio


@click.group()
def approve() -> None:
    """Human approvals. They work only at an interactive terminal."""


def _committed(git, rel: str) -> bytes | None:
    head = git.head()
    if not head:
        return None
    from harness.gitio import TreeSource

    return TreeSource(git, git.commit_tree(head), "HEAD").read(rel)


def _gate_changes(layout, git) -> tuple[str, list[str]]:
    from harness import resources
    from harness.core.policy import loosenings
    from harness.store import settings

    new = settings.load_gate(layout)
    old = _committed(git, ".harness/gate.yaml") or resources.template("gate.yaml")
    return new.digest, loosenings(settings.parse_gate(old).doc, new.doc)


def _config_changes(layout, git) -> tuple[str, list[str]]:
    from harness.gitio import TreeSource
    from harness.store import facts
    from harness.store.source import FsSource

    after = facts.configured_commands(FsSource(layout.root))
    head = git.head()
    before = facts.configured_commands(TreeSource(git, git.commit_tree(head), "HEAD")) if head else {}
    changes = [f"evidence.{t}.command {' '.join(cmd)!r} → " + (repr(" ".join(after[t])) if t in after else "removed")
               for t, cmd in before.items() if after.get(t) != cmd]
    return hashlib.sha256(layout.config.read_bytes()).hexdigest(), changes


def _approve(kind: str, rel: str, what: str, changes_of) -> None:
    from harness.cli.hooks import _git
    from harness.store.layout import open_layout

    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise Refused("approval needs a human at an interactive terminal; this session has none",
                      hint=f"ask a person to run `harness approve {kind}` in their own terminal")
    layout, git = open_layout(), _git()
    digest, changes = changes_of(layout, git)
    if not changes:
        click.echo(f"{rel} does not loosen what is committed: no approval needed")
        return
    click.echo(f"{rel} {what}:")
    for change in changes:
        click.echo(f"  - {change}")
    typed = click.prompt(f'type "approve" to approve exactly this {rel}', default="", show_default=False)
    if typed.strip() != "approve":
        raise Refused("not approved")
    who = git.ident()
    if not who:
        raise Refused("git does not know who you are", hint="git config user.name/user.email, then approve again")
    from harness.store.tasks import now_iso

    entry = {"kind": kind, "digest": digest, "changes": changes, "approved_by": who,
             "os_user": getpass.getuser(), "at": now_iso()}
    path = layout.harness / "approvals.jsonl"
    with fsio.locked(layout.local / "lock"):
        existing = path.read_bytes() if path.exists() else b""
        fsio.atomic_write(path, existing + json.dumps(entry, sort_keys=True).encode() + b"\n")
    click.echo(f"approved by {who}; commit {rel} and .harness/approvals.jsonl together")


@approve.command("gate-change")
def gate_change() -> None:
    """Approve the loosening in the working gate.yaml, bound to its exact bytes.

    Any later edit to gate.yaml changes its digest and voids the approval.
    """
    _approve("gate-change", ".harness/gate.yaml", "loosens the gate", _gate_changes)


@approve.command("config-change")
def config_change() -> None:
    """Approve changed or removed evidence commands in the working config.yaml.

    Which command proves `unit_test` is policy: replacing it can loosen the gate as surely
    as editing gate.yaml. Any later edit to config.yaml voids the approval.
    """
    _approve("config-change", ".harness/config.yaml", "changes what proves an evidence type", _config_changes)
