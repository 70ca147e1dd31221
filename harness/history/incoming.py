"""Which commits a push, a merge or an audit brings, and their validation one by one."""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from harness import paths
from harness.core.tree_listing import ListingRefused
from harness.errors import HarnessError
from harness.gitio.git import Git
from harness.gitio.tree_source import TreeSource
from harness.history.change_rules import Problem, TaskVerdict, validate_change
from harness.signatures.trust import Signers

ZERO = "0" * 40
_OID = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")  # sha-1 or sha-256 object names, as git writes them


@dataclass(frozen=True)
class FrameworkPush:
    """The one ref the pre-commit framework's pre-push hook names, in PRE_COMMIT_* variables (it gives no standard
    input): each field as the framework set it, "" when it set none. Each reader keeps its own trust in them."""

    local_branch: str  # PRE_COMMIT_LOCAL_BRANCH
    to_ref: str        # PRE_COMMIT_TO_REF: none when the pushed history reaches a root commit
    remote_branch: str  # PRE_COMMIT_REMOTE_BRANCH
    from_ref: str      # PRE_COMMIT_FROM_REF: from this clone's refs/remotes for a new remote ref


def framework_push(stdin_lines: Sequence[str | bytes]) -> FrameworkPush | None:
    """The framework's pushed ref when the hook got no ref lines and runs under the framework, else None."""
    env = os.environ
    if stdin_lines or not ("PRE_COMMIT_TO_REF" in env or "PRE_COMMIT_LOCAL_BRANCH" in env):
        return None
    return FrameworkPush(*(env.get(f"PRE_COMMIT_{name}", "") for name in
                           ("LOCAL_BRANCH", "TO_REF", "REMOTE_BRANCH", "FROM_REF")))


def ref_lines(lines: Sequence[str | bytes], oids: tuple[int, ...], form: str) -> list[list[str]]:
    """The fields of each line git gives a push hook, blank lines skipped. A line of another
    shape is refused, never skipped: skipped, it would check nothing and pass. Split from the
    right: the first field of a pre-push line is what the user typed as the source
    (`HEAD^{/fix bug}`, `main@{1 day ago}`) and may hold spaces; the others never do.

    A line is bytes as git wrote it: a ref name is any bytes git allows, UTF-8 or not. Its fields
    are decoded with surrogateescape, so a name encodes back to exactly its bytes (`ref_bytes`);
    :func:`shown_ref` is the form to print."""
    out = []
    fields = form.count("<")
    for raw in lines:
        line = raw.decode("utf-8", "surrogateescape") if isinstance(raw, bytes) else raw
        parts = line.rsplit(None, fields - 1)
        if not parts:
            continue
        if len(parts) != fields or not all(_OID.fullmatch(parts[i]) for i in oids):
            raise HarnessError(f"not a line git gives this hook: {shown_ref(line[:200])!r} (expected `{form}`)",
                               hint="the hook reads the refs git is pushing from its standard input; "
                                    "run it as git's hook")
        out.append(parts)
    return out


def ref_bytes(ref: str) -> bytes:
    """A ref name as :func:`ref_lines` read it, as the bytes git gave."""
    return ref.encode("utf-8", "surrogateescape")


def shown_ref(ref: str) -> str:
    """A ref name as text every output can carry: a byte that is not UTF-8 shown as \\xNN."""
    return ref_bytes(ref).decode("utf-8", "backslashreplace")


@dataclass
class CommitReport:
    commit: str
    problems: list[Problem] = field(default_factory=list)
    verdicts: list[TaskVerdict] = field(default_factory=list)

    def gated(self) -> list[TaskVerdict]:
        """Tasks this commit moves into CONVERGED or DONE (their gate was recomputed)."""
        return [v for v in self.verdicts if v.gate is not None]


def check_commit(git: Git, commit: str, signers: Signers, only_gated: bool = False) -> CommitReport:
    tree = git.commit_tree(commit)
    olds = [TreeSource(git, git.commit_tree(p), f"commit {p[:12]}", rev=p) for p in git.parents(commit)]
    new = TreeSource(git, tree, f"commit {commit[:12]}", rev=commit)
    problems = unreadable_trees(git, tree, olds)
    if problems:
        return CommitReport(commit, problems, [])
    found, verdicts = validate_change(olds, new, git.strip_harness(tree), signers, only_gated)
    problems.extend(found)
    problems.extend(_second_adoption(git, commit))
    problems.extend(_same_repository(git, commit))
    return CommitReport(commit, problems, verdicts)


