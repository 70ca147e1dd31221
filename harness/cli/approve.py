"""`harness approve gate-change|config-change|signers-change`: a human's signed approval.

Bound to the sha-256 of the exact file approved and signed with the approver's SSH key
(`ssh-keygen -Y sign`, as git signs commits), recorded in .harness/approvals.jsonl. Every
check that honours it verifies the signature against the allowed-signers trust root, so
a line written without the key counts for nothing (README: what this does not stop).
"""

from __future__ import annotations

import getpass
import hashlib
import json
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

import click

from harness.errors import Refused
from harness.store import fsio

if TYPE_CHECKING:
    from harness.gitio import Git
    from harness.store.layout import Layout

ChangesOf = Callable[["Layout", "Git"], tuple[str, list[str]]]


key_option = click.option(
    "--key", metavar="PATH", help="SSH key to sign with (default: git config user.signingKey, as for signed "
                                  "commits; a public key there means the private half is in ssh-agent).")


@click.group()
def approve() -> None:
    """Human approvals, signed with your SSH key. They work only at an interactive terminal.

    \b
    One-time setup: list each approver's public key in .harness/allowed_signers
    (git's format: `EMAIL KEYTYPE KEY`) and commit it, or name a file outside the
    repository with `git config harness.allowedSigners PATH`; in CI pass
    `harness audit --allowed-signers PATH`.
    """


def _committed(git: Git, rel: str) -> bytes | None:
    head = git.head()
    if not head:
        return None
    from harness.gitio import TreeSource

    return TreeSource(git, git.commit_tree(head), "HEAD").read(rel)


def _gate_changes(layout: Layout, git: Git) -> tuple[str, list[str]]:
    from harness.guard.validate import loosening_of
    from harness.store import settings

    new = settings.load_gate(layout)
    from harness.guard.validate import configured_types
    from harness.store.source import FsSource

    return new.digest, loosening_of(_committed(git, ".harness/gate.yaml"), new, configured_types(FsSource(layout.root)))


def _config_changes(layout: Layout, git: Git) -> tuple[str, list[str]]:
    from harness.core.policy import command_changes
    from harness.gitio import TreeSource
    from harness.store import facts
    from harness.store.source import FsSource

    after = facts.configured_commands(FsSource(layout.root))
    head = git.head()
    before = facts.configured_commands(TreeSource(git, git.commit_tree(head), "HEAD")) if head else {}
    changes = command_changes(before, after)
    return hashlib.sha256(layout.config.read_bytes()).hexdigest(), changes


def _signers_changes(layout: Layout, git: Git) -> tuple[str, list[str]]:
    from harness.guard.trust import SIGNERS

    path = layout.root / SIGNERS
    new = path.read_bytes() if path.exists() else b""
    old = _committed(git, SIGNERS) or b""
    before, after = set(old.decode("utf-8", "replace").splitlines()), set(new.decode("utf-8", "replace").splitlines())
    def entries(lines: set[str]) -> list[str]:
        return [line.split()[0] for line in sorted(lines) if line.strip() and not line.startswith("#")]

    changes = ([f"adds signer {who}" for who in entries(after - before)]
               + [f"removes signer {who}" for who in entries(before - after)])
    if old != new and not changes:
        changes = ["rewrites the file (comments or order)"]
    return hashlib.sha256(new).hexdigest(), changes if old != new else []


def _signing_key(git: Git, key: str | None) -> str:
    key = key or git.config_get("user.signingKey")
    if not key:
        raise Refused("no SSH key to sign the approval with",
                      hint="pass --key ~/.ssh/id_ed25519 (or set git config user.signingKey, as for signed commits)")
    return key


def _approve(kind: str, rel: str, what: str, changes_of: ChangesOf, key: str | None) -> None:
    from harness.cli.hooks import _git
    from harness.store.layout import open_layout

    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise Refused("approval needs a human at an interactive terminal; this session has none",
                      hint=f"ask a person to run `harness approve {kind}` in their own terminal")
    layout, git = open_layout(), _git()
    digest, changes = changes_of(layout, git)
    if changes:
        key = _signing_key(git, key)  # asked before the prompt: nothing to type for an approval that cannot be signed
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
    if not who or "<" not in who:
        raise Refused("git does not know who you are", hint="git config user.name/user.email, then approve again")
    from harness import signing
    from harness.core import approvals as rules
    from harness.gitio import TreeSource
    from harness.guard import trust
    from harness.store.tasks import now_iso

    signer = who.rsplit("<", 1)[1].rstrip(">").strip()
    entry = {"kind": kind, "digest": digest, "changes": changes, "approved_by": who, "signer": signer,
             "os_user": getpass.getuser(), "at": now_iso()}
    entry["signature"] = signing.sign(rules.payload(entry), _signing_key(git, key), rules.NAMESPACE)
    line = json.dumps(entry, sort_keys=True).encode() + b"\n"
    # Checked as every hook will check it, before anything is written: an approval that would
    # count as none must not look like one.
    trust.use_git_config(git)
    head = git.head()
    ok, why = trust.approved(line, kind, digest, [TreeSource(git, git.commit_tree(head), "HEAD")] if head else [])
    if not ok:
        raise Refused(f"signed, but the signature would not count: {why}",
                      hint=f"list your public key as `{signer} KEYTYPE KEY` in the allowed signers (a change to "
                           f"{trust.SIGNERS} itself needs an already-listed approver; the first one is committed "
                           "by hand), or sign with a key that is listed")
    path = layout.harness / "approvals.jsonl"
    with fsio.locked(layout.local / "lock"):
        existing = path.read_bytes() if path.exists() else b""
        fsio.atomic_write(path, existing + line)
    click.echo(f"approved by {who}, signed as {signer}; commit {rel} and .harness/approvals.jsonl together")


@approve.command("gate-change")
@key_option
def gate_change(key: str | None) -> None:
    """Approve the loosening in the working gate.yaml, bound to its exact bytes.

    Any later edit to gate.yaml changes its digest and voids the approval.
    """
    _approve("gate-change", ".harness/gate.yaml", "loosens the gate", _gate_changes, key)


@approve.command("config-change")
@key_option
def config_change(key: str | None) -> None:
    """Approve changed or removed evidence commands in the working config.yaml.

    Which command proves `unit_test` is policy: replacing it can loosen the gate as surely
    as editing gate.yaml. Any later edit to config.yaml voids the approval.
    """
    _approve("config-change", ".harness/config.yaml", "changes what proves an evidence type", _config_changes, key)


@approve.command("signers-change")
@key_option
def signers_change(key: str | None) -> None:
    """Approve the working .harness/allowed_signers: who may sign approvals is policy too.

    Only a key the committed allowed_signers already lists can approve a change to it.
    """
    from harness.guard.trust import SIGNERS

    _approve("signers-change", SIGNERS, "changes who may sign approvals", _signers_changes, key)
