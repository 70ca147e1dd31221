"""A claim pushed on a base the remote never had: the push guard's check of each task a push brings to CONVERGED or
DONE under a suite policy, against the remote's real history (read 127's F-0454).

A task's base is the protected branch's tip as this clone knew it when the task began: a remote-tracking ref, which
any process in the clone moves with one `git update-ref refs/remotes/origin/main HEAD`. PASS_TO_PASS measures the
base's tests against the change, so a base the agent wrote itself is a suite the agent chose (a weakened test
committed first, then made the base). Nothing local can tell; the push can: git hands the pre-push hook the remote's
real tip of each ref pushed, and the remote lists its other refs (`git ls-remote`). The base must be in the
remote's protected branch: no other ref of it, which the agent may have pushed itself. A remote without that branch
yet has no published line to hold a base to: the first push is not judged so.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from harness import paths
from harness.errors import HarnessError
from harness.history.change_rules import Problem
from harness.history.incoming import ZERO, framework_push, shown_ref

if TYPE_CHECKING:
    from harness.gitio.git import Git
    from harness.gitio.tree_source import TreeSource
    from harness.signatures.published_line import LineTip

CLAIMS = frozenset({"CONVERGED", "DONE"})
_NAME_IT = ("name the protected branch in gate.yaml's `suite.base` (a human approves it: it changes what the suite is "
            "measured against)")
RULE = "base-unpublished"


def pre_push_problems(git: Git, lines: Sequence[str | bytes], remote: str | None, url: str | None,
                      published: Published | None = None) -> list[Problem]:
    """The refusals of the claims the pushed refs bring whose base the remote's history does not hold (``published``:
    the remote's listing, when the push guard reads it for its approvals too)."""
    published = published or Published(git, remote, url)
    pushed = _pushed(git, lines, published)
    claims = [(ref, claim) for ref, tip, _, old in pushed if tip for claim in _new_claims(git, tip, old)]
    if not claims:
        return []
    published.told = {remote_ref: old for _, _, remote_ref, old in pushed if old}
    return [problem for ref, claim in claims if (problem := published.refusal(ref, *claim))]


def _pushed(git: Git, lines: Sequence[str | bytes], published: Published) -> list[tuple[str, str | None, str, str | None]]:
    """(ref, its tip, the remote ref, the remote's old tip) of each ref pushed. Under the pre-commit framework (no
    standard input, PRE_COMMIT_* variables) the old tip is trusted only where the remote lists it so: for a new remote
    ref the framework takes PRE_COMMIT_FROM_REF from this clone's refs/remotes, which the agent writes; and with no
    PRE_COMMIT_TO_REF (a history that reaches a root) the pushed branch is still judged (read 146's F-0516)."""
    from harness.history.pushed_notes import pushed_lines

    framework = framework_push(lines)
    if framework is None:
        return [(ref, git.peel_commit(local), remote_ref, None if old == ZERO else old)
                for ref, local, remote_ref, old in pushed_lines(lines) if local != ZERO]
    local = framework.to_ref or framework.local_branch or "HEAD"
    try:
        tip = git.peel_commit(git.resolve(local))
    except HarnessError:
        return []  # what push_commits refuses, in its words
    old = framework.from_ref or None
    listed = published.listed_tip(framework.remote_branch) if old else None
    return [(framework.local_branch or local, tip, framework.remote_branch, old if old and old == listed else None)]


def _new_claims(git: Git, tip: str, old: str | None) -> list[tuple[str, str, str | None]]:
    """(task, its base, the protected branch `suite.base` names) of each task in CONVERGED or DONE at ``tip`` that
    was not so at ``old`` (the remote's tip, when this clone has it), under a gate.yaml with a suite policy at
    ``tip``; a task or gate no reader accepts is the audit's to refuse."""
    from harness.gitio.tree_source import TreeSource
    from harness.store import reader, settings

    src = TreeSource(git, git.commit_tree(tip), f"commit {tip[:12]}", rev=tip)
    try:
        suite = settings.parse_gate(src.read(paths.GATE) or b"").suite
    except HarnessError:
        return []
    if not suite:
        return []
    before = TreeSource(git, git.commit_tree(old), f"commit {old[:12]}", rev=old) if old and git.has_commit(old) else None
    out = []
    for tid in reader.task_ids(src):
        ledger = f"{paths.task_folder(tid)}/events.jsonl"
        if before is not None and src.same_in(src.tree_id, before.tree_id, ledger):
            continue  # its ledger is the remote's: nothing it claims is new with this push
        state, base = _claim(src, tid)
        if state in CLAIMS and base and (before is None or _claim(before, tid) != (state, base)):
            out.append((tid, base, suite.get("base")))
    return out