def unreadable_trees(git: Git, tree: str, olds: list[TreeSource]) -> list[Problem]:
    """fsck-clean-tree for ``tree`` and for each parent's tree it is judged against: a listing the readers refuse
    leaves nothing of the change readable as a checkout holds it, so no other rule is asked (they would read it)."""
    # A .harness left as a parent had it was that parent's to answer for (read 122's F-0440: the commit hook's fast
    # path compares the entry alone): neither this tree's copy nor that parent's is looked into again.
    parents = {old.tree_id: git.harness_entry_id(old.tree_id) for old in olds}
    inherited = frozenset(oid for oid in parents.values() if oid is not None)
    problems = malformed_tree(git, tree, inherited)
    mine = git.harness_entry_id(tree)
    for old in olds if not problems else ():  # a sound tree on a parent the readers refuse is not judged either
        if mine is not None and parents[old.tree_id] == mine:
            continue
        problems.extend(Problem(p.file, p.rule, f"its parent {(old.rev or '')[:12]}'s {p.message}", p.fix)
                        for p in malformed_tree(git, old.tree_id))
    return problems


def malformed_tree(git: Git, tree: str, inherited: frozenset[str] = frozenset()) -> list[Problem]:
    """A tree git's own fsck rejects is refused whatever the server's receive.fsckObjects says:
    with two `.harness` entries the checks read one and a checkout writes the other."""
    return [Problem(where.split(":", 1)[0], "fsck-clean-tree", where,
                    "rebuild the commit from a normal checkout (`git add` and `git commit` never write such a "
                    "tree; it was made by hand, with `git mktree` or `git hash-object --literally`)")
            for where in git.malformed_entries(tree, inherited)]


def _carries_harness(git: Git, commit: str) -> bool:
    return TreeSource(git, git.commit_tree(commit), "").oid(paths.HARNESS) is not None


def _unreadable_root(rule: str, refused: ListingRefused, verb: str, unknown: str, hint: str) -> Problem:
    """``rule``'s refusal of a merge that ``verb`` a commit whose root listing the readers refuse: what the rule
    asks of that commit, ``unknown``, cannot be read, so the merge is refused by it (fail-closed)."""
    return Problem(paths.HARNESS + "/", rule, f"{verb} a commit whose root the readers refuse "
                   f"({'; '.join(refused.defects)}): {unknown} cannot be read", hint)


def _second_adoption(git: Git, commit: str) -> list[Problem]:
    """A history adopts the harness once. The commit that first adds `.harness/` sets its
    policy and signers unapproved (that is adoption); merging a side that adopted on its own
    (an unrelated root, or a fork from before the adoption) would let tasks judged under that
    self-made policy, and approvals signed by its self-listed keys, into this history."""
    try:
        adopted = [p for p in git.parents(commit) if _carries_harness(git, p)]
        unshared = [o for o in adopted[1:] if not any(_carries_harness(git, b) for b in git.merge_bases(adopted[0], o))]
    except ListingRefused as refused:  # which side adopted cannot be read: refused by the rule (read 124's F-0443)
        return [_unreadable_root("one-adoption", refused, "merges over",
                                 "whether a side adopted the harness on its own",
                                 "bring the work over onto this history (cherry-pick, or a branch from it)")]
    if not unshared:
        return []
    return [Problem(paths.HARNESS + "/", "one-adoption",
                    f"merges {unshared[0][:12]}, a side that adopted the harness on its own (no common ancestor "
                    "carries .harness/: its policy, signers and tasks were never judged under this history's)",
                    "bring the work over onto this history (cherry-pick, or a branch from it) so it is "
                    "judged under this policy")]


def _same_repository(git: Git, commit: str) -> list[Problem]:
    """A merge keeps the repository's name. Approvals are signed for the repository named by the first
    root commit of its history (by id); a merge bringing an unrelated history whose root sorts first
    (one without `.harness/`: the one-adoption rule does not see it) would make this repository that
    one, and an approval signed there count here (#28's task F-0156)."""
    return renamed_by_merge(git, git.parents(commit))


def renamed_by_merge(git: Git, parents: Sequence[str]) -> list[Problem]:
    """The one-repository refusal of a merge of ``parents`` (made, or being concluded: HEAD and MERGE_HEAD),
    or none. Its history's name is the least of its parents' (each the first root of its history)."""
    try:
        adopted = [p for p in parents if _carries_harness(git, p)] if len(parents) > 1 else []
    except ListingRefused as refused:  # a parent's root cannot be read: refused by the rule, fail-closed (F-0445)
        return [_unreadable_root("one-repository", refused, "merges", "whether it would rename the repository",
                                 "rebuild that commit from a normal checkout, then merge again")]
    if not adopted:
        return []
    own_roots = set(git.roots(adopted[0]))
    new = sorted({r for p in parents for r in git.roots(p)} - own_roots)
    if not new:
        return []  # no root the history lacked: its first stays first
    try:
        own = git.repository_id(adopted[0])
    except HarnessError as exc:  # a shallow clone: its first root is below the boundary (#27's task F-0008)
        return [Problem(paths.HARNESS + "/", "one-repository",
                        f"merges a history with a root commit of its own ({new[0][:12]}), and {exc.message}, so "
                        "whether that root would rename the repository cannot be told",
                        exc.hint or "git fetch --unshallow, then merge again")]
    if new[0] > own:
        return []
    return [Problem(paths.HARNESS + "/", "one-repository",
                    f"merges a history whose root commit {new[0][:12]} would name this repository in place of "
                    f"{own[:12]}: approvals signed for that other repository would count here",
                    "bring the other history's files without its commits (`git merge --squash`, or "
                    "`git subtree add --squash`), so the repository keeps its name")]


