"""A gate blocker as data: which check raised it, what kind of problem it is, what it is about, and
the sentence a person reads.

`Next:` and convergence dispatch on ``kind`` and ``subject``, never on ``text``: rewording a
sentence changes what is printed, not what is suggested nor how an iteration is classified.
A ledger from before keys were recorded holds only the sentences; :mod:`harness.core.blocker_text`
classifies each once, as it is read.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from harness.core.value_class import dataclass

TYPE_CHECKING = False  # typing's, without importing typing on a hot path (tests/test_layering.py)
if TYPE_CHECKING:
    from typing import Any

# Kinds whose one subject is an evidence type that has no usable run: `harness evidence TYPE` clears
# them (a failing run is not among them: that takes a change of code).
EVIDENCE_TO_COLLECT = ("evidence_missing", "evidence_stale", "evidence_unknown", "evidence_changed", "evidence_other")
# Kinds whose subject is (item, type): the item cites a type whose run is not usable on this tree.
CITES_PREFIX = "cites_evidence_"
# config.yaml holds a change the commit hook refuses without a human's approval: approving it, or reverting it, clears it.
CONFIG_UNAPPROVED = "config_unapproved"
# A must requirement cites a type whose command is not config.yaml's at the task's base, with no approval of the
# change: subject (item, type), and the commit whose change no approval covers when the chain breaks at a commit.
INTRODUCED_COMMAND = "introduced_command"


@dataclass(frozen=True)
class Blocker:
    check: str                # the gate check that raised it (a name of gate_checks.CHECKS)
    kind: str                 # what is wrong, e.g. not_verified, evidence_stale, finding_open
    subject: tuple[str, ...]  # the ids it is about, in order: REQ-001, unit_test, F-0001, …
    text: str                 # the sentence the report prints

    def __str__(self) -> str:
        return self.text

    @property
    def key(self) -> tuple[str, str, tuple[str, ...]]:
        """What stays the same between two runs with the same problem (trees and times are in the text only)."""
        return self.check, self.kind, self.subject

    def key_dict(self) -> dict[str, Any]:
        """The key as a `gate.evaluated` event stores it, beside the text."""
        return {"check": self.check, "kind": self.kind, "subject": list(self.subject)}


def cites_kind(status: str) -> str:
    """The kind of "ITEM cites TYPE evidence that is …" for the evidence status the gate gave TYPE."""
    return CITES_PREFIX + status.lower()


def evidence_kind(status: str) -> str:
    """The kind of a required type's blocker for its evidence status (MISSING → evidence_missing)."""
    return "evidence_" + status.lower()


def as_blocker(b: Blocker | str) -> Blocker:
    """A blocker; a bare sentence (an old ledger's, or a caller's) is classified once, here."""
    if isinstance(b, Blocker):
        return b
    from harness.core.blocker_text import classify

    return classify(b)


def as_blockers(items: Iterable[Blocker | str]) -> list[Blocker]:
    return [as_blocker(b) for b in items]


def evaluated_fields(blockers: Iterable[Blocker]) -> dict[str, list[Any]]:
    """A `gate.evaluated` event's blockers: the sentences (as every reader so far reads them) and,
    beside them in the same order, their keys."""
    bs = list(blockers)
    return {"blockers": [b.text for b in bs], "blocker_keys": [b.key_dict() for b in bs]}


def from_event(data: Mapping[str, Any]) -> list[Blocker]:
    """The blockers a `gate.evaluated` event recorded. An event with no keys (written before they were
    recorded), or keys that do not pair with its sentences, has its sentences classified."""
    texts = [str(t) for t in data.get("blockers") or []]
    keys = data.get("blocker_keys")
    if not isinstance(keys, list) or len(keys) != len(texts):
        return as_blockers(texts)
    return [_as_keyed_now(Blocker(str(k["check"]), str(k["kind"]), tuple(str(s) for s in k["subject"]), text))
            for k, text in zip(keys, texts)]


# Kinds a later harness split in two: a key recorded before the split is classified once, here, as the
# gate keys it now (a failing fail_to_pass run was `fail_to_pass_unusable` until #27's task F-0030).
_SPLIT_KINDS = frozenset({"fail_to_pass_unusable"})


def _as_keyed_now(b: Blocker) -> Blocker:
    if b.kind not in _SPLIT_KINDS:
        return b
    from harness.core.blocker_text import classify

    now = classify(b.text)
    return Blocker(b.check, now.kind, b.subject, b.text) if now.kind.startswith("fail_to_pass_") else b
