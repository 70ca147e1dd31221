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

KEEP = 4  # versions kept per ledger: the parent's and the commit's, with room for a merge's sides


@dataclass(frozen=True)
class Validated:
    raw: bytes
    lines: tuple[str, ...]
    proj: ledger.Projection
    last_hash: str  # the hash of the last line: where an appended suffix's chain starts


def exact(raw: bytes, name: str) -> Validated | None:
    """The validation of exactly ``raw`` at ``name``, if this process made it."""
    return next((v for v in _by_name().get(name, ()) if v.raw == raw), None)


def longest_prefix(raw: bytes, name: str) -> Validated | None:
    """The longest validated version of ``name`` that ``raw`` extends (a validated ledger ends in
    a newline, so the suffix starts on a line of its own)."""
    found = [v for v in _by_name().get(name, ()) if len(v.raw) < len(raw) and raw.startswith(v.raw)]
    return max(found, key=lambda v: len(v.raw), default=None)


def remember(raw: bytes, name: str, lines: list[str], proj: ledger.Projection) -> None:
    """Record a ledger that passed every check (chain, rules, schemas); the projection is copied,
    so no caller's later change reaches the record."""
    kept = [v for v in _by_name().get(name, ()) if v.raw != raw][-(KEEP - 1):]
    kept.append(Validated(raw, tuple(lines), copy.deepcopy(proj), ledger.line_hash(lines[-1])))
    _by_name()[name] = kept


def handed_out(found: Validated) -> tuple[list[str], ledger.Projection]:
    """A caller's own copy of a record's lines and projection."""
    return list(found.lines), copy.deepcopy(found.proj)


def forget() -> None:
    _by_name().clear()


def _by_name() -> dict[str, list[Validated]]:
    """The validations this process made, by ledger name (what is true of exact bytes stays true)."""
    return context.process().ledgers
