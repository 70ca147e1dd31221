"""Ledgers this process has already validated, so history work follows the events it adds.

An audit or `harness metrics` walks commits oldest first and loads a task's ledger at every
commit that touches it, and again as each next commit's parent. Validating the whole file each
time makes a range's cost grow with the ledger's lifetime (quadratic over its life). A result is
a pure function of the bytes, so: a ledger whose exact bytes were validated is not validated
again, and one that extends validated bytes has only its appended lines checked, from the
prefix's hash chain and projection on. A prefix that was rewritten matches no validated bytes
and is validated whole, as before.
"""

from __future__ import annotations

import copy

from harness import context
from harness.core import ledger
from harness.core.value_class import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path

KEEP = 4  # versions kept per ledger: the parent's and the commit's, with room for a merge's sides


@dataclass(frozen=True)
class Validated:
    raw: bytes
    lines: tuple[str, ...]
    proj: ledger.Projection | None  # kept as an object (a short ledger's) ...
    pickled: bytes | None           # ... or pickled (a long one's): see PICKLED_FROM
    last_hash: str  # the hash of the last line: where an appended suffix's chain starts
    task_id: str    # what a reader of the state alone needs (:func:`state_of`), without a copy of the projection
    state: str
    # The cache of valid digests the schema check took the word of (None: every check ran in this process). A record
    # made on a cache's word serves only readers of that cache: `harness audit` names none, so as to trust nothing the
    # checkout holds (F-0147), and a commit hook's check in the same process names the checkout's (F-0167).
    cache: Path | None


def _serves(v: Validated, cache: Path | None) -> bool:
    return v.cache is None or v.cache == cache


def exact(raw: bytes, name: str, cache: Path | None = None) -> Validated | None:
    """The validation of exactly ``raw`` at ``name``, if this process made it (for a reader of ``cache``)."""
    return next((v for v in _by_name().get(name, ()) if v.raw == raw and _serves(v, cache)), None)


def longest_prefix(raw: bytes, name: str, cache: Path | None = None) -> Validated | None:
    """The longest validated version of ``name`` that ``raw`` extends (a validated ledger ends in
    a newline, so the suffix starts on a line of its own), for a reader of ``cache``."""
    found = [v for v in _by_name().get(name, ())
             if len(v.raw) < len(raw) and raw.startswith(v.raw) and _serves(v, cache)]
    return max(found, key=lambda v: len(v.raw), default=None)


def remember(raw: bytes, name: str, lines: list[str], proj: ledger.Projection, cache: Path | None = None) -> None:
    """Record a ledger that passed every check (chain, rules, schemas), the schema's on ``cache``'s word where it
    named one; the projection is copied, so no caller's later change reaches the record."""
    kept = [v for v in _by_name().get(name, ()) if v.raw != raw or v.cache != cache][-(KEEP - 1):]
    if len(lines) < PICKLED_FROM:
        held, pickled = copy.deepcopy(proj), None
    else:
        import pickle

        held, pickled = None, pickle.dumps(proj, pickle.HIGHEST_PROTOCOL)
    kept.append(Validated(raw, tuple(lines), held, pickled, ledger.line_hash(lines[-1]), proj.id, proj.state, cache))
    _by_name()[name] = kept


def handed_out(found: Validated) -> tuple[list[str], ledger.Projection]:
    """A caller's own copy of a record's lines and projection."""
    if found.proj is not None:
        return list(found.lines), copy.deepcopy(found.proj)
    import pickle

    assert found.pickled is not None  # one or the other is kept (remember)
    return list(found.lines), pickle.loads(found.pickled)


def state_of(raw: bytes, name: str, cache: Path | None = None) -> tuple[str, str] | None:
    """(the task's id, its state) by the validated ledger ``raw`` at ``name``, without copying its projection; None
    where this process validated no such bytes (for a reader of ``cache``)."""
    found = exact(raw, name, cache)
    return (found.task_id, found.state) if found is not None else None


# Lines from which a projection is kept pickled: pickle takes the state each object's __reduce_ex__ gives, as deepcopy
# does, at two to four times deepcopy's speed, and a record is pickled once and unpickled for each reader. Worth its
# import only where the copy is big: an audit or `harness metrics` copies a task's projection at every commit that
# touches it, and one of six hundred findings took deepcopy 32 ms.
PICKLED_FROM = 256


def forget() -> None:
    _by_name().clear()


def _by_name() -> dict[str, list[Validated]]:
    """The validations this process made, by ledger name (what is true of exact bytes stays true)."""
    return context.process().ledgers
