"""Human approvals of a policy change, bound to the file's exact bytes and signed with the approver's SSH key.

Two steps with a person's confirmation between them: what the change loosens (and the key to
sign with), then the signed, verified approval appended to .harness/approvals.jsonl.
"""

from __future__ import annotations

import getpass
import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from harness import paths
from harness.errors import Refused
from harness.store import bounded, fsio

if TYPE_CHECKING:
    from harness.context import Context
    from harness.core.redact import Redactor
    from harness.gitio.git import Git
    from harness.signatures import trust
    from harness.store.layout import Layout
    from harness.store.source import Source

ChangesOf = Callable[["Layout", "Git"], "tuple[str, list[str]] | Proposed"]


@dataclass(frozen=True)
class Proposed:
    """A policy file's change from one parent's file: what an approval of it signs (``changes``, spelled as the
    committed line must be) and, when that is not what the approver reads, ``shown`` (read 154's F-0545)."""
    digest: str                # sha-256 of the exact bytes approved
    changes: list[str]
    shown: list[str] | None = None


# The working file's change from a parent's file (None: no commit yet), for the kinds bound to a file.
FromParent = Callable[["Layout", "Git", "Source | None"], Proposed]


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
    shown: list[str] | None = None  # what the approver reads, when not ``changes`` (read 154's F-0545)
    # A merge in progress: one approval against each parent whose file the merge changes, each bound to that parent's
    # file as the commit rule asks (read 154's F-0542); ``changes`` then lists them all, each naming its parent.
    sides: tuple[Pending, ...] = ()

    @property
    def lines(self) -> list[str]:
        """What the terminal shows before the approver types."""
        return self.changes if self.shown is None else self.shown


@dataclass(frozen=True)
class Approved:
    rel: str
    who: str
    signer: str
    against: str | None = None  # as Pending's: a committed change was approved, the file is already committed
    parents: tuple[str, ...] = ()  # a merge's: the parents an approval was recorded against, one line each


def pending_approval(kind: str, rel: str, what: str, changes_of: ChangesOf, layout: Layout, git: Git,
                     key: str | None, against: str | None = None) -> Pending:
    from_parent = _FROM_PARENT.get(changes_of) if against is None else None
    parents = _merge_parents(git) if from_parent is not None else []
    if from_parent is not None and len(parents) > 1:
        pending = _merge_pending(kind, rel, what, from_parent, parents, layout, git)
    else:
        found = from_parent(layout, git, _head_source(git)) if from_parent else _as_proposed(changes_of(layout, git))
        pending = Pending(kind, rel, what, found.digest, found.changes, key, against, found.shown)
    if pending.changes:
        key = signing_key(git, key)  # asked before the prompt: nothing to type for an approval that cannot be signed
        if git.head() and git.is_shallow():  # every kind names the repository (#27's task F-0007)
            raise Refused("a shallow clone cannot name its repository (its first root commit) for the approval",
                          hint="git fetch --unshallow, then approve again")
    return replace(pending, key=key)


def _as_proposed(found: tuple[str, list[str]] | Proposed) -> Proposed:
    return found if isinstance(found, Proposed) else Proposed(*found)


def _head_source(git: Git) -> Source | None:
    from harness.gitio.tree_source import of_head

    return of_head(git)


def _merge_parents(git: Git) -> list[str]:
    """HEAD and the commits a merge in progress brings in (MERGE_HEAD): the parents its commit will have."""
    head = git.head()
    return [head, *git.merge_heads()] if head else []


