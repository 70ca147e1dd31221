"""Where an approval was already spent beyond the judged change's own parents: the published (protected) line.

approvals.jsonl is append-only, so the file at the tip of the protected line holds every approval ever spent on
it: one blob read answers whether a claimed approval was given for a change that line already made (read 154's
F-0543: a signed line the human gave on main, then withdrawn there by tightening main back, was copied onto a
branch forked before it and counted again). It counts still where the judged change's history holds it from
there: the commit that spent it on that line, and a merge of that line (what the change shares with the tip,
its merge base, holds the line too).
"""

from __future__ import annotations

from collections.abc import Sequence

from harness import paths
from harness.core import approvals as rules
from harness.core.value_class import dataclass
from harness.errors import HarnessError

TYPE_CHECKING = False  # typing's, without importing typing on a hot path (tests/test_layering.py)
if TYPE_CHECKING:
    from harness.gitio.git import Git


@dataclass(frozen=True)
class LineTip:
    """A tip of the published line: its commit, and how a refusal names it."""
    commit: str
    label: str


def protected_line(git: Git) -> list[LineTip]:
    """The protected branch's tip as this clone knows it, most trusted first (a remote's copy before a local
    branch, :meth:`~harness.gitio.revisions.History.protected_tips`), named by HEAD's gate.yaml `suite.base`, else the
    default branch; [] where nothing names one (no remote, no main): nothing is published yet."""
    if not hasattr(git, "protected_refs"):
        return []  # a repository read through git processes alone answers no history question (ProcessGit)
    found = git.protected_refs(suite_base(git))[:1]
    return [LineTip(tip, f"{_shown(ref)} ({tip[:12]})") for ref, tip in found]


def suite_base(git: Git, commit: str | None = None) -> str | None:
    """The protected branch gate.yaml's `suite.base` names, as ``commit`` (default HEAD) has it (the committed policy: a
    human approves a change of it), the name pushed_bases and the suite's base go by; None: the default branch."""
    from harness.store import settings

    head = commit or git.head()
    raw = git.read_at(head, paths.GATE) if head else None
    try:
        base = (settings.parse_gate(raw).suite or {}).get("base") if raw is not None else None
    except HarnessError:
        return None
    return base if isinstance(base, str) and base else None


def _shown(ref: str) -> str:
    for prefix in ("refs/remotes/", "refs/heads/"):
        if ref.startswith(prefix):
            return ref[len(prefix):]
    return ref


class SpentOnLine:
    """What one command reads of the published line, once: the approvals each commit holds, and the merge bases
    of a judged change's commits with a tip."""

    def __init__(self) -> None:
        self.held: dict[str, frozenset[bytes]] = {}
        self.bases: dict[tuple[str, str], list[str]] = {}

    def where(self, git: Git, payload: bytes, tips: Sequence[LineTip], judged: Sequence[str]) -> str | None:
        """The label of the first of ``tips`` whose approvals.jsonl holds the approval signed as ``payload`` while
        no history ``judged`` shares with that tip holds it (None: nowhere)."""
        for tip in tips:
            if payload in self.payloads(git, tip.commit) and not any(
                    payload in self.payloads(git, base) for base in self.shared(git, judged, tip.commit)):
                return tip.label
        return None

    def payloads(self, git: Git, commit: str) -> frozenset[bytes]:
        """What each approval in ``commit``'s approvals.jsonl was signed over."""
        if commit not in self.held:
            self.held[commit] = frozenset(rules.payload(r) for r in rules.records(git.read_at(commit, paths.APPROVALS)))
        return self.held[commit]

    def shared(self, git: Git, judged: Sequence[str], tip: str) -> list[str]:
        """The merge bases of each of ``judged`` with ``tip``: the history the judged change holds from the line."""
        out = []
        for commit in judged:
            if (commit, tip) not in self.bases:
                self.bases[commit, tip] = git.merge_bases(commit, tip)
            out.extend(self.bases[commit, tip])
        return out
