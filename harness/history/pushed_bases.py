"""A claim pushed on a base the remote never had: the push guard's check of each task a push brings to CONVERGED or
DONE under a suite policy, against the remote's real history (read 127's F-0454).

A task's base is the protected branch's tip as this clone knew it when the task began: a remote-tracking ref, which
any process in the clone moves with one `git update-ref refs/remotes/origin/main HEAD`. PASS_TO_PASS measures the
base's tests against the change, so a base the agent wrote itself is a suite the agent chose (a weakened test
committed first, then made the base). Nothing local can tell; the push can: git hands the pre-push hook the remote's
real tip of each ref pushed, and the remote lists its other refs (`git ls-remote`). The base must be in that history.
A remote with no refs yet has no published line to hold a base to: the first push is not judged so.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from harness import paths
from harness.errors import HarnessError
from harness.history.change_rules import Problem
from harness.history.incoming import ZERO, shown_ref

if TYPE_CHECKING:
    from harness.gitio.git import Git
    from harness.gitio.tree_source import TreeSource

CLAIMS = frozenset({"CONVERGED", "DONE"})
RULE = "base-unpublished"


def pre_push_problems(git: Git, lines: Sequence[str | bytes], remote: str | None, url: str | None) -> list[Problem]:
    """The refusals of the claims the pushed refs bring whose base the remote's history does not hold."""
    from harness.history.pushed_notes import pushed_lines

    pushed = [(ref, git.peel_commit(local), None if old == ZERO else old)
              for ref, local, _remote_ref, old in pushed_lines(lines) if local != ZERO]
    claims = [(ref, tid, base) for ref, tip, old in pushed if tip for tid, base in _new_claims(git, tip, old)]
    if not claims:
        return []
    published = _Published(git, [old for _, _, old in pushed if old], remote, url)
    return [problem for ref, tid, base in claims if (problem := published.refusal(ref, tid, base))]


def _new_claims(git: Git, tip: str, old: str | None) -> list[tuple[str, str]]:
    """(task, its base) of each task in CONVERGED or DONE at ``tip`` that was not so at ``old`` (the remote's tip, when
    this clone has it), under a gate.yaml with a suite policy at ``tip``; a task or gate no reader accepts is the
    audit's to refuse."""
    from harness.gitio.tree_source import TreeSource
    from harness.store import reader, settings

    src = TreeSource(git, git.commit_tree(tip), f"commit {tip[:12]}", rev=tip)
    try:
        if not settings.parse_gate(src.read(paths.GATE) or b"").suite:
            return []
    except HarnessError:
        return []
    before = TreeSource(git, git.commit_tree(old), f"commit {old[:12]}", rev=old) if old and git.has_commit(old) else None
    out = []
    for tid in reader.task_ids(src):
        ledger = f"{paths.task_folder(tid)}/events.jsonl"
        if before is not None and src.same_in(src.tree_id, before.tree_id, ledger):
            continue  # its ledger is the remote's: nothing it claims is new with this push
        state, base = _claim(src, tid)
        if state in CLAIMS and base and (before is None or _claim(before, tid) != (state, base)):
            out.append((tid, base))
    return out


def _claim(src: TreeSource, tid: str) -> tuple[str | None, str | None]:
    from harness.store import reader

    try:
        proj = reader.load_task(src, tid, docs=False).proj
    except HarnessError:
        return None, None
    return proj.state, proj.base_commit


class _Published:
    """The remote's real history: the tips git gave the hook, then the refs the remote lists (read once, if needed)."""

    def __init__(self, git: Git, told: list[str], remote: str | None, url: str | None) -> None:
        self.git, self.told, self.where = git, told, url or remote
        self._listed: list[str] | None = None

    def refusal(self, ref: str, tid: str, base: str) -> Problem | None:
        if any(self._holds(tip, base) for tip in self.told):
            return None
        listed = self._listing()
        if isinstance(listed, Problem):
            return listed
        if not listed or any(self._holds(tip, base) for tip in listed):
            return None
        unknown = [tip[:12] for tip in [*self.told, *listed] if not self.git.has_commit(tip)]
        return Problem(
            paths.task_folder(tid), RULE,
            f"{shown_ref(ref)} brings {tid} to a gated state on base {base[:12]}, which no ref of the remote holds: "
            "PASS_TO_PASS measured the base's tests, and this base is not the published line (a remote-tracking ref "
            "moved in this clone is enough to make one)"
            + (f"; this clone lacks the remote's {', '.join(unknown[:3])}, so it could not look there" if unknown else ""),
            "git fetch, then push again if the base is in what the remote has; otherwise start the task again from "
            "the published line (`harness task new` records it) and re-collect its evidence")

    def _holds(self, tip: str, base: str) -> bool:
        return self.git.has_commit(tip) and self.git.is_ancestor(base, tip)

    def _listing(self) -> list[str] | Problem:
        if self._listed is None:
            if not self.where:
                return Problem(paths.TASKS, RULE, "the push names no remote to read the published line from",
                               "push to a named remote or a URL, as git's pre-push hook is given them")
            try:
                out = self.git.run(["ls-remote", "--refs", "--", self.where])
            except HarnessError as exc:
                return Problem(paths.TASKS, RULE, f"could not list the remote's refs to find the tasks' bases in "
                               f"its history: {exc.message}", "check the remote is reachable, then push again")
            self._listed = list(dict.fromkeys(line.split()[0] for line in out.splitlines() if line.strip()))
        return self._listed
