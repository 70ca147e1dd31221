"""A protected ref's history is only ever extended: the rules on a push as a whole.

Every commit a push brings is checked against its parents (history.py); what no commit check
sees is the ref itself moving to *another* history: a force push that drops judged commits, an
orphan history that adopts the harness again under a policy of its own (a `true` test command,
its own approvers), or a history without `.harness/` at all. On a protected ref each of these
is refused — by the server's pre-receive hook and by `harness audit` after a push — unless a
human approved exactly that rewrite.

The approval lives in the *old* history: the commit the ref points at adds a signed
`history-rewrite` record naming the repository, the ref, the tip it was given at and the exact
new tip (an approval in the new history could not name the commit that carries it, and a history
without `.harness/` has nowhere to carry one). It is verified against that old tip's signers (or
the trust root outside the repository), and it counts only while the ref points at a commit
whose one parent is the tip it was given at: once anyone pushes on top, the rewrite would drop
work the approver never saw. Naming that tip is what makes it count once: after the rewrite the
tip leaves the ref's history, and a copy of the line added later sits on another parent.
"""

from __future__ import annotations

import fnmatch
import hashlib
import json
from typing import TYPE_CHECKING

from harness import paths
from harness.history.change_rules import Problem

if TYPE_CHECKING:
    from harness.gitio.git import Git
    from harness.gitio.tree_source import TreeSource
    from harness.signatures.published_line import LineTip
    from harness.signatures.trust import Signers

KIND = "history-rewrite"
ZERO = "0" * 40
DEFAULT = "default"        # in gate.yaml `history.protected`: the repository's default branch
CONFIG_KEY = "harness.protectedRef"  # the server's (or CI clone's) own list: no push can change it
FIX = ("push on top of the ref's history instead (merge or revert, never force); if replacing it is "
       "intended, a human approves exactly this rewrite: on a checkout of the ref's current tip, "
       "`harness approve history-rewrite {new} --ref {ref}`, commit and push that approval, then push again")


def approval_subject(repository: str, ref: str, at: str, new: str) -> bytes:
    """What a `history-rewrite` approval's digest is the sha-256 of: this repository, this ref, the
    tip ``at`` it was given at (HEAD, where the approver saw the ref) and this exact new tip (all
    zeros: deleting the ref)."""
    return json.dumps({"repository": repository, "ref": ref, "old": at, "new": new}, sort_keys=True).encode()


def unbound_subject(repository: str, ref: str, new: str) -> bytes:
    """What an approval signed before it named the tip it was given at is the digest of: it counts
    for nothing now (a copy of its line re-added later replayed it), and the refusal says so."""
    return json.dumps({"repository": repository, "ref": ref, "new": new}, sort_keys=True).encode()


def default_branches(git: Git, remote: str = "origin") -> set[str]:
    """The refs `default` names: main and master, and what the repository says its default is —
    a bare repository's HEAD (a server), a clone's `<remote>/HEAD` (CI). A clone's own HEAD is
    whatever branch CI checked out, so it names nothing here."""
    out = {"refs/heads/main", "refs/heads/master"}
    if git.is_bare:
        target = git.run(["symbolic-ref", "-q", "HEAD"], check=False).strip()
        if target.startswith("refs/heads/"):
            out.add(target)
    target = git.run(["symbolic-ref", "-q", f"refs/remotes/{remote}/HEAD"], check=False).strip()
    if target.startswith(f"refs/remotes/{remote}/"):
        out.add("refs/heads/" + target.removeprefix(f"refs/remotes/{remote}/"))
    return out


def protected_patterns(git: Git, policy: TreeSource | None) -> list[str]:
    """Which refs are protected: git config `harness.protectedRef` (every value) and gate.yaml's
    `history.protected` as ``policy`` — the old tip, already accepted — has it (default:
    `[default]`). Never the pushed tree's: a push must not unprotect the ref it rewrites."""
    from harness.core.tree_listing import ListingRefused
    from harness.errors import HarnessError
    from harness.store import settings

    listed = [DEFAULT]
    try:
        raw = policy.read(paths.GATE) if policy is not None else None
    except ListingRefused:  # which refs the old tip protected cannot be read: every ref is held to the rules
        return [*git.config_get_all(CONFIG_KEY), "*"]
    if raw is not None:
        try:
            listed = list((settings.parse_gate(raw).doc.get("history") or {}).get("protected", [DEFAULT]))
        except HarnessError:
            pass  # an invalid policy protects at least the default branch
    return [*git.config_get_all(CONFIG_KEY), *listed]


