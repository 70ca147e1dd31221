"""`harness approve gate-change|config-change|signers-change`: a human's signed approval.

Bound to the sha-256 of the exact file approved and signed with the approver's SSH key
(`ssh-keygen -Y sign`, as git signs commits), recorded in .harness/approvals.jsonl. Every
check that honours it verifies the signature against the allowed-signers trust root, so
a line written without the key counts for nothing (README: what this does not stop).
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import click

from harness import paths
from harness.errors import Refused

if TYPE_CHECKING:
    from collections.abc import Callable

    from harness.approvals.approve import ChangesOf
    from harness.gitio.git import Git

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


def _approve(kind: str, rel: str, what: str, changes_of: ChangesOf, key: str | None,
             against: Callable[[Git], str] | None = None) -> None:
    from harness.approvals.approve import pending_approval, record_approval
    from harness.cli.approve_report import report
    from harness.cli.hooks import _git
    from harness.store.layout import open_layout

    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise Refused("approval needs a human at an interactive terminal; this session has none",
                      hint=f"ask a person to run `harness approve {kind}` in their own terminal")
    layout, git = open_layout(), _git()
    pending = pending_approval(kind, rel, what, changes_of, layout, git, key, against(git) if against else None)
    report(pending, as_json=False)
    if not pending.changes:
        return
    typed = click.prompt(f'type "approve" to approve exactly this {rel}', default="", show_default=False)
    if typed.strip() != "approve":
        raise Refused("not approved")
    from harness import context

    report(record_approval(pending, layout, git, context.current().on_lock_wait), as_json=False)


@approve.command("gate-change")
@key_option
def gate_change(key: str | None) -> None:
    """Approve the loosening in the working gate.yaml, bound to its exact bytes.

    Any later edit to gate.yaml changes its digest and voids the approval.
    """
    from harness.approvals.approve import gate_changes

    _approve("gate-change", paths.GATE, "loosens the gate", gate_changes, key)


@approve.command("suite-change")
@click.argument("cases", nargs=-1, required=True, metavar="CASE_ID...")
@key_option
@click.option("--task", "task_id", metavar="TASK-ID", help="The task whose base the cases belong to (default: the current one).")
def suite_change(cases: tuple[str, ...], key: str | None, task_id: str | None) -> None:
    """Let exactly these test cases of the task's base change or go: a change of spec.

    \b
    harness approve suite-change tests.test_calc::test_mul tests.test_calc::test_div

    PASS_TO_PASS then excuses these case ids (as `harness evidence pass_to_pass` names them
    when lost) and no other, for this repository and this task's base only: the signed
    approval replays nowhere else, and not in CI once the branch the task joins has moved
    past that base. Rename a test keeping its id and no approval is needed.
    """
    from harness import context
    from harness.approvals.approve import suite_changes

    _approve("suite-change", paths.APPROVALS, "lets base test cases change or go (a change of spec)",
             suite_changes(cases, task_id, context.current()), key)


@approve.command("config-change")
@key_option
@click.option("--commit", "rev", metavar="REV", help="Approve the change commit REV made to config.yaml (from its "
                                                      "first parent's), when `harness gate` names it.")
def config_change(key: str | None, rev: str | None) -> None:
    """Approve the working config.yaml's changed, added or removed evidence commands and dropped redaction patterns.

    Which command proves `unit_test` is policy: replacing it can loosen the gate as surely
    as editing gate.yaml, and a dropped pattern lets what it named as secret into the next
    commit. Any later edit to config.yaml voids the approval. With --commit, the change a
    commit already made, for a task whose gate names it.
    """
    from harness.approvals.approve import committed_config_changes, config_changes, step_parent

    what = "changes what proves an evidence type, or what is kept secret"
    if rev is None:
        _approve("config-change", paths.CONFIG, what, config_changes, key)
    else:
        _approve("config-change", paths.CONFIG, what, committed_config_changes(rev), key, step_parent(rev))


@approve.command("history-rewrite")
@click.argument("new", metavar="NEW")
@click.option("--ref", metavar="REF", help="The protected ref to rewrite (default: the branch HEAD is on).")
@key_option
def history_rewrite(new: str, ref: str | None, key: str | None) -> None:
    """Let a protected ref's history be replaced by exactly NEW (all zeros: deleted).

    \b
    On a checkout of the ref's current tip (HEAD is what it holds now):
      harness approve history-rewrite 3f2a9c1 --ref refs/heads/main
      git commit -m "approve replacing main" .harness/approvals.jsonl && git push
      git push --force origin 3f2a9c1:refs/heads/main

    It names the tip it is given at (HEAD), so commit it directly on that tip, on its own: the
    server hook and `harness audit` honour it only while the ref points at that commit, whose one
    parent is the tip named. Anything pushed on top in between voids it, and it counts once: a
    copy of its line added again after the rewrite sits on another tip.
    """
    from harness.approvals.approve import history_rewrite

    _approve("history-rewrite", paths.APPROVALS, "replaces a protected ref's history",
             history_rewrite(new, ref), key)


@approve.command("signers-change")
@key_option
def signers_change(key: str | None) -> None:
    """Approve the working .harness/allowed_signers: who may sign approvals is policy too.

    Only a key the committed allowed_signers already lists can approve a change to it.
    """
    from harness.approvals.approve import signers_changes

    _approve("signers-change", paths.ALLOWED_SIGNERS, "changes who may sign approvals", signers_changes, key)
