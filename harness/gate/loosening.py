"""Loosening of the gate policy: how a new gate.yaml loosens the one before it, and whether a signed
approval covers that. The commit hook, the gate and `harness approve gate-change` all ask here."""

from __future__ import annotations

from collections.abc import Sequence

from harness.core import policy as core_policy
from harness.errors import HarnessError
from harness.signatures import trust
from harness.store import settings

TYPE_CHECKING = False  # typing's, without importing typing on a hot path (tests/test_layering.py)
if TYPE_CHECKING:
    from harness.store.source import Source


def loosening_of(old_raw: bytes | None, new: settings.GatePolicy, configured: list[str] | None = None) -> list[str]:
    """How ``new`` loosens the policy ``old_raw`` (None: the defaults `harness init` writes for the
    evidence types ``configured``) — the one change-diff of gate.yaml, shown by `harness approve
    gate-change` and refused by the commit guard."""
    from harness import resources

    old_raw = resources.default_gate(configured or []) if old_raw is None else old_raw
    try:
        before = settings.parse_gate(old_raw)
    except HarnessError:
        return []  # the old policy was invalid; a valid one can only help
    return core_policy.loosenings(before.doc, new.doc)


def unapproved_loosening(old_raw: bytes | None, new: settings.GatePolicy, approvals: bytes | None,
                         trusted: Sequence[Source], signers: trust.Signers, configured: list[str] | None = None
                         ) -> tuple[list[str], str | None]:
    """How ``new`` loosens the policy ``old_raw`` unless a signed approval verified against
    ``trusted``'s signers (or the command's own root, ``signers``) covers it, and why a claimed one did not."""
    loosened = loosening_of(old_raw, new, configured)
    if not loosened:
        return [], None
    ok, why = trust.approved(approvals, "gate-change", new.digest, trusted, signers)
    return ([], None) if ok else (loosened, why)
