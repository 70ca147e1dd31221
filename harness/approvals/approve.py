"""Human approvals of a policy change, bound to the file's exact bytes and signed with the approver's SSH key.

Two steps with a person's confirmation between them: what the change loosens (and the key to
sign with), then the signed, verified approval appended to .harness/approvals.jsonl.
"""

from __future__ import annotations

import getpass
import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from harness import paths
from harness.errors import Refused
from harness.store import bounded, fsio

if TYPE_CHECKING:
    from harness.context import Context
    from harness.gitio.git import Git
    from harness.store.layout import Layout
    from harness.store.source import Source

ChangesOf = Callable[["Layout", "Git"], tuple[str, list[str]]]


@dataclass(frozen=True)
class Pending:
    """What approving ``rel`` would approve: nothing when it loosens nothing."""
    kind: str
    rel: str
    what: str                  # what such a change does ("loosens the gate")
    digest: str                # sha-256 of the exact bytes approved
    changes: list[str]
    key: str | None            # the SSH key to sign with (known before anyone is asked to type)
    against: str | None = None  # the commit whose file it loosens from (None: HEAD)


@dataclass(frozen=True)
class Approved:
    rel: str
    who: str
    signer: str
    against: str | None = None  # as Pending's: a committed change was approved, the file is already committed


def pending_approval(kind: str, rel: str, what: str, changes_of: ChangesOf, layout: Layout, git: Git,
                     key: str | None, against: str | None = None) -> Pending:
    digest, changes = changes_of(layout, git)
    if changes:
        key = signing_key(git, key)  # asked before the prompt: nothing to type for an approval that cannot be signed
        if git.head() and git.is_shallow():  # every kind names the repository (#27's task F-0007)
            raise Refused("a shallow clone cannot name its repository (its first root commit) for the approval",
                          hint="git fetch --unshallow, then approve again")
    return Pending(kind, rel, what, digest, changes, key, against)


def record_approval(p: Pending, layout: Layout, git: Git, on_wait: Callable[[str], None] | None = None) -> Approved:
    """Sign the approval, check it as every hook will, and append it (under the store lock; ``on_wait``
    hears that another command holds it)."""
    who = git.ident()
    if not who or "<" not in who:
        raise Refused("git does not know who you are", hint="git config user.name/user.email, then approve again")
    from harness.core import approvals as rules
    from harness.gitio.tree_source import TreeSource
    from harness.signatures import signing, trust
    from harness.store.tasks import now_iso

    signer = who.rsplit("<", 1)[1].rstrip(">").strip()
    head = p.against or git.head()
    parent = [TreeSource(git, git.commit_tree(head), "HEAD", rev=head)] if head else []
    entry = {"kind": p.kind, "digest": p.digest, "changes": p.changes, "approved_by": who, "signer": signer,
             "os_user": getpass.getuser(), "at": now_iso()}
    rel = rules.FILES.get(p.kind)
    if rel is not None:  # bound to this repository and to the file as HEAD (or p.against) has it: what it loosens from
        entry |= rules.binding(parent[0].repository_id() if parent else None, parent[0].read(rel) if parent else None)
    signature = signing.sign(rules.payload(entry), signing_key(git, p.key), rules.NAMESPACE)
    entry["signature"] = signature
    line = json.dumps(entry, sort_keys=True).encode() + b"\n"
    # Checked as every hook will check it, before anything is written: an approval that would
    # count as none must not look like one.
    signers = trust.Signers(lambda: git)
    ok, why = trust.approved(line, p.kind, p.digest, parent, signers)
    if not ok:
        raise _not_counted(why, signer, trust.listed_for(signature, parent, signers))
    path = layout.root / paths.APPROVALS
    with fsio.locked(layout.lock, on_wait=on_wait, folder=layout.harness):  # the store's lock, as TaskStore takes it
        existing = bounded.read(path, "approvals", paths.APPROVALS) or b""
        fsio.atomic_write(path, existing + line)
    return Approved(p.rel, who, signer, p.against)