def is_protected(git: Git, ref: str, patterns: list[str], remote: str = "origin") -> bool:
    names = [p for p in patterns if p != DEFAULT]
    return (DEFAULT in patterns and ref in default_branches(git, remote)) \
        or any(fnmatch.fnmatchcase(ref, p) for p in names)


def protected_tips_held(git: Git) -> list[LineTip]:
    """The protected refs' tips as this repository holds them now — on a server, inside pre-receive, their values
    before the push — each judged protected by its own tip's policy, as :func:`history_problems` judges a move of
    it: the published line an approval already spent on counts nowhere else (read 154's F-0543)."""
    from harness.gitio.tree_source import TreeSource
    from harness.history.incoming import shown_ref
    from harness.signatures.published_line import LineTip

    out = []
    for line in git.run(["for-each-ref", "--format=%(objectname) %(refname)"]).splitlines():
        oid, _, ref = line.partition(" ")
        tip = git.peel_commit(oid)
        if tip is None:
            continue  # a ref to a blob or a tree holds no approvals
        policy = TreeSource(git, git.commit_tree(tip), f"commit {tip[:12]}", rev=tip)
        if is_protected(git, ref, protected_patterns(git, policy)):
            out.append(LineTip(tip, f"{shown_ref(ref)} ({tip[:12]})"))
    return out


def history_problems(git: Git, ref: str | None, old: str, new: str, signers: Signers,
                     remote: str = "origin") -> list[Problem]:
    """Why moving ``ref`` from ``old`` to ``new`` (all zeros: created / deleted) replaces its
    history without an approval a human signed (verified against ``old``'s signers, or the command's
    own root, ``signers``); [] for a creation, a fast-forward, an unprotected ref.
    ``ref`` None: the caller cannot say which ref moved (an audit without --ref), so it is held
    to the protected rules: failing closed, never a pass over a rewrite it could not place."""
    from harness.gitio.tree_source import TreeSource

    if not old.strip("0"):
        return []  # a new ref replaces nothing (its commits are each checked as usual)
    old_tip = git.peel_commit(old) if git.has_object(old) else None
    new_tip = None if not new.strip("0") else git.peel_commit(new)
    policy = TreeSource(git, git.commit_tree(old_tip), f"commit {old_tip[:12]}", rev=old_tip) if old_tip else None
    if ref is not None and not is_protected(git, ref, protected_patterns(git, policy), remote):
        return []
    from harness.history.incoming import shown_ref

    fix = FIX.format(new=(new_tip or new)[:12], ref=shown_ref(ref) if ref is not None else "REF")
    shown = shown_ref(ref) if ref is not None else "the pushed ref"
    if ref is None:
        ref = "the pushed ref"
        fix = ("name the ref that moved (`harness audit --ref refs/heads/NAME`, CI's pushed ref): the rule holds for "
               "protected refs only, and is applied to a ref the audit cannot name; " + fix)
    if policy is None or old_tip is None:
        # Were it in the new history, this clone (full history) would have it: the ref was rewritten.
        return [Problem(shown, "history-only-extends", f"the previous tip {old[:12]} of {shown} is not in the new "
                        "history and cannot be had here: its history was replaced, and no approval can be read",
                        fix)]
    found = _rewrites(git, shown, old_tip, new_tip, policy)
    if not found:
        return []
    ok, why = approved(git, ref, old_tip, new_tip or ZERO, policy, signers)
    if ok:
        return []
    return [Problem(shown, rule, text + (f" ({why})" if why else ""), fix) for rule, text in found]