def _merge_pending(kind: str, rel: str, what: str, from_parent: FromParent, parents: list[str], layout: Layout,
                   git: Git) -> Pending:
    """What approving the merged file approves: its change from each parent's file that needs an approval, one
    approval each (a parent whose file it keeps, or only tightens, needs none). The commit rule asks each parent for
    an approval bound to that parent's file, and approving at HEAD alone covered the first (read 154's F-0542)."""
    from harness.gitio.tree_source import TreeSource

    sides, found = [], None
    for n, commit in enumerate(parents):
        label = f"{'HEAD' if n == 0 else 'MERGE_HEAD'} {commit[:12]}"
        found = from_parent(layout, git, TreeSource(git, git.commit_tree(commit), label, rev=commit))
        if found.changes:
            sides.append((label, Pending(kind, rel, what, found.digest, found.changes, None, commit, found.shown)))
    assert found is not None  # a merge has two parents at least
    changes = [f"against {label}: {c}" for label, side in sides for c in side.changes]
    shown = [f"against {label}: {c}" for label, side in sides for c in side.lines]
    what = f"{what} (a merge: one approval against each parent's file it changes)" if sides else what
    return Pending(kind, rel, what, found.digest, changes, None, None, shown, tuple(side for _, side in sides))


def record_approval(p: Pending, layout: Layout, git: Git, on_wait: Callable[[str], None] | None = None) -> Approved:
    """Sign the approval (a merge's: one per parent it is given against), check each as every hook will, and append
    them (under the store lock; ``on_wait`` hears that another command holds it)."""
    who = git.ident()
    if not who or "<" not in who:
        raise Refused("git does not know who you are", hint="git config user.name/user.email, then approve again")
    from harness.signatures import trust

    signer = who.rsplit("<", 1)[1].rstrip(">").strip()
    signers = trust.Signers(lambda: git)
    # Each checked before anything is written: an approval that would count as none must not look like one.
    lines = ([_signed_line(side, who, signer, p.key, git, signers, f"parent {side.against[:12]}")
              for side in p.sides if side.against] or [_signed_line(p, who, signer, p.key, git, signers)])
    path = layout.root / paths.APPROVALS
    with fsio.locked(layout.lock, on_wait=on_wait, folder=layout.harness):  # the store's lock, as TaskStore takes it
        existing = bounded.read(path, "approvals", paths.APPROVALS) or b""
        if existing and not existing.endswith(b"\n"):
            # A committed file may end without its newline (the commit hook accepts it): the approval is a line of
            # its own, never glued onto the last one (read 154's F-0544); the append-only rule compares lines.
            existing += b"\n"
        fsio.atomic_write(path, existing + b"".join(lines))
    return Approved(p.rel, who, signer, p.against, tuple(s.against for s in p.sides if s.against))


def _signed_line(p: Pending, who: str, signer: str, key: str | None, git: Git, signers: trust.Signers,
                 label: str = "HEAD") -> bytes:
    """``p``'s approval as an approvals.jsonl line, signed as ``signer`` with ``key`` and bound to the file as HEAD (or
    ``p.against``, named ``label``) has it; refused when it would not count there, as every hook checks it."""
    from harness.core import approvals as rules
    from harness.gitio.tree_source import TreeSource
    from harness.signatures import signing, trust
    from harness.store.tasks import now_iso

    head = p.against or git.head()
    parent = [TreeSource(git, git.commit_tree(head), label, rev=head)] if head else []
    entry = {"kind": p.kind, "digest": p.digest, "changes": p.changes, "approved_by": who, "signer": signer,
             "os_user": getpass.getuser(), "at": now_iso()}
    rel = rules.FILES.get(p.kind)
    if rel is not None:  # bound to this repository and to the file as HEAD (or p.against) has it: what it loosens from
        entry |= rules.binding(parent[0].repository_id() if parent else None, parent[0].read(rel) if parent else None)
    signature = signing.sign(rules.payload(entry), signing_key(git, key), rules.NAMESPACE)
    entry["signature"] = signature
    line = json.dumps(entry, sort_keys=True).encode() + b"\n"
    ok, why = trust.approved(line, p.kind, p.digest, parent, signers)
    if not ok:
        raise _not_counted(why, signer, trust.listed_for(signature, parent, signers))
    return line


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
        _refuse_secrets(listed, s.redactor())
        digest = hashlib.sha256(approval_subject(git.repository_id(base), base, listed)).hexdigest()
        return digest, [*listed]
    return changes_of