def _not_counted(why: str | None, signer: str, listed: list[str]) -> Refused:
    """The refusal of an approval that would count as none. ``listed``: the principals the trust root lists the signing
    key under: when that is another e-mail than ``signer`` (git's committer e-mail, which `approve` signs as), the way
    out is to sign as it, not to list the key again (read 103's F-0362: that hint led in a circle)."""
    said = f"signed, but the signature would not count: {why}"
    if signer in listed:
        return Refused(said, hint=f"the key is listed for {signer}: the reason above says what else keeps it from "
                                  "counting (the entry's namespaces, valid-after or valid-before options)")
    others = [p for p in listed if p != signer]
    if not others:
        return Refused(said, hint=f"list your public key as `{signer} KEYTYPE KEY` in the allowed signers (a change to "
                                  f"{paths.ALLOWED_SIGNERS} itself needs an already-listed approver; the first one is "
                                  "committed by hand), or sign with a key that is listed")
    import os

    said += (f"; the key it was signed with is listed for {', '.join(others)}, and `harness approve` signs as git's "
             f"committer e-mail, {signer}")
    email = next((p for p in others if not any(c in p for c in "*?!")), None)
    how = (f"`git config user.email {email}`" if email else
           f"`git config user.email ADDRESS` with an address matching {others[0]}")
    env = os.environ.get("GIT_COMMITTER_EMAIL")
    if env:  # the environment comes before git config: the config alone would change nothing
        how += f" (GIT_COMMITTER_EMAIL={env} is set in this environment and comes first: set it to that address instead)"
    return Refused(said, hint=f"approve as the e-mail the key is listed for: {how}, then approve again")


def suite_changes(cases: tuple[str, ...], task_id: str | None, ctx: Context | None = None) -> ChangesOf:
    """What `approve suite-change CASE...` approves: letting exactly ``cases`` of the base's passing
    tests change or go, bound to this repository (its first root commit) and the task's base (read
    with the command's context ``ctx``)."""
    def changes_of(layout: Layout, git: Git) -> tuple[str, list[str]]:
        from harness.core.suite import approval_subject
        from harness.store.tasks import TaskStore

        s = TaskStore(layout, ctx)
        tid = s.current_id(task_id)
        base = s.load(tid, docs=False).proj.base_commit
        if not base:
            raise Refused(f"{tid} has no base commit: there are no base test cases to let go")
        listed = sorted(set(cases))
        digest = hashlib.sha256(approval_subject(git.repository_id(base), base, listed)).hexdigest()
        return digest, [*listed]
    return changes_of


def history_rewrite(new_rev: str, ref: str | None) -> ChangesOf:
    """What `approve history-rewrite NEW` approves: moving ``ref`` (default: HEAD's branch) from
    HEAD — its current tip, named in the approval, on which the approval's commit is made — to
    exactly ``new_rev`` (all zeros: deleting it), in this repository. See harness/history/rewrite.py
    for why the old history carries it."""
    def changes_of(layout: Layout, git: Git) -> tuple[str, list[str]]:
        from harness.history.rewrite import ZERO, approval_subject

        head = git.head()
        if head is None:
            raise Refused("no commit yet: there is no history to replace")
        name = ref or git.run(["symbolic-ref", "-q", "HEAD"], check=False).strip()
        if not name.startswith("refs/"):
            raise Refused("HEAD is on no branch: name the ref to rewrite", hint="--ref refs/heads/main")
        new = ZERO if not new_rev.strip("0") else git.resolve(new_rev)
        digest = hashlib.sha256(approval_subject(git.repository_id(head), name, head, new)).hexdigest()
        return digest, _rewrite_changes(git, name, head, new)
    return changes_of


def _rewrite_changes(git: Git, ref: str, old: str, new: str) -> list[str]:
    from harness.gitio.tree_source import TreeSource
    from harness.history.rewrite import ZERO

    if new == ZERO:
        return [f"deletes {ref} (now at HEAD {old[:12]})"]
    if git.is_ancestor(old, new):
        return []  # a fast-forward replaces nothing
    out = [f"replaces {ref} (now at HEAD {old[:12]}) with {new[:12]}"]
    if not git.merge_bases(old, new):
        out.append(f"{new[:12]} shares no commit with it (an orphan history, with a policy and signers of its own)")
    else:
        out.append(f"{len(git.rev_list([old], [new]))} commit(s) leave its history")
    if TreeSource(git, git.commit_tree(new), "").oid(paths.HARNESS) is None:
        out.append(f"{new[:12]} has no .harness/: the gate, its tasks and approvals leave the ref")
    return out


def _committed(git: Git, rel: str) -> bytes | None:
    head = git.head()
    if not head:
        return None
    from harness.gitio.tree_source import TreeSource

    return TreeSource(git, git.commit_tree(head), "HEAD").read(rel)


def gate_changes(layout: Layout, git: Git) -> tuple[str, list[str]]:
    from harness.gate.loosening import loosening_of
    from harness.store import settings

    new = settings.load_gate(layout)
    from harness.gate.facts import configured_types
    from harness.store.source import FsSource

    return new.digest, loosening_of(_committed(git, paths.GATE), new, configured_types(FsSource(layout.root)))


