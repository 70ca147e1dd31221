"""The success measures (false done, finding confirmation, regression capture, gate bypass, convergence) over a range of history."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from harness.gitio.git import Git


@dataclass(frozen=True)
class Metrics:
    from_rev: str | None
    to_rev: str
    commits: int
    tasks: int
    unreadable: list[str]        # tasks whose ledger could not be read (not counted)
    rates: dict[str, Any]        # measure -> numerator, denominator, rate, ids
    released: dict[str, Any]     # the agent stop hook's releases at the block limit (this clone): total, by_host

    def as_dict(self) -> dict[str, Any]:
        return {"range": {"from": self.from_rev, "to": self.to_rev, "commits": self.commits}, "tasks": self.tasks,
                "unreadable_tasks": self.unreadable, **self.rates,
                "agent_stop_releases": self.released}


def measure(git: Git, from_rev: str | None, to_rev: str) -> Metrics:
    """Every rate, computed from every task's ledger and from the commits themselves."""
    from harness.agent.stopstate import tally
    from harness.core.metrics import compute
    from harness.history.metrics_facts import gather

    commits, tasks, claims, unreadable, lineage = gather(git, from_rev, to_rev)
    rates = compute(tasks, claims, lineage)
    # The agent stop hook's releases live in this clone only (.harness/local/), not in history.
    released = tally(git.root).get("stop.released", {"total": 0, "by_host": {}})
    return Metrics(from_rev, to_rev, len(commits), len(tasks), unreadable, rates, released)
