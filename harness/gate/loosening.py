"""Loosening of the gate policy: how a new gate.yaml loosens the one before it, and whether a signed
approval covers that. The commit hook, the gate and `harness approve gate-change` all ask here."""

from __future__ import annotations

from collections.abc import Sequence

from harness import paths
from harness.core import policy as core_policy
from harness.core.sha256 import sha256
from harness.errors import GATE_LOOSENED, HarnessError
from harness.signatures import trust
from harness.store import settings

TYPE_CHECKING = False  # typing's, without importing typing on a hot path (tests/test_layering.py)
if TYPE_CHECKING:
    from harness.store.reader import LoadedTask
    from harness.store.source import Source
    from harness.store.tasks import TaskStore


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


def refuse_unapproved(src: Source, committed: Source | None, policy: settings.GatePolicy, signers: trust.Signers) -> None:
    """Raise HarnessError of kind GATE_LOOSENED when ``policy``, gate.yaml as ``src`` holds it, loosens ``committed``'s
    (HEAD's; None on an unborn branch: the defaults `harness init` writes for the configured types) and no approval in
    ``src``'s approvals.jsonl signed by one of ``committed``'s signers covers it. The gate judges nothing then, and
    status, every `Next:` and the agent's session context say what it says (read 114's F-0402): each asks here,
    the gate with HEAD read through pygit2, status through git processes (it loads no pygit2)."""
    old = committed.read(paths.GATE) if committed is not None else None
    if old is not None and sha256(old).hexdigest() == policy.digest:
        return  # HEAD's own policy: nothing is loosened, nothing parsed
    configured = None
    if old is None:
        from harness.gate.facts import configured_types

        configured = configured_types(src)
    trusted = [committed] if committed is not None else []
    loosened, why = unapproved_loosening(old, policy, src.read(paths.APPROVALS), trusted, signers, configured)
    if loosened:
        raise HarnessError(".harness/gate.yaml loosens the committed policy without approval: " + "; ".join(loosened)
                           + (f" ({why})" if why else ""),
                           hint="revert it, or have a human run `harness approve gate-change` at a terminal",
                           kind=GATE_LOOSENED)


def refuse_unapproved_now(s: TaskStore, task: LoadedTask, policy: settings.GatePolicy) -> None:
    """:func:`refuse_unapproved` of the working tree's ``policy``, for what judges the gate now and writes nothing
    (status, every `Next:`, the agent's session context), with HEAD's files read through git processes: status loads
    no pygit2. Asked where the gate can pass or evidence is collected, as the gate's facts ask of config.yaml (a status
    before any evidence runs no git process; before GATING the gate blocks anyway)."""
    from harness.core.gate import DECIDING_STATES

    p = task.proj
    if p.state in DECIDING_STATES or p.evidence:
        refuse_unapproved(s.source, s.source.committed_onto(), policy, trust.Signers(lambda: s.git))