def _refuse_secrets(cases: list[str], red: Redactor) -> None:
    """Refuse case ids holding a secret-shaped value before anything is shown, signed or written: they are signed
    as given and committed in clear (their digest is what the gate checks: a marker would approve another case),
    where the commit check then refuses the line and the secret stays on disk (read 155's F-0547)."""
    held = [n for n, case in enumerate(cases, 1) if red.redact(case) != case]
    if held:
        shown = ", ".join(red.redact(cases[n - 1]) for n in held)
        raise Refused(f"{len(held)} of the case ids holds a secret-shaped value ({shown}): an approval signs its case "
                      "ids as given and commits them in clear, so nothing signed, nothing written",
                      hint="name the case without the secret (a test's parameter id: pytest's `ids=`), then approve "
                           "again")


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


def gate_changes(layout: Layout, git: Git) -> tuple[str, list[str]]:
    found = gate_from(layout, git, _head_source(git))
    return found.digest, found.changes


def gate_from(layout: Layout, git: Git, parent: Source | None) -> Proposed:
    """How the working gate.yaml loosens ``parent``'s (None: the defaults `harness init` writes)."""
    from harness.gate.facts import configured_types
    from harness.gate.loosening import loosening_of
    from harness.store import settings
    from harness.store.source import FsSource

    new = settings.load_gate(layout)
    old = parent.read(paths.GATE) if parent is not None else None
    return Proposed(new.digest, loosening_of(old, new, configured_types(FsSource(layout.root))))


def config_changes(layout: Layout, git: Git) -> tuple[str, list[str]]:
    """What `approve config-change` approves: the working config.yaml's change from HEAD's, every item the commit
    rule asks a human for (evidence commands, dropped redaction patterns: read 102's F-0359), as it signs them."""
    found = config_from(layout, git, _head_source(git))
    return found.digest, found.changes


def config_from(layout: Layout, git: Git, parent: Source | None) -> Proposed:
    """The working config.yaml's change from ``parent``'s, signed and shown (:func:`_config_step`)."""
    from harness.store.source import FsSource

    raw = bounded.read(layout.config, "settings", paths.CONFIG) or b""
    return _config_step(layout, parent, FsSource(layout.root), hashlib.sha256(raw).hexdigest())


def _config_step(layout: Layout, old: Source | None, new: Source, digest: str) -> Proposed:
    """config.yaml going from ``old``'s to ``new``'s: what needs approval, signed redacted as the commit's secret check
    reads it, and shown redacted with ``old``'s patterns and the built-in rules only, beside the patterns the change
    adds: a pattern the change brings cannot hide the change from the one approving it (read 154's F-0545)."""
    from harness.gate.config_approval import needing_approval

    needs = needing_approval(old, new, _shown_command(layout, old))
    if not needs.items:
        return Proposed(digest, [])
    before = _patterns_of(old)
    spelled = _spelling(before)
    shown = needing_approval(old, new, spelled).items
    added = [p for p in _patterns_of(new) if p not in before]
    shown += [f"redaction.patterns adds {spelled([p])!r} (not applied to what is shown here)" for p in added]
    return Proposed(digest, needs.items, shown)


def _patterns_of(src: Source | None) -> tuple[str, ...]:
    """``src``'s config.yaml's `redaction.patterns` (none when absent or not loading)."""
    from harness.errors import HarnessError
    from harness.store import settings

    try:
        return tuple(settings.config_of(src).redaction) if src is not None else ()
    except HarnessError:
        return ()  # a file that does not load names no pattern (gate/config_approval.py)