def push_commits(git: Git, stdin_lines: Sequence[str | bytes], remote: str | None = None) -> tuple[list[str], list[str]]:
    """(commits to check, warnings) for a push: native hook stdin, or the pre-commit framework's env.

    Refs are judged by what they point at, never by their name: a ref called refs/notes/x
    can carry any commit. A commit already on the *target* remote is not checked again.
    """
    from harness.history.stored_parents import require_stored_parents

    require_stored_parents(git)
    env, warnings = os.environ, []
    remote = remote or env.get("PRE_COMMIT_REMOTE_NAME")
    pushed = framework_push(stdin_lines)
    if pushed is not None:
        if any(r.startswith("refs/notes/") for r in (pushed.local_branch, pushed.remote_branch)):
            warnings.append("the pre-commit framework passes only the first pushed ref, here a notes ref: "
                            "if this push also carries branches or tags, they were not checked — push notes "
                            "on their own (`git push origin refs/notes/harness`)")
        if pushed.to_ref and pushed.from_ref:
            return git.rev_list([git.resolve(pushed.to_ref)], [git.resolve(pushed.from_ref)]), warnings
        # Pushing a history that reaches a root commit: pre-commit passes no range.
        tip = git.peel_commit(git.resolve(pushed.local_branch or "HEAD"))
        return (git.rev_list([tip], git.remote_tips(remote)) if tip else []), warnings
    seen: list[str] = []
    for local_ref, local_sha, _remote_ref, remote_sha in ref_lines(
            stdin_lines, (1, 3), "<local ref> <local sha> <remote ref> <remote sha>"):
        if local_sha != ZERO and not git.has_object(local_sha):
            raise HarnessError(f"{shown_ref(local_ref)}: the pushed object {local_sha[:12]} is not in this repository")
        tip = None if local_sha == ZERO else git.peel_commit(local_sha)
        if tip is None:
            continue  # a deletion, or an object that leads to no commit (a tagged blob)
        old = git.peel_commit(remote_sha) if remote_sha != ZERO else None
        for c in git.rev_list([tip], [old] if old else git.remote_tips(remote)):
            if c not in seen:
                seen.append(c)
    return seen, warnings


def merge_commits(git: Git) -> list[str]:
    heads, head = git.merge_heads(), git.head()
    return git.rev_list(heads, [head] if head else []) if heads else []


def range_commits(git: Git, from_rev: str | None, to_rev: str) -> list[str]:
    to_sha = git.resolve(to_rev)
    exclude = [git.resolve(from_rev)] if from_rev and from_rev.strip("0") else []
    return git.rev_list([to_sha], exclude)


@dataclass
class PushedRef:
    ref: str                      # surrogateescape-decoded: ref_bytes(ref) is the name git gave
    old: str
    new: str
    commits: list[str] = field(default_factory=list)  # new to the repository, oldest first


def received_refs(git: Git, stdin_lines: Sequence[str | bytes]) -> list[PushedRef]:
    """What a pre-receive hook must check: per pushed ref (``old new ref`` lines), the commits
    no ref of the repository holds yet. Before the update every current tip counts as judged,
    so each commit is checked once, whichever ref brought it."""
    from harness.history.stored_parents import require_stored_parents

    require_stored_parents(git)
    known, seen, out = git.all_ref_tips(), set(), []
    for old, new, ref in ref_lines(stdin_lines, (0, 1), "<old sha> <new sha> <ref>"):
        # A push to a symbolic ref moves the ref it points to: judged as that one (#27's task F-0018).
        pushed = PushedRef(git.symref_target(ref) or ref, old, new)
        if new != ZERO and not git.has_object(new):
            raise HarnessError(f"{shown_ref(ref)}: the pushed object {new[:12]} is not visible to the hook",
                               hint="run it as git's pre-receive hook (the pushed objects live in git's quarantine, "
                                    "named by GIT_QUARANTINE_PATH / GIT_OBJECT_DIRECTORY)")
        tip = None if new == ZERO else git.peel_commit(new)
        if tip is not None:  # a deletion, or a tag of a blob or tree, brings no commit
            pushed.commits = [c for c in git.rev_list([tip], known) if c not in seen]
            seen.update(pushed.commits)
        out.append(pushed)
    return out
