"""The task ledger: an append-only, hash-chained list of events, and its replay.

Events are facts; every lifecycle field in the YAML files is a projection of them. The
format lives in :mod:`harness.core.chain`, the rules of replay in :mod:`harness.core.replay`
(with :mod:`harness.core.rules` and :mod:`harness.core.finding_events`); this module is
the one name the rest of the package imports them by.
"""

from __future__ import annotations

from harness.core.chain import GENESIS, LedgerProblem, canonical, encode_event, line_hash, parse_lines
from harness.core.replay import GATE_INPUT_EVENTS, Projection, apply, replay
from harness.core.rules import INVARIANT_STATUSES, PRIORITIES, REQUIREMENT_STATUSES, SEVERITIES, SOURCES

__all__ = [
    "GATE_INPUT_EVENTS", "GENESIS", "INVARIANT_STATUSES", "PRIORITIES", "REQUIREMENT_STATUSES", "SEVERITIES",
    "SOURCES", "LedgerProblem", "Projection", "apply", "canonical", "encode_event", "line_hash", "parse_lines",
    "replay",
]