def _claim(src: TreeSource, tid: str) -> tuple[str | None, str | None]:
    from harness.store import reader

    try:
        proj = reader.load_task(src, tid, docs=False).proj
    except HarnessError:
        return None, None
    return proj.state, proj.base_commit


class Published:
    """The remote's protected branch, as the remote has it: the tip git gave the hook for it, when this push updates it,
    else what `git ls-remote` lists (read once, if needed). Only that branch is the published line: any other ref the
    remote holds may be one the agent pushed itself, its forged base with it (read 144's F-0513)."""

    def __init__(self, git: Git, remote: str | None, url: str | None) -> None:
        # The URL git pushes to; given a remote's name alone, its push URL (its fetch URL may name another repository)
        where = url or (git.run(["remote", "get-url", "--push", "--", remote], check=False).strip() if remote else None)
        self.git, self.where = git, where or remote
        self.told: dict[str, str] = {}  # remote ref -> its old tip, as git gave it to the hook
        self._listed: tuple[dict[str, str], str | None] | Problem | None = None

    def listed_tip(self, ref: str) -> str | None:
        """The tip the remote lists for ``ref``, if it can be listed."""
        listed = self._listing()
        return None if isinstance(listed, Problem) else listed[0].get(ref)

    def line_tips(self, branches: Sequence[str]) -> list[LineTip]:
        """The remote's protected branches' tips as the remote lists them, as the published line approvals are spent
        on (read 156's F-0551: the clone's `origin/main` and `main`, deleted, hid it): each of ``branches`` (the
        `suite.base` the pushed commits' gate.yaml names, read 158's F-0553) and the remote's default, `main` and
        `master` it has; [] when it has none of them (nothing is published there yet). A remote that cannot be
        listed, or a tip this clone cannot fetch, is refused (HarnessError), never judged by the clone's refs (read
        158's F-0552: one line of git config the agent writes made the listing fail, and the clone's refs decided)."""
        from harness.signatures.published_line import LineTip

        listed = self._listing()
        if isinstance(listed, Problem):
            raise HarnessError(f"the push brings an approval, and {listed.message}", hint=listed.fix)
        refs, default = listed
        names = [*(f"refs/heads/{b}" for b in branches), *(n for n in (default, "refs/heads/main", "refs/heads/master")
                                                           if n)]
        tips = []
        for name in dict.fromkeys(n for n in names if n in refs or n in self.told):
            tip = self.told.get(name) or refs[name]
            if not self._fetched(name, tip):
                raise HarnessError(f"the push brings an approval, and this clone lacks the remote's {name} tip "
                                   f"{tip[:12]} to tell whether that line already spent it", hint="git fetch, then "
                                   "push again")
            tips.append(LineTip(tip, f"the remote's {name.removeprefix('refs/heads/')} ({tip[:12]})"))
        return tips

    def pushed_tips(self, lines: Sequence[str | bytes]) -> list[str]:
        """The tips the pushed refs bring (:func:`_pushed`)."""
        return [tip for _, tip, _, _ in _pushed(self.git, lines, self) if tip]

    def _fetched(self, name: str, tip: str) -> bool:
        """Whether this clone has ``tip``, fetching the remote's ``name`` into no ref when it lacks it."""
        if not self.git.has_commit(tip):  # the remote moved since the last fetch: its branch, fetched into no ref
            self.git.run(["fetch", "--quiet", "--no-tags", "--no-write-fetch-head", "--", str(self.where), name],
                         check=False)
        return self.git.has_commit(tip)

    def refusal(self, ref: str, tid: str, base: str, branch: str | None) -> Problem | None:
        listed = self._listing()
        if isinstance(listed, Problem):
            return listed
        refs, default = listed
        if not refs:
            return None  # a remote with no refs yet: no published line to hold the base to
        names = [f"refs/heads/{branch}"] if branch else list(dict.fromkeys(
            n for n in (default, "refs/heads/main", "refs/heads/master") if n))
        # Each of them the remote has: a HEAD left naming a branch nobody pushed (a bare repository's `master`) names
        # whatever the agent pushes there later, so no one of them is taken alone (read 147's F-0521).
        present = [n for n in names if n in refs or n in self.told]
        if not present:
            return Problem(paths.task_folder(tid), RULE,
                           f"{shown_ref(ref)} brings {tid} to a gated state, and the remote has none of "
                           f"{', '.join(names)} to hold its base {base[:12]} to", _NAME_IT)
        return next(filter(None, (self._held(ref, tid, base, name, refs, len(present) > 1) for name in present)), None)

    def _held(self, ref: str, tid: str, base: str, name: str, refs: dict[str, str], several: bool) -> Problem | None:
        """None when the remote's ``name`` holds ``base``, else why not."""
        tip = self.told.get(name) or refs[name]
        if not self._fetched(name, tip):  # read 146's F-0520: not known here, which is no proof of a forgery
            return Problem(paths.task_folder(tid), RULE,
                           f"{shown_ref(ref)} brings {tid} to a gated state on base {base[:12]}, and the push guard "
                           f"could not tell whether the remote's {name} holds it: this clone lacks that branch's tip "
                           f"{tip[:12]} (the remote moved since this clone last fetched)",
                           "git fetch, then push again")
        if self.git.is_ancestor(base, tip):
            return None
        return Problem(
            paths.task_folder(tid), RULE,
            f"{shown_ref(ref)} brings {tid} to a gated state on base {base[:12]}, which the remote's {name} does not "
            "hold: PASS_TO_PASS measured the base's tests, and this base is not the published line (a remote-tracking "
            "ref moved in this clone, or a ref the agent pushed itself, is enough to make one)",
            (f"{_NAME_IT}; or " if several else "")
            + f"pushing to a fork or a mirror whose branch is behind? bring that remote's {name} up to the base first "
            "(push the published line there), then push again; otherwise start the task again from the published line "
            "(`harness task new` records it) and re-collect its evidence")

    def _listing(self) -> tuple[dict[str, str], str | None] | Problem:
        """(the remote's refs by name, the branch its HEAD names), or the refusal of a remote that cannot be listed;
        either is read once per push, however many claims it brings."""
        if self._listed is None:
            self._listed = self._list()
        return self._listed

    def _list(self) -> tuple[dict[str, str], str | None] | Problem:
        if not self.where:
            return Problem(paths.TASKS, RULE, "the push names no remote to read the published line from",
                           "push to a named remote or a URL, as git's pre-push hook is given them")
        # ls-remote reads its argument as a remote's name first, and takes that remote's settings: its url (read
        # 146's F-0517), its uploadpack, a program run to answer the listing (read 147's F-0522)
        settings = [line.split(" ", 1)[0] for line in self.git.run(
            ["config", "--get-regexp", "^remote\\."], check=False).splitlines()
            if line.lower().startswith(f"remote.{self.where.lower()}.")]
        if settings:
            return Problem(paths.TASKS, RULE, f"this clone's config has settings of a remote named `{self.where}` "
                           f"({', '.join(settings[:3])}), which listing {self.where} would use: what it lists "
                           "would not be the remote this push goes to",
                           f"remove them (git config --remove-section remote.{self.where}), then push again")
        rewrite = _rewritten(self.git, self.where)
        if rewrite:
            return Problem(paths.TASKS, RULE, f"this clone's config rewrites {self.where} when it is listed "
                           f"({rewrite}), so what git would list is not the remote this push goes to (read 145's "
                           "F-0515)", f"remove the rewrite (git config --unset {rewrite.split()[0]}), then push again")
        try:
            out = self.git.run(["ls-remote", "--symref", "--", self.where])
        except HarnessError as exc:
            return Problem(paths.TASKS, RULE, f"could not list the remote's refs to find the tasks' bases in "
                           f"its history: {exc.message}", "check the remote is reachable, then push again")
        refs, default = {}, None
        for line in out.splitlines():
            left, _, name = line.partition("\t")
            if left.startswith("ref: ") and name == "HEAD":
                default = left[len("ref: "):].strip()
            elif name and left:
                refs[name] = left.strip()
        return refs, default


def _rewritten(git: Git, url: str) -> str | None:
    """The `url.<base>.insteadOf` rule (`KEY VALUE`) that would rewrite ``url`` when it is listed, or None. git hands
    pre-push the URL it pushes to, every rewrite already applied; listing it applies `insteadOf` once more, and a
    rule the push does not use (a `pushInsteadOf` puts the push back) would list another repository."""
    out = git.run(["config", "--get-regexp", r"^url\..*\.insteadof$"], check=False)
    for line in out.splitlines():
        key, _, prefix = line.partition(" ")
        if prefix and url.startswith(prefix):
            return line
    return None