def committed_config_changes(rev: str) -> ChangesOf:
    """What `approve config-change --commit REV` approves: the change commit REV made to config.yaml, from its first
    parent's file to its own — a step of the line from a task's base the gate walks, committed without an approval
    (read 102's F-0360); bound to that parent's file (:func:`step_parent`), as the gate checks it."""
    def changes_of(layout: Layout, git: Git) -> Proposed:
        from harness.gitio.tree_source import of_commit

        commit = git.resolve(rev)
        new, old = of_commit(git, commit), of_commit(git, step_parent(rev)(git))
        assert new is not None and old is not None  # both resolved just now
        return _config_step(layout, old, new, hashlib.sha256(new.read(paths.CONFIG) or b"").hexdigest())
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
    """How an approval's signed line spells a command or a pattern: redacted as a record's argv is, with config.yaml's
    own patterns and those of the file it changes (``before``: a dropped pattern is one of them) (read 63b's F-0174:
    joined unredacted, `grep -rn password: config/` was refused at commit, and the signed line cannot change)."""
    from harness.errors import HarnessError
    from harness.store import settings

    try:
        patterns = tuple(settings.load_config(layout).redaction)
    except HarnessError:  # an unreadable config is refused by the approval's own check: redact with the own rules
        patterns = ()
    return _spelling(patterns + tuple(p for p in _patterns_of(before) if p not in patterns), " ".join)


def _spelling(patterns: tuple[str, ...], words: Callable[[list[str]], str] | None = None) -> Callable[[list[str]], str]:
    """A command or a pattern spelled redacted with the built-in rules and ``patterns``: for the approver's eyes with
    its words' boundaries (:func:`~harness.core.policy.spelled_argv`: read 156's F-0550), in the signed line joined as
    a record's argv is (``words``), which the commit check reads as a person's text (JSON's quotes around a redacted
    word would read as a value after `password:`)."""
    from harness.core.policy import spelled_argv
    from harness.core.redact import redact_argv
    from harness.store import secrets_check

    red = secrets_check.redactor(patterns)
    join = words or spelled_argv
    # An approval is no ledger's: the commit check reads it as a person's text, so a variable's name stays out (F-0237).
    return lambda argv: secrets_check.unnamed_env(join(redact_argv(argv, red)))


def signers_changes(layout: Layout, git: Git) -> tuple[str, list[str]]:
    found = signers_from(layout, git, _head_source(git))
    return found.digest, found.changes


def signers_from(layout: Layout, git: Git, parent: Source | None) -> Proposed:
    """Who the working allowed_signers adds and removes from ``parent``'s (None: no commit yet, an empty list)."""
    path = layout.root / paths.ALLOWED_SIGNERS
    new = bounded.read(path, "approvals", paths.ALLOWED_SIGNERS) or b""
    old = (parent.read(paths.ALLOWED_SIGNERS) if parent is not None else None) or b""
    before, after = set(old.decode("utf-8", "replace").splitlines()), set(new.decode("utf-8", "replace").splitlines())
    def entries(lines: set[str]) -> list[str]:
        return [line.split()[0] for line in sorted(lines) if line.strip() and not line.startswith("#")]

    changes = ([f"adds signer {who}" for who in entries(after - before)]
               + [f"removes signer {who}" for who in entries(before - after)])
    if old != new and not changes:
        changes = ["rewrites the file (comments or order)"]
    return Proposed(hashlib.sha256(new).hexdigest(), changes if old != new else [])


# The working-tree approvals bound to a file, and their change from any parent's file: during a merge `approve` asks
# each parent (read 154's F-0542), and what the terminal shows is asked here too (F-0545).
_FROM_PARENT: dict[ChangesOf, FromParent] = {gate_changes: gate_from, config_changes: config_from,
                                             signers_changes: signers_from}


def signing_key(git: Git, key: str | None) -> str:
    key = key or git.config_get("user.signingKey")
    if not key:
        raise Refused("no SSH key to sign the approval with",
                      hint="pass --key ~/.ssh/id_ed25519 (or set git config user.signingKey, as for signed commits)")
    return key
