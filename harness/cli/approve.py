"""`harness approve gate-change`: a human's approval of a gate.yaml loosening."""

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


@approve.command("gate-change")
def gate_change() -> None:
    """Approve the loosening in the working gate.yaml, bound to its exact bytes.

    Records who approved in .harness/approvals.jsonl (commit it with gate.yaml). Any
    later edit to gate.yaml changes its digest and voids the approval.
    """
    from harness.cli.hooks import _git
    from harness.core.policy import loosenings
    from harness.store import settings
    from harness.store.layout import open_layout

    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise Refused("approval needs a human at an interactive terminal; this session has none",
                      hint="ask a person to run `harness approve gate-change` in their own terminal")
    layout = open_layout()
    git = _git()
    new = settings.load_gate(layout)
    head = git.head()
    old_raw = None
    if head:
        from harness.gitio import TreeSource

        old_raw = TreeSource(git, git.commit_tree(head), "HEAD").read(".harness/gate.yaml")
    changes = loosenings(settings.parse_gate(old_raw).doc, new.doc) if old_raw else []
    if not changes:
        click.echo("gate.yaml does not loosen the committed policy: no approval needed")
        return
    click.echo("gate.yaml loosens the gate:")
    for c in changes:
        click.echo(f"  - {c}")
    typed = click.prompt('type "approve" to approve exactly this gate.yaml', default="", show_default=False)
    if typed.strip() != "approve":
        raise Refused("not approved")
    who = git.ident()
    if not who:
        raise Refused("git does not know who you are", hint="git config user.name/user.email, then approve again")
    entry = {"kind": "gate-change", "digest": new.digest, "changes": changes, "approved_by": who,
             "os_user": getpass.getuser(), "at": _now(), "previous": hashlib.sha256(old_raw).hexdigest()}
    path = layout.harness / "approvals.jsonl"
    with fsio.locked(layout.local / "lock"):
        existing = path.read_bytes() if path.exists() else b""
        fsio.atomic_write(path, existing + json.dumps(entry, sort_keys=True).encode() + b"\n")
    click.echo(f"approved by {who}; commit .harness/gate.yaml and .harness/approvals.jsonl together")


def _now() -> str:
    from harness.store.tasks import now_iso

    return now_iso()
