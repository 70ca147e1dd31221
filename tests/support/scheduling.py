"""How the run deals its tests to pytest-xdist's workers."""

from __future__ import annotations

from collections.abc import Callable


def slow_first_in_each_share(items: list, workers: int, slow: Callable[[object], bool]) -> list:
    """``items`` reordered so that each share pytest-xdist's worksteal deals out at the start (the
    i-th worker gets the next len(left) // (workers - i) items) begins with its part of the ``slow``
    items, dealt round-robin; slow and other items each keep their order. So every worker starts
    on slow tests at once and the run ends on short ones, which the workers steal from each other."""
    slows, others = [it for it in items if slow(it)], [it for it in items if not slow(it)]
    ordered, left = [], len(items)
    for i in range(workers):
        size = left // (workers - i)
        left -= size
        mine = slows[i::workers]
        take = max(0, size - len(mine))
        ordered += mine + others[:take]
        others = others[take:]
    return ordered + others
