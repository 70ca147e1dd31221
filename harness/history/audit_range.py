"""Which commits `harness audit` checks: a range no force push can shrink.

CI knows the new tip and, at best, what the branch pointed at before the push. A force
push leaves that old tip out of the CI clone; guessing a base from the remote-tracking refs
then yields an empty range on the default branch. So: fetch the old tip where the remote
serves it, audit from the merge base of old and new, and when nothing establishes what is
new, audit everything reachable from the new tip — and say which of these happened.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from harness.errors import HarnessError
from harness.gitio.git import Git

_SHA = re.compile(r"^[0-9a-fA-F]{4,64}$")


@dataclass
class AuditRange:
    mode: str  # "range" (--from/--to), "push" (--before/--to), "pull-request" (--base/--to)
    tip: str
    exclude: list[str] = field(default_factory=list)  # history already judged
    everything: bool = False  # every commit reachable from the tip is audited
    reason: str = ""
    before: str | None = None
    base: str | None = None
    merge_bases: list[str] = field(default_factory=list)

    def commits(self, git: Git) -> list[str]:
        return git.rev_list([self.tip], [] if self.everything else self.exclude)

    def as_dict(self) -> dict:
        return {"mode": self.mode, "tip": self.tip, "excluded": [] if self.everything else self.exclude,
                "everything_reachable": self.everything, "before": self.before, "base": self.base,
                "merge_bases": self.merge_bases, "reason": self.reason}


def require_full_history(git: Git, remote: str) -> None:
    """A shallow clone would end the walk silently at its boundary: deepen it, or refuse. A
    partial (`--filter`) clone lacks the trees and blobs of older commits: refuse it."""
    if git.is_partial():
        raise HarnessError("this clone is partial (made with --filter): the files of the commits to audit are "
                           "not all here, and the audit reads them without git's on-demand fetch",
                           hint="clone without a filter (actions/checkout: leave `filter` unset, `fetch-depth: 0`; "
                                "GitLab: GIT_DEPTH: 0 and no GIT_FETCH_EXTRA_FLAGS --filter)")
    if not git.is_shallow():
        return
    if git.has_remote(remote):
        ok, _ = git.unshallow(remote)
        if ok:
            return
    raise HarnessError("this clone is shallow: the commits below its boundary cannot be audited",
                       hint="clone with the full history (actions/checkout: `fetch-depth: 0`; GitLab: "
                            "GIT_DEPTH: 0), or let `git fetch --unshallow` reach the remote")


def explicit(git: Git, from_rev: str | None, to_rev: str) -> AuditRange:
    tip = git.resolve(to_rev)
    if not from_rev or not from_rev.strip("0"):
        return AuditRange("range", tip, everything=True,
                          reason="no --from: every commit reachable from the tip is audited")
    start = git.resolve(from_rev)
    return AuditRange("range", tip, [start], reason=f"commits in {start[:12]}..{tip[:12]}")


def _present(git: Git, sha: str, remote: str) -> tuple[str | None, str]:
    """The commit ``sha`` names, fetched from ``remote`` when this clone lacks it."""
    if not _SHA.match(sha):
        raise HarnessError(f"{sha!r} is not a commit id", hint="pass the full SHA CI reports (or all zeros)")
    found = git.peel_commit(sha) if len(sha) >= 40 else _try_resolve(git, sha)
    if found:
        return found, "present in this clone"
    if not git.has_remote(remote):
        return None, f"not in this clone, and there is no remote {remote!r} to fetch it from"
    ok, message = git.fetch(remote, [sha])
    found = git.peel_commit(sha) if ok and len(sha) >= 40 else None
    if found:
        return found, f"fetched from {remote}"
    return None, f"not in this clone, and {remote} would not serve it" + (f" ({message.splitlines()[-1]})" if message else "")


def _try_resolve(git: Git, rev: str) -> str | None:
    try:
        return git.resolve(rev)
    except HarnessError:
        return None


def after_push(git: Git, before: str | None, to_rev: str, remote: str) -> AuditRange:
    """The commits a push brought: ``before`` is what CI says the ref held (None/zeros: unknown or new)."""
    tip = git.resolve(to_rev)
    if not before or not before.strip("0"):
        return AuditRange("push", tip, everything=True, before=before or None,
                          reason="no previous tip (a new branch or tag, or CI did not say): every commit "
                                 "reachable from the new tip is audited")
    old, how = _present(git, before, remote)
    if old is None:
        return AuditRange("push", tip, everything=True, before=before,
                          reason=f"the previous tip {before[:12]} is {how} (a force push whose old commits are "
                                 "gone): what is new cannot be established, so every commit reachable from the "
                                 "new tip is audited")
    bases = git.merge_bases(old, tip)
    if not bases:
        return AuditRange("push", tip, everything=True, before=old,
                          reason=f"the new tip shares no history with the previous tip {old[:12]}: every commit "
                                 "reachable from the new tip is audited")
    if old == tip:
        reason = f"the ref did not move ({tip[:12]}): nothing new"
    elif bases == [tip]:
        reason = f"the new tip is already in the history of the previous tip {old[:12]} (a rewind): nothing new"
    elif bases == [old]:
        reason = f"a fast-forward from {old[:12]} ({how})"
    else:
        reason = (f"a force push: audited from the merge base {', '.join(b[:12] for b in bases)} of the previous "
                  f"tip {old[:12]} ({how}) and the new tip")
    return AuditRange("push", tip, bases, before=old, merge_bases=bases, reason=reason)


def pull_request(git: Git, base_rev: str, to_rev: str, remote: str) -> AuditRange:
    """``base..head``: what the pull request would bring into its base branch."""
    tip = git.resolve(to_rev)
    base = _try_resolve(git, base_rev)
    how = "present in this clone"
    if base is None and _SHA.match(base_rev):
        base, how = _present(git, base_rev, remote)
    if base is None:
        return AuditRange("pull-request", tip, everything=True, base=base_rev,
                          reason=f"the base {base_rev!r} is {how if _SHA.match(base_rev) else 'unknown here'}: every "
                                 "commit reachable from the head is audited")
    bases = git.merge_bases(base, tip)
    return AuditRange("pull-request", tip, [base], base=base, merge_bases=bases,
                      reason=f"a pull request: commits in {base[:12]}..{tip[:12]}"
                             + (f" (merge base {', '.join(b[:12] for b in bases)})" if bases else
                                " (no common history: everything reachable from the head)"))