def _rewrites(git: Git, ref: str, old: str, new: str | None, policy: TreeSource) -> list[tuple[str, str]]:
    """(rule, what) for each way ``old`` → ``new`` replaces history rather than extending it."""
    from harness.gitio.tree_source import TreeSource

    if new is None:
        return [("history-only-extends", f"deletes the protected ref {ref} (at {old[:12]}): a deleted ref can be "
                 "created again with any history")]
    out = []
    if old != new and not git.is_ancestor(old, new):
        if not git.merge_bases(old, new):
            out.append(("no-orphan-history", f"replaces {ref} ({old[:12]}) with {new[:12]}, a history that shares "
                        "no commit with it: an orphan history adopts the harness again under a policy of its own"))
        else:
            dropped = len(git.rev_list([old], [new]))
            out.append(("history-only-extends", f"moves {ref} from {old[:12]} to {new[:12]}, which does not descend "
                        f"from it (a non-fast-forward push): {dropped} commit(s) leave its history"))
    if _with_harness(policy) and _without_harness(TreeSource(git, git.commit_tree(new), "")):
        out.append(("harness-kept", f"{ref} carried .harness/ at {old[:12]} and {new[:12]} has none: the gate, its "
                    "tasks and its approvals would leave the protected history"))
    return out


def _with_harness(tip: TreeSource) -> bool:
    """Whether ``tip`` (an old tip) carries `.harness`; one whose root listing the readers refuse is taken to."""
    from harness.core.tree_listing import ListingRefused

    try:
        return tip.oid(paths.HARNESS) is not None
    except ListingRefused:
        return True


def _without_harness(tip: TreeSource) -> bool:
    """Whether ``tip`` has no `.harness` folder; a root listing the readers refuse is left to the commit checks,
    which refuse it by name (fsck-clean-tree)."""
    from harness.core.tree_listing import ListingRefused

    try:
        return tip.oid(paths.HARNESS) is None
    except ListingRefused:
        return False


def approved(git: Git, ref: str, old: str, new: str, policy: TreeSource, signers: Signers) -> tuple[bool, str | None]:
    """Whether ``old`` adds a signed approval of moving ``ref`` to exactly ``new``, given at ``old``'s
    one parent (the approval's own commit sits on the tip the approver saw), verified against
    ``old``'s signers (or the trust root outside the repository); else why a claimed one does not count."""
    from harness.core import approvals as rules
    from harness.signatures import trust

    repository, raw = git.repository_id(old), policy.read(paths.APPROVALS)
    parents = git.parents(old)
    # One parent only: a merge of the tip an approval was given at (dropped by that rewrite) would
    # otherwise carry a copy of its line, added again, as if on that tip.
    at = parents[0] if len(parents) == 1 else None
    digest = hashlib.sha256(approval_subject(repository, ref, at, new)).hexdigest() if at else None
    claims = rules.candidates(raw, KIND, digest) if digest else []
    if not claims:
        return False, _why_none(git, repository, ref, old, new, raw)
    reasons = []
    for record in claims:
        why = trust.signature_problem(record, trust.roots([policy], signers))
        if why is None:
            return True, None
        reasons.append(why)
    return False, "; ".join(reasons)


def _why_none(git: Git, repository: str, ref: str, old: str, new: str, raw: bytes | None) -> str | None:
    """Why no approval in ``old``'s ``raw`` approvals speaks to moving ``ref`` from ``old`` to ``new``
    here: one signed before approvals named their tip, or one given at an older tip of the ref (it has
    moved on since); None when none claims this move at all."""
    from harness.core import approvals as rules

    signed = {r.get("digest"): r for r in rules.records(raw) if r.get("kind") == KIND}
    if not signed:
        return None
    legacy = signed.get(hashlib.sha256(unbound_subject(repository, ref, new)).hexdigest())
    if legacy is not None:
        return (f"the approval signed by {legacy.get('signer')} names no tip it was given at (signed by an older "
                "harness, a copy of its line could be added again after the rewrite it approved): approve again")
    for earlier in reversed(git.rev_list([old], [])):
        found = signed.get(hashlib.sha256(approval_subject(repository, ref, earlier, new)).hexdigest())
        if found is not None:
            return (f"the approval signed by {found.get('signer')} was given at {earlier[:12]}, and {ref} has moved on "
                    f"since to {old[:12]}: the rewrite would drop commits it never saw; approve again")
    return None
