"""CI's re-run of PASS_TO_PASS and FAIL_TO_PASS: measured again, against a base history vouches for.

The base a task recorded lives in its ledger, which a forger writes too: a base set to the agent's
own commit (tests already weakened there) or to the root commit (no test yet) would make PASS_TO_PASS
protect nothing. CI knows what history it already judged (the previous tip of the pushed branch, a
pull request's target): the base is re-derived as the newest commit the audited commit shares with
that history. A recorded base outside it is refused; an older one inside it (the branch moved on
since the task started) gives way to the derived one, whose tests the commit must keep passing too.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from harness import paths
from harness.errors import HarnessError
from harness.gitio.git import Git
from harness.gitio.tree_source import TreeSource
from harness.history.change_rules import Problem
from harness.history.rerun.execute import CONTRADICTED, REPRODUCES, UNRUNNABLE, contradiction
from harness.history.rerun.plan import Planned
from harness.runner import clean_env
from harness.store import settings

if TYPE_CHECKING:
    from harness.evidence.pass_to_pass import TreeEnv
    from harness.signatures.trust import Signers


def vouched(git: Git, commit: str, trusted: Sequence[str], branch: str | None) -> list[str]:
    """Of the commits the audit already judged, those on the protected branch: a feature branch's
    previous tip was pushed by the agent and never gated. When none is, and ``commit`` is not on the
    protected branch itself, its tip (the history the change would join) is what it is measured from."""
    tip = next(iter(git.protected_tips(branch)), None)
    if tip is None:
        return list(trusted)  # nothing here names the protected branch: the range is all we know
    kept = [t for t in trusted if git.has_commit(t) and git.is_ancestor(t, tip)]
    return kept or ([tip] if not git.is_ancestor(commit, tip) else [])


def derived_base(git: Git, commit: str, trusted: Sequence[str]) -> str | None:
    """The newest commit ``commit`` shares with the ``trusted`` history (None: nothing is trusted,
    or nothing is shared)."""
    bases = list(dict.fromkeys(b for t in trusted for b in git.merge_bases(commit, t)))
    for candidate in bases:
        if all(b == candidate or git.is_ancestor(b, candidate) for b in bases):
            return candidate
    return bases[0] if bases else None


def measured_base(git: Git, item: Planned, commit: str, trusted: Sequence[str]) -> tuple[str | None, str, str | None]:
    """(the base to measure against, what was decided, why the recorded base is refused or None)."""
    recorded = item.base
    trusted = vouched(git, commit, trusted, (item.suite or {}).get("base"))
    derived = derived_base(git, commit, trusted) if trusted else None
    if derived is None:
        return recorded, "the base as recorded (no history before this range to derive it from)", None
    if not recorded or not git.has_commit(recorded) or not git.is_ancestor(recorded, derived):
        return None, "", (f"its recorded base {(recorded or 'none')[:12]} is not in the history this range builds on "
                          f"(derived from it: {derived[:12]}): the tests would be measured as the change itself "
                          "left them")
    if recorded == derived:
        return derived, f"base {derived[:12]}, as recorded and as derived from history", None
    return derived, f"base {derived[:12]} derived from history (recorded {recorded[:12]} is older)", None


def execute_pass_to_pass(git: Git, src: TreeSource, item: Planned, commit: str, stream: Callable[[str], None],
                         trusted: Sequence[str] = (), tree_env: TreeEnv | None = None, *,
                         signers: Signers) -> tuple[dict, Problem | None]:
    """PASS_TO_PASS measured again at ``commit`` against the base, in CI's clean environment (made
    for each worktree by ``tree_env``: see :meth:`harness.history.rerun.isolation.RerunGuard.tree_env`);
    a suite-change approval counts when it verifies against the commit's signers, or ``signers``' root,
    and was given for the base measured: one given for an older base (the recorded one, which the
    derived base replaced) speaks to the cases as that base had them, not as this one has them."""
    from harness.evidence.pass_to_pass import approved_cases, remeasure

    row, base, refusal = _begin(git, item, commit, trusted, stream, "the base's protected files over the commit")
    if refusal:
        return row, refusal
    try:
        approvals = src.read(paths.APPROVALS)
        excusable = approved_cases(git, base, approvals, signers, [src]) if base else set()
        outcome, lost = remeasure(git, commit, base, item.suite or {}, settings.config_of(src), clean_env(), excusable,
                                  tree_env)
    except HarnessError as exc:
        outcome, lost, row["error"] = None, [], _said(exc)
    verdict = UNRUNNABLE if outcome is None else REPRODUCES if outcome == item.expect[0] else CONTRADICTED
    row.update(base=base, outcome=outcome, lost=[f"{c} ({how_lost})" for c, how_lost in lost[:20]], result=verdict)
    stream(f"  → {verdict} ({outcome or 'no report'}, {len(lost)} base case(s) lost)")
    return row, contradiction(item, commit, verdict, f"measured again it {outcome} ({len(lost)} base case(s) lost: "
                              f"{', '.join(row['lost'][:5])})", "restore the tests as the base had them (or have a "
                              "human approve the change), fix the code, and re-gate")


def execute_fail_to_pass(git: Git, src: TreeSource, item: Planned, commit: str, stream: Callable[[str], None],
                         trusted: Sequence[str] = (), tree_env: TreeEnv | None = None) -> tuple[dict, Problem | None]:
    """FAIL_TO_PASS measured again: no case a requirement or a fixed finding leans on passes on the
    base's source with the commit's tests (a case that does proves nothing about the change)."""
    from harness.evidence.pass_to_pass import remeasure_fail_to_pass

    row, base, refusal = _begin(git, item, commit, trusted, stream, "the commit's protected files over the base's source")
    if refusal:
        return row, refusal
    try:
        cases, unproven = remeasure_fail_to_pass(git, commit, base, item.suite or {}, settings.config_of(src),
                                                 clean_env(), tree_env) if base else (None, None)
    except HarnessError as exc:
        cases, unproven, row["error"] = None, None, _said(exc)
    gaps = [] if cases is None else remeasured_gaps(item.cases, cases, unproven)
    verdict = UNRUNNABLE if cases is None else CONTRADICTED if gaps else REPRODUCES
    row.update(base=base, cases=len(item.cases), gaps=gaps[:20], result=verdict)
    stream(f"  → {verdict} ({len(gaps)} problem(s) with {len(item.cases)} proving case(s) without the change)")
    return row, contradiction(item, commit, verdict, f"measured again without the change: {'; '.join(gaps[:5])}",
                              "name tests that fail without the change, and re-gate")


def _said(exc: HarnessError) -> str:
    return exc.message + (f" — {exc.hint}" if exc.hint else "")


def remeasured_gaps(proving: Sequence[str], at_base: dict[str, str], unproven: str | None) -> list[str]:
    """The local gate's FAIL_TO_PASS rules, on CI's own run of the change's tests on the base's source:
    some case must pass there, unless nothing passing is the change's doing (``unproven`` None: see
    :mod:`harness.evidence.without_change`), and none of ``proving`` may pass or be missing there."""
    from harness.core.cases import fail_to_pass_gaps

    if not any(outcome == "passed" for outcome in at_base.values()) and unproven is not None:
        return [f"no case passed without the change: {unproven}, so none is shown to fail because of it"]
    return fail_to_pass_gaps("the verdict", "it", proving, dict.fromkeys(proving, "passed"), at_base)


def _begin(git: Git, item: Planned, commit: str, trusted: Sequence[str], stream: Callable[[str], None],
           what: str) -> tuple[dict[str, Any], str | None, Problem | None]:
    """What both re-measures start with: the run's row, the base to measure against, and the
    refusal of the recorded base (None when it stands)."""
    row: dict[str, Any] = {"task": item.task, "kind": item.kind, "what": item.what, "commit": commit,
                           "expected": item.expect[0], "recorded_base": item.base}
    base, how, refused = measured_base(git, item, commit, trusted)
    if refused:
        row, problem = _refused(row, item, commit, refused, stream)
        return row, None, problem
    stream(f"{commit[:12]} {item.task} {item.kind}: {what}; {how} …")
    return row, base, None


def _refused(row: dict, item: Planned, commit: str, why: str, stream: Callable[[str], None]) -> tuple[dict, Problem]:
    row.update(result=CONTRADICTED, error=why)
    stream(f"{commit[:12]} {item.task} {item.kind}: {why} → {CONTRADICTED}")
    return row, Problem(item.record, "rerun-reproduces", f"{item.task} at {commit[:12]}: {item.kind} {why} — "
                        f"{CONTRADICTED}", "start the task from the protected branch (`harness task new` on a checkout "
                                           "of it) and collect the evidence again")