def config_changes(layout: Layout, git: Git) -> tuple[str, list[str]]:
    """What `approve config-change` approves: the working config.yaml's change from HEAD's, every item the commit
    rule asks a human for (evidence commands, dropped redaction patterns: read 102's F-0359), as it shows them."""
    from harness.gate.config_approval import needing_approval
    from harness.gitio.tree_source import of_head
    from harness.store.source import FsSource

    old = of_head(git)
    needs = needing_approval(old, FsSource(layout.root), _shown_command(layout, old))
    return hashlib.sha256(bounded.read(layout.config, "settings", paths.CONFIG) or b"").hexdigest(), needs.items


def committed_config_changes(rev: str) -> ChangesOf:
    """What `approve config-change --commit REV` approves: the change commit REV made to config.yaml, from its first
    parent's file to its own — a step of the line from a task's base the gate walks, committed without an approval
    (read 102's F-0360); bound to that parent's file (:func:`step_parent`), as the gate checks it."""
    def changes_of(layout: Layout, git: Git) -> tuple[str, list[str]]:
        from harness.gate.config_approval import needing_approval
        from harness.gitio.tree_source import of_commit

        commit = git.resolve(rev)
        new, old = of_commit(git, commit), of_commit(git, step_parent(rev)(git))
        assert new is not None and old is not None  # both resolved just now
        needs = needing_approval(old, new, _shown_command(layout, old))
        return hashlib.sha256(new.read(paths.CONFIG) or b"").hexdigest(), needs.items
    return changes_of


def step_parent(rev: str) -> Callable[[Git], str]:
    """The commit a `--commit REV` approval is bound from: REV's first parent (the gate's line follows first parents)."""
    def parent(git: Git) -> str:
        commit = git.resolve(rev)
        parents = git.parents(commit)
        if not parents:
            raise Refused(f"{rev} has no parent: the commit that adopts the harness configures its commands itself",
                          hint="approve a later commit's change, or the working tree's (`harness approve config-change`)")
        return parents[0]
    return parent


def _shown_command(layout: Layout, before: Source | None = None) -> Callable[[list[str]], str]:
    """How an approval spells a command or a pattern: redacted as a record's argv is, with config.yaml's own patterns
    and those of the file it changes (``before``: a dropped pattern is one of them) (read 63b's F-0174: joined
    unredacted, `grep -rn password: config/` was refused at commit, and the signed line cannot change)."""
    from harness.core.redact import redact_argv
    from harness.errors import HarnessError
    from harness.store import secrets_check, settings

    try:
        patterns = tuple(settings.load_config(layout).redaction)
    except HarnessError:  # an unreadable config is refused by the approval's own check: redact with the own rules
        patterns = ()
    try:
        patterns += tuple(p for p in (settings.config_of(before).redaction if before is not None else ())
                          if p not in patterns)
    except HarnessError:
        pass  # a file that does not load drops no pattern (gate/config_approval.py)
    red = secrets_check.redactor(patterns)
    # An approval is no ledger's: the commit check reads it as a person's text, so a variable's name stays out (F-0237).
    return lambda argv: secrets_check.unnamed_env(" ".join(redact_argv(argv, red)))


def signers_changes(layout: Layout, git: Git) -> tuple[str, list[str]]:

    path = layout.root / paths.ALLOWED_SIGNERS
    new = bounded.read(path, "approvals", paths.ALLOWED_SIGNERS) or b""
    old = _committed(git, paths.ALLOWED_SIGNERS) or b""
    before, after = set(old.decode("utf-8", "replace").splitlines()), set(new.decode("utf-8", "replace").splitlines())
    def entries(lines: set[str]) -> list[str]:
        return [line.split()[0] for line in sorted(lines) if line.strip() and not line.startswith("#")]

    changes = ([f"adds signer {who}" for who in entries(after - before)]
               + [f"removes signer {who}" for who in entries(before - after)])
    if old != new and not changes:
        changes = ["rewrites the file (comments or order)"]
    return hashlib.sha256(new).hexdigest(), changes if old != new else []


def signing_key(git: Git, key: str | None) -> str:
    key = key or git.config_get("user.signingKey")
    if not key:
        raise Refused("no SSH key to sign the approval with",
                      hint="pass --key ~/.ssh/id_ed25519 (or set git config user.signingKey, as for signed commits)")
    return key
