"""What in a change of config.yaml needs a human's approval, and whether signed approvals cover it. The commit
rule, the gate and `harness approve config-change` all ask here, so what a commit is refused for is what the human
is shown and signs (read 102's F-0359: approve listed the evidence commands alone, while the commit rule asked for
dropped redaction patterns too, and an approval signed over the whole file let an unseen drop through)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from harness import paths
from harness.core import policy as core_policy
from harness.core.value_class import dataclass
from harness.errors import HarnessError
from harness.signatures import trust
from harness.store import settings

TYPE_CHECKING = False  # typing's, without importing typing on a hot path (tests/test_layering.py)
if TYPE_CHECKING:
    from harness.store.source import Source

KIND = "config-change"


@dataclass(frozen=True)
class Needs:
    """What a change of config.yaml asks a human for: each evidence command added, changed or removed (swapping
    `pytest` for `true` loosens the gate), and each redaction pattern dropped (what it named as secret would reach
    the next commit's files unchecked, #28's task F-0160), as an approval spells them."""
    commands: list[str]
    patterns: list[str]

    @property
    def items(self) -> list[str]:
        return [*self.commands, *self.patterns]

    def named(self) -> list[str]:
        """What changes, by the fields it changes and no value (`evidence.unit_test.command`, `redaction.patterns
        (drops 1)`): what a gate blocker, recorded in a task's ledger, says of it (``items`` may spell a secret)."""
        fields = [item.split(" ", 1)[0] for item in self.commands]
        return [*dict.fromkeys(fields), *([f"redaction.patterns (drops {len(self.patterns)})"] if self.patterns else [])]


NONE = Needs([], [])


def needing_approval(old: Source | None, new: Source, shown: Callable[[list[str]], str] = core_policy.spelled_argv) -> Needs:
    """What the change from ``old``'s config.yaml to ``new``'s needs a human's approval for (``shown`` spells a command
    or a pattern, as `approve` redacts what it shows: read 63b's F-0174). Raises HarnessError when ``new``'s does not
    load. ``old`` None (no commit yet), or one that does not load, configured nothing anyone could rely on: every
    command of ``new``'s counts as added, and no pattern as dropped (the commit rule lets a parent's broken file go
    before it asks: its own check refused that file)."""
    after = settings.config_of(new)
    try:
        before = settings.config_of(old) if old is not None else None
    except HarnessError:
        before = None
    return _needs(before, after, shown)


def _needs(before: settings.Config | None, after: settings.Config, shown: Callable[[list[str]], str] = core_policy.spelled_argv) -> Needs:
    """:func:`needing_approval` of two configurations already read (``before`` None: nothing configured)."""
    commands = core_policy.command_changes(before.configured_identity() if before else {}, after.configured_identity(),
                                           shown)
    kept = set(after.redaction)
    dropped = [p for p in (before.redaction if before else ()) if p not in kept]
    return Needs(commands, [f"redaction.patterns drops {shown([p])!r}" for p in dropped])


def refused(old: Source, new: Source, signers: trust.Signers) -> tuple[Needs, str | None]:
    """What the commit rule refuses of config.yaml going from the parent ``old``'s to ``new``'s: (what needs a human's
    approval that no approval in ``new``'s approvals.jsonl covers, why a claimed one did not count). Nothing when the
    file is the parent's, when the parent holds no `.harness/` (this commit adopts the harness, and whoever adopts it
    configures its commands) or a config.yaml that does not load (it named no command anyone could rely on), or when
    an approval bound to this step covers it. The commit hook asks this of each parent, the gate of HEAD for the
    working tree or the index it judges (read 103's F-0361: the gate passed what the commit then refused). Raises
    HarnessError when ``new``'s does not load."""
    raw, old_raw = new.read(paths.CONFIG), old.read(paths.CONFIG)  # each read once: a commit's costs a git process
    if old_raw == raw or not old.listdir(paths.HARNESS):
        return NONE, None
    try:
        before = settings.parse_config(old_raw, cache=old.valid_cache)
        before.configured_identity()
    except HarnessError:
        return NONE, None
    needs = _needs(before, settings.parse_config(raw, cache=new.valid_cache))
    if not needs.items:
        return NONE, None
    ok, why = approval_of(new.read(paths.APPROVALS), raw, old, signers)
    return (NONE, None) if ok else (needs, why)


def approval_of(approvals: bytes | None, raw: bytes | None, old: Source, signers: trust.Signers,
                signed_by: Sequence[Source] | None = None) -> tuple[bool, str | None]:
    """Whether an approval in ``approvals`` covers config.yaml going from ``old``'s to the file ``raw``: bound to
    exactly that step, signed by one of ``old``'s signers (``signed_by``'s, when named), and not one ``old`` already
    held (spent on an earlier change); else (False, why a claimed one did not count)."""
    if raw is None:
        return False, None
    import hashlib

    return trust.approved(approvals, KIND, hashlib.sha256(raw).hexdigest(), [old], signers, signed_by)


def vouched_since(src: Source, since: Source, since_commit: str, signers: trust.Signers) -> tuple[bool, str | None]:
    """Whether a human approved how config.yaml came from ``since``'s (the task's base, commit ``since_commit``) to
    ``src``'s: in one approval bound to the base's file, or step by step — each commit of the first-parent line after
    the base that changed it, and then ``src``'s own change of it, covered by an approval (in ``src``'s approvals,
    which only grow) bound to that step, from its parent's file to its own, and signed by one of the base's signers;
    or needing none (read 102's F-0360: only the first of two approved changes was bound to the base's file).
    (True, None), or (False, the commit whose step no approval covers: None for ``src``'s own change, or where no
    line leads from the base)."""
    approvals = src.read(paths.APPROVALS)
    if approval_of(approvals, src.read(paths.CONFIG), since, signers)[0]:
        return True, None
    walk, at = getattr(src, "config_steps", None), getattr(src, "at", None)  # a git-backed source's history
    if walk is None or at is None:
        return False, None
    line = walk(since_commit)
    if line is None:
        return False, None
    tip, committed = line
    for parent, commit in committed:
        old, new = at(parent), at(commit)
        if old is None or new is None or not _covered(approvals, new, old, since, signers):
            return False, commit
    head = at(tip)
    if head is None or not _covered(approvals, src, head, since, signers):
        return False, None
    return True, None


def _covered(approvals: bytes | None, new: Source, old: Source, since: Source, signers: trust.Signers) -> bool:
    """A step needing no approval (its commands and patterns kept), or one an approval bound to it covers. A file
    that does not load vouches for nothing: only an approval of the step passes it."""
    raw = new.read(paths.CONFIG)
    if raw == old.read(paths.CONFIG):
        return True
    try:
        if not needing_approval(old, new).items:
            return True
    except HarnessError:
        pass
    return approval_of(approvals, raw, old, signers, signed_by=[since])[0]
