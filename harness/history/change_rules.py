"""Validate a change to `.harness/` between two trees: the rules of the commit hook.

Used by pre-commit (HEAD → the index being committed), by pre-push and `harness audit`
(each commit against its parents, so `--no-verify` buys nothing), and by the merge guard
(only the DONE/CONVERGED rule). Problems are values; the front end prints them.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from harness import paths
from harness.core import gate as core_gate
from harness.core import states
from harness.core.code_only import FOLDER, code_only
from harness.errors import HarnessError
from harness.gate import facts
from harness.gate.loosening import unapproved_loosening
from harness.signatures import trust
from harness.store import reader, settings
from harness.store.evidence_files import check_digests

TYPE_CHECKING = False  # typing's, without importing typing on a hot path (tests/test_layering.py)
if TYPE_CHECKING:
    from harness.core.redact import Redactor
    from harness.store.source import Source


@dataclass(frozen=True)
class Problem:
    file: str
    rule: str
    message: str
    fix: str

    def render(self) -> str:
        return f"{self.file} [{self.rule}]: {self.message}\n    → {self.fix}"

    def as_dict(self) -> dict:
        return {"file": self.file, "rule": self.rule, "message": self.message, "fix": self.fix}


@dataclass
class TaskVerdict:
    """What a change did to one task: its state before and after, and the gate at the new tree."""

    id: str
    before: str | None
    after: str
    gate: core_gate.GateReport | None = None
    # Moved into CONVERGED or DONE by this change (no parent had it there): a claim, judged or not. The gate is
    # None when the commit leaves no usable gate.yaml to judge it by, which is no PASS (read 96's F-0327).
    entered: bool = False


def validate_change(olds: Sequence[Source], new: Source, source_tree: str, signers: trust.Signers,
                    only_gated: bool = False) -> tuple[list[Problem], list[TaskVerdict]]:
    """``olds``: sources of the parent tree(s) (empty for a root commit); ``new``: the tree committed;
    ``signers``: the command's own trust root (the file CI names, or git config's), whose signatures
    count instead of each parent's allowed_signers.

    Only what differs from the parents is examined: a task folder whose tree id equals a
    parent's was judged when that parent was committed (the push guard and audit judge
    every commit against its parents, so `--no-verify` leaves no gap), and so were global
    files whose blob is unchanged. The cost follows the change, not the store's size.
    """
    problems: list[Problem] = []
    verdicts: list[TaskVerdict] = []
    kind = new.kind(paths.HARNESS) if hasattr(new, "kind") else None
    if kind not in (None, "folder"):
        # Compared by id alone, a submodule entry naming the parent's .harness tree is "unchanged", yet a
        # checkout of it holds no record at all (#28's task F-0034).
        return [Problem(paths.HARNESS, "plain-files-only", f".harness is a {kind} entry, not a folder: the commit "
                        "holds none of the record", "commit .harness as the folder its parent holds (`git reset -q "
                        "HEAD -- .harness` puts it back in the index)")], verdicts
    if code_only(_at(new, paths.HARNESS), [_at(o, paths.HARNESS) for o in olds]):
        # .harness/ untouched (a code-only commit changes no task), or absent on both sides
        # (history from before the repository adopted the harness).
        return problems, verdicts
    for path in _special_entries(olds, new):
        # What git records as a link or a submodule is invisible to these checks but not
        # to a CLI that follows it: refuse it rather than judge two different things.
        problems.append(Problem(path, "plain-files-only", "a symlink or submodule inside .harness/",
                                "replace it with the real files (`git rm --cached PATH`, then copy them in)"))
    # The history the change holds, for an approval the published line spent: the commit itself, or the index's
    # parents (read 154's F-0543).
    committed = getattr(new, "rev", None)
    signers = signers.judging([committed] if committed else [rev for o in olds if (rev := getattr(o, "rev", None))])
    policy = _policy(olds, new, problems, only_gated, signers)
    changes = changed_tasks(olds, new)
    if not only_gated:
        _check_local(olds, new, problems)
        _check_secrets(olds, new, problems)
        if olds and _changed(olds, new, paths.APPROVALS):
            _check_approvals_kept(olds, new, problems)
        if _changed(olds, new, paths.CONFIG, paths.APPROVALS):
            _check_config(olds, new, problems, signers)
        _check_signers(olds, new, problems, signers)  # a changed allowed_signers only: two reads otherwise
        for tid, in_new, _ in changes:
            if not in_new:
                problems.append(Problem(f"{reader.TASKS}/{tid}/", "tasks-never-deleted", f"task {tid} was deleted",
                                        f"restore it (`git checkout {_rev(olds)} -- .harness/tasks/{tid}`); "
                                        "finished tasks stay as history"))
    for tid, in_new, priors in changes:
        if not in_new:
            continue
        verdict = _check_task(priors, new, tid, source_tree, policy, problems, only_gated, signers)
        if verdict is not None:
            verdicts.append(verdict)
    return problems, verdicts


def _check_local(olds: Sequence[Source], new: Source, problems: list[Problem]) -> None:
    """`.harness/local/` is one machine's (its lock, caches, the current task, scratch) and is git-ignored: a
    commit that brings it is refused. Among its files is the cache of documents known valid, which a checkout
    would otherwise hand to the checks that judge it (#28's task F-0147)."""
    # By any case of its name: a case-insensitive checkout makes `.harness/LOCAL` the folder (F-0151).
    for name in (n for n in new.listdir(paths.HARNESS) if n.lower() == "local"):
        rel = f"{paths.HARNESS}/{name}"
        local = _at(new, rel)
        if local is not None and all(_at(o, rel) != local for o in olds):
            problems.append(Problem(f"{rel}/", "local-not-committed", f"{rel}/ is this machine's (caches, scratch, "
                                    "the current task): a commit may not carry it",
                                    f"take it out of the commit: `git rm -r -q --cached {rel}`"))


def _check_secrets(olds: Sequence[Source], new: Source, problems: list[Problem]) -> None:
    """The last check: a `.harness/` file the change brings that holds a secret is refused, naming
    file and line. Only files that differ from every parent are read (one a parent holds was
    checked when that parent was); detect-secrets is imported only when there is one."""
    changed = _changed_files(olds, new)
    if not changed:
        return
    from harness.history.own_words import secrets_found
    from harness.store.secrets_check import name_flagged, stored_redactor

    red = stored_redactor(_redaction_patterns([new, *olds]))
    names = {part: name_flagged(part, red) for part in {part for rel in changed for part in rel.split("/")}}
    for rel in changed:
        shown = _check_name(rel, names, red, problems)
        try:
            raw = new.read(rel) or b""
            skip = _kept_lines(olds, rel, raw)
        except HarnessError:
            continue  # too big to read: the reader's own check refuses it
        found = (secrets_found(rel, raw[skip[1]:], new, red) if skip[0]
                 else _not_held(rel, raw, secrets_found(rel, raw, new, red), olds, red))
        for line, rule in [(n + skip[0], r) for n, r in found][:20]:
            problems.append(Problem(f"{shown}:{line}", "secret-in-harness-files",
                                    f"line {line} holds what looks like a secret ({rule})",
                                    "remove it from the file (or rotate the credential if it was ever pushed): the "
                                    "harness redacts what it writes, so this line was written by hand or by an older "
                                    "version; for a task file, correct it and re-render (`harness replay --write`)"))


def _check_name(rel: str, names: dict[str, str | None], red: Redactor, problems: list[Problem]) -> str:
    """A `.harness/` path a part of which holds a secret (``names``: the rule that flags each part, or None) is refused:
    a name is a git tree entry, committed and pushed as a file's text is (read 83's F-0288). Returns the path as the
    problems show it, each such part redacted: never the secret itself."""
    parts = rel.split("/")
    shown = "/".join(_redacted_name(part, red) if names[part] else part for part in parts)
    for rule in [names[part] for part in parts if names[part]]:
        problems.append(Problem(shown, "secret-in-harness-files", f"the file's path holds what looks like a secret "
                                f"({rule})", "take the file out of the commit (`git rm -r -q --cached` its path) and "
                                "name it without the secret (a custom evidence type: its task's evidence of that type "
                                "too); rotate the credential if it was ever pushed"))
    return shown


def _redacted_name(part: str, red: Redactor) -> str:
    """A path's part that holds a secret, as a problem shows it: redacted; a marker alone, should redacting it leave it
    whole, so a problem never shows the secret itself."""
    redacted = red.redact(part)
    return redacted if redacted != part else "[REDACTED]"


def _redaction_patterns(sources: Sequence[Source]) -> tuple[str, ...]:
    """config.yaml's `redaction.patterns` of the commit and of each parent, together: what the project
    names as secret is searched for with the rules it had and has (a commit that drops a pattern and
    brings its value is read with the parent's). A config no reader accepts adds none: its own check
    refuses it."""
    found: dict[str, None] = {}
    for src in sources:
        try:
            found.update(dict.fromkeys(settings.config_of(src).redaction))
        except HarnessError:
            continue
    return tuple(found)


def _not_held(rel: str, raw: bytes, found: list[tuple[int, str]], olds: Sequence[Source], red: Any) -> list[tuple[int, str]]:
    """``found`` without what a parent's version of the file already held, flagged alike (the same value,
    whole, found by the same rule): it was judged when that parent was committed. A finding's YAML file is
    rendered again from its ledger at each change of state, and a rule newer than the text (an encoding
    decoded now) would otherwise refuse every later commit of it, which an append-only ledger cannot change.
    Whole values, not lines: a YAML value spans lines, and its first line unchanged says nothing of the
    others (F-0162)."""
    if not found or not olds:
        return found
    from harness.store.secrets_check import flagged_values

    held = set()
    for old in olds:
        before = old.read(rel)
        if before:
            held |= {(value, rule) for _, rule, value in flagged_values(rel, before, red)}
    kept = {(line, rule) for line, rule, value in flagged_values(rel, raw, red) if (value, rule) not in held}
    return [(line, rule) for line, rule in found if (line, rule) in kept]


def _kept_lines(olds: Sequence[Source], rel: str, raw: bytes) -> tuple[int, int]:
    """(lines, bytes) of a JSONL file that a parent already holds as the start of ``raw``: a ledger
    only grows, its lines are judged one by one, and those lines were judged with that parent — so
    a commit appending to a long ledger reads its new lines only, not its whole life."""
    if not rel.endswith(".jsonl"):
        return 0, 0
    held = [old for old in (o.read(rel) for o in olds) if old and old.endswith(b"\n") and raw.startswith(old)]
    longest = max(held, key=len, default=b"")
    return longest.count(b"\n"), len(longest)


def _changed_files(olds: Sequence[Source], new: Source) -> list[str]:
    """Every file under `.harness/` in ``new`` that differs from each parent (all of them without one)."""
    if olds and hasattr(new, "changes_since") and all(hasattr(o, "changes_since") for o in olds):
        tree: Any = new
        found = [{f"{paths.HARNESS}/{path}" for path, mode in tree.changes_since(o, paths.HARNESS)
                  if mode and not tree.is_special(mode)} for o in olds]
        return sorted(set.intersection(*found))
    out, stack = [], [paths.HARNESS]
    while stack:
        folder = stack.pop()
        for name in new.listdir(folder):
            rel = f"{folder}/{name}"
            if new.listdir(rel):
                stack.append(rel)
            elif not olds or any(_at(o, rel) != _at(new, rel) or _at(new, rel) is None for o in olds):
                out.append(rel)
    return sorted(out)


def changed_tasks(olds: Sequence[Source], new: Source) -> list[tuple[str, bool, list]]:
    """(task id, is a task in ``new``, the parents it was a task in) for every task folder
    that differs from a parent, by comparing tree ids: an unchanged folder is never read."""
    if olds and all(hasattr(s, "changes_since") for s in (new, *olds)):
        # Only folders with a changed file are candidates (git's tree diff skips equal ids).
        tree: Any = new  # a TreeSource
        names = {path.split("/", 1)[0] for o in olds for path, _ in tree.changes_since(o, reader.TASKS)}
    else:
        names = set(new.listdir(reader.TASKS)).union(*(o.listdir(reader.TASKS) for o in olds))
    out = []
    for name in sorted(names):
        folder = f"{reader.TASKS}/{name}"
        oid = _at(new, folder)
        holders = [_at(o, folder) for o in olds if _at(o, folder) is not None]
        if oid is not None and holders and all(h == oid for h in holders):
            continue  # the same tree in every parent holding it: judged when that parent was committed
        in_new = reader.is_task(new, name)
        priors = [o for o in olds if reader.is_task(o, name)]
        if in_new or priors:
            out.append((name, in_new, priors))
    return out


def _special_entries(olds: Sequence[Source], new: Source) -> list[str]:
    """Symlinks and submodules in ``new``'s .harness/ that are not exactly as in a parent."""
    if not hasattr(new, "special_entries"):
        return []
    if not olds or not all(hasattr(o, "changes_since") for o in olds):
        return new.special_entries(paths.HARNESS, _known_to(olds))
    tree: Any = new  # a TreeSource
    found = [{f"{paths.HARNESS}/{path}" for path, mode in tree.changes_since(o, paths.HARNESS) if tree.is_special(mode)}
             for o in olds]
    return sorted(set.intersection(*found))


def _known_to(olds: Sequence[Source]) -> Callable[[str, str], bool]:
    """Whether a parent holds the tree ``oid`` at ``path`` (then it was judged with that parent)."""
    def known(path: str, oid: str) -> bool:
        return any(_at(o, path) == (FOLDER, oid) for o in olds)
    return known


def _changed(olds: Sequence[Source], new: Source, *rels: str) -> bool:
    """Whether any of the files ``rels`` differs from a parent (or there is no parent to compare with)."""
    if not olds:
        return True
    return any(_at(o, rel) != _at(new, rel) or (_at(new, rel) is None and o.read(rel) != new.read(rel))
               for o in olds for rel in rels)


def _rev(olds: Sequence[Source]) -> str:
    """How a hint names the commit to restore from: the parent being compared with."""
    rev = getattr(olds[0], "rev", None) if olds else None
    return rev[:12] if rev and rev != "HEAD" else "HEAD"


def _at(src: Source, rel: str) -> tuple[str, str] | None:
    """What ``src`` records at ``rel`` as one comparable value, (kind, id) as :func:`code_only` takes it: a
    submodule entry naming a tree or a blob is not that folder or file (F-0048 for .harness, F-0049 below
    it). None when absent, or when the source keeps no ids (a folder on disk), as such sources always were."""
    oid = src.oid(rel) if hasattr(src, "oid") else None
    if oid is None:
        return None
    return (src.kind(rel) if hasattr(src, "kind") else None) or FOLDER, oid


def _policy(olds: Sequence[Source], new: Source, problems: list[Problem],
            only_gated: bool, signers: trust.Signers) -> settings.GatePolicy | None:
    raw = new.read(paths.GATE)
    if raw is None:
        problems.append(Problem(paths.GATE, "gate-policy", "gate.yaml is missing", f"restore it: `git checkout {_rev(olds)} -- .harness/gate.yaml` or `harness init`"))
        return None
    try:
        pol = settings.parse_gate(raw)
    except HarnessError as exc:
        problems.append(Problem(paths.GATE, "schema", exc.message, "fix the field named; `harness init` documents every key"))
        return None
    if only_gated:
        return pol
    if olds and not _changed(olds, new, paths.GATE, paths.APPROVALS, paths.CONFIG):
        return pol  # the very gate.yaml, approvals and config of every parent: judged when it was committed
    # Against each parent's policy, approved by a signer that parent trusts (a merge must not
    # borrow an unrelated parent's allowed_signers to loosen the other side's gate); a
    # first-ever gate.yaml is judged against the defaults.
    befores = [(o.read(paths.GATE), [o]) for o in olds if o.read(paths.GATE) is not None] or [(None, list(olds))]
    for old_raw, trusted in befores:
        loosened, why = unapproved_loosening(old_raw, pol, new.read(paths.APPROVALS), trusted, signers,
                                             facts.configured_types(new))
        if loosened:
            problems.append(Problem(paths.GATE, "gate-only-tightens", "loosens the gate: " + "; ".join(loosened)
                                    + (f" ({why})" if why else ""),
                                    "a human runs `harness approve gate-change` at a terminal (signed with their SSH "
                                    "key, bound to this exact gate.yaml), or revert the loosening; tightening needs "
                                    "no approval" + _during_the_merge(olds, paths.GATE)))
    return pol


def _during_the_merge(olds: Sequence[Source], rel: str) -> str:
    """What a merge's refusal adds to the way out: approving while the merge is in progress records one approval against
    each parent's file, which is what the rule asks of each parent. An approval made at HEAD covered the first parent
    only, and "approve again" led in a circle (read 154's F-0542)."""
    if len(olds) < 2:
        return ""
    return (f" (a merge: approve during the merge, before committing it — `approve` then covers every parent whose "
            f"{rel.rsplit('/', 1)[-1]} the merge changes, one approval bound to each parent's file)")


def _check_signers(olds: Sequence[Source], new: Source, problems: list[Problem], signers: trust.Signers) -> None:
    """Who may sign approvals is policy too: a changed allowed_signers needs an approval signed
    by a key the parent already lists. (The first one, where no parent had any, sets the root
    up; only a trust root kept outside the repository — CI's — guards that moment.)"""
    raw = new.read(paths.ALLOWED_SIGNERS)
    for old in olds:
        before = old.read(paths.ALLOWED_SIGNERS)
        if before is None or before == raw:
            continue
        ok, why = trust.approved(new.read(paths.APPROVALS), "signers-change", _digest(raw or b""), [old], signers)
        if not ok:
            problems.append(Problem(paths.ALLOWED_SIGNERS, "signers-change-needs-approval",
                                    "changes who may sign approvals" + (f" ({why})" if why else ""),
                                    "an approver already listed runs `harness approve signers-change` at a terminal, "
                                    "or revert the change" + _during_the_merge(olds, paths.ALLOWED_SIGNERS)))


def _lf_lines(raw: bytes | None) -> list[bytes]:
    """The lines of a JSONL file as its readers see them: split at LF only, the empty rest after a
    final LF dropped."""
    parts = (raw or b"").split(b"\n")
    return parts[:-1] if parts and parts[-1] == b"" else parts


def _check_approvals_kept(olds: Sequence[Source], new: Source, problems: list[Problem]) -> None:
    """approvals.jsonl is a ledger: a commit appends to it and never rewrites or drops a line. (An
    approval counts once — not when its parent already holds it — so one taken out in one commit
    and put back in the next, with the loosening it was spent on, would count again.) Compared by
    lines, so a last line without its newline cannot be continued into another. A merge continues
    one side's file and keeps every line of the other's (two branches may each have appended)."""
    # Lines end in LF, as the reader splits them: splitlines would also split at a CR, so a CR put
    # inside a committed line (which then no longer parses: the approval "leaves") would pass.
    new_lines = _lf_lines(new.read(paths.APPROVALS))
    befores = [(old, _lf_lines(old.read(paths.APPROVALS))) for old in olds]
    continues = [old for old, lines in befores if new_lines[:len(lines)] == lines]
    kept = set(new_lines)
    for old, lines in befores:
        if old in continues:
            continue
        if continues and len(olds) > 1:
            missing = next((n for n, line in enumerate(lines, start=1) if line not in kept), None)
            if missing is None:
                continue  # a merge: every line of this side is there, after the other side's
            what = f"line {missing} of {paths.APPROVALS} in {getattr(old, 'label', 'a parent')} is gone from the merge"
        else:
            what = _first_difference(b"\n".join(lines), b"\n".join(new_lines), f"committed {paths.APPROVALS}")
        problems.append(Problem(paths.APPROVALS, "approvals-append-only", what,
                                f"restore the committed approvals (`git checkout {_rev([old])} -- {paths.APPROVALS}`); "
                                "approvals are only ever added, each by a human at a terminal (`harness approve gate-change` and its siblings)"))
        return


def _check_config(olds: Sequence[Source], new: Source, problems: list[Problem], signers: trust.Signers) -> None:
    from harness.gate import config_approval

    try:
        facts.configured_identities(new)  # a missing config.yaml names no command at all
    except HarnessError as exc:
        problems.append(Problem(paths.CONFIG, "schema", exc.message, "fix the field named"))
        return
    for old in olds:  # against every parent: a merge must not smuggle in one side's `true`
        # What `harness approve config-change` shows and signs, and the gate blocks on, asked of the one function (read
        # 102's F-0359, 103's F-0361); vouched for by this parent's signers: the side whose commands change.
        needs, why = config_approval.refused(old, new, signers)
        if needs.patterns:
            problems.append(Problem(paths.CONFIG, "redaction-patterns-need-approval",
                                    f"drops {len(needs.patterns)} of redaction.patterns: what they name as secret would "
                                    "reach the next commit's files unchecked" + (f" ({why})" if why else ""),
                                    "a human runs `harness approve config-change` at a terminal (bound to this exact "
                                    "config.yaml), or keep the patterns; adding one needs no approval"
                                    + _during_the_merge(olds, paths.CONFIG)))
        if needs.commands:
            problems.append(Problem(paths.CONFIG, "evidence-commands-need-approval", "changes what proves an evidence "
                                    "type: " + "; ".join(needs.commands) + (f" ({why})" if why else ""),
                                    "a human runs `harness approve config-change` at a terminal (bound to this exact "
                                    "config.yaml), or revert the change; the commit that adopts the harness configures its "
                                    "commands itself" + _during_the_merge(olds, paths.CONFIG)))


def _digest(raw: bytes) -> str:
    import hashlib

    return hashlib.sha256(raw).hexdigest()


def _check_task(priors: Sequence[Source], new: Source, tid: str, source_tree: str, policy: settings.GatePolicy | None,
                problems: list[Problem], only_gated: bool, signers: trust.Signers) -> TaskVerdict | None:
    """Everything about one changed task; ``priors``: the parents it already was a task in."""
    folder = f"{reader.TASKS}/{tid}"
    ledger_rel = f"{folder}/events.jsonl"
    both = None if only_gated else _advanced_on_both_sides(priors, tid, ledger_rel)
    if both is not None:
        problems.append(both)
        return None
    before_states: list[str | None] = []
    for old in priors:
        old_raw, new_raw = old.read(ledger_rel) or b"", new.read(ledger_rel) or b""
        if not only_gated and not new_raw.startswith(old_raw):
            problems.append(Problem(ledger_rel, "ledger-append-only", _first_difference(old_raw, new_raw),
                                    f"restore the committed ledger (`git checkout {_rev([old])} -- {ledger_rel}`) and make "
                                    "changes only through harness commands"))
            return None
        before_states.append(reader.state_of(old, tid))
        if not only_gated:
            _findings_kept(old, new, folder, problems)
    try:
        task = reader.load_task(new, tid)
    except HarnessError as exc:
        problems.append(Problem(folder, "valid-ledger-and-files", exc.render(), "restore the files from git and use harness commands"))
        return None
    if not only_gated:
        for d in reader.disagreements(task):
            problems.append(Problem(d.file, "projection-matches-ledger",
                                    f"{d.field}: ledger says {d.ledger!r}, file says {d.found!r}", d.fix()))
        for text in check_digests(new, task):
            problems.append(Problem(f"{folder}/evidence/", "evidence-matches-ledger", text, "re-collect with `harness evidence TYPE`"))
    entering = task.proj.state in states.GATED_STATES and task.proj.state not in before_states
    verdict = TaskVerdict(tid, before_states[0] if before_states else None, task.proj.state, entered=entering)
    if entering and policy is not None:
        verdict.gate = _gate_at(new, task, policy, source_tree, problems, signers)
    return verdict


def _advanced_on_both_sides(priors: Sequence[Source], tid: str, ledger_rel: str) -> Problem | None:
    """A merge whose parents' ledgers of ``tid`` each hold events the other lacks (neither is a prefix of the other).
    No ledger extends both, whatever the merge holds: naming one parent's to restore sends the next commit to the
    other's, a loop (read 105's F-0371). Named as what it is, with the ways out that work. The two chains are never
    joined here: each event names the hash of the one before, and their order is what the state machine judged."""
    ledgers = [(old, old.read(ledger_rel) or b"") for old in priors]
    for n, (one, a) in enumerate(ledgers):
        for other, b in ledgers[n + 1:]:
            if a.startswith(b) or b.startswith(a):
                continue
            line = next((k for k, (x, y) in enumerate(zip(a.split(b"\n"), b.split(b"\n")), start=1) if x != y), 1)
            rev = _rev(priors[:1])  # this branch: the merge's first parent
            return Problem(ledger_rel, "ledger-diverged",
                           f"task {tid} advanced on both sides of the merge: {_rev([one])} and {_rev([other])} each "
                           f"hold events of it the other lacks, from line {line} on",
                           "a merge commit's ledger must extend each parent's, and none extends both (each event "
                           "names the hash of the one before): abandon the merge (`git merge --abort`), or make it an "
                           "ordinary commit of this branch: `git merge --quit`, keep this branch's record of the task "
                           f"(`git restore --source={rev} --staged --worktree -- {reader.TASKS}/{tid}`), record the "
                           "other branch's events again with the harness commands that made them, and commit; the "
                           "other branch's commits stay out of this history (a merge already committed is replaced "
                           "the same way, from its first parent)")
    return None


def _gate_at(new: Source, task: reader.LoadedTask, policy: settings.GatePolicy, source_tree: str,
             problems: list[Problem], signers: trust.Signers) -> core_gate.GateReport | None:
    """A task entering CONVERGED/DONE: a recorded PASS for exactly this tree, and a recomputation that agrees."""
    folder = f"{reader.TASKS}/{task.id}"
    fix = ("re-collect the evidence (`harness evidence TYPE`), run `harness gate`, then commit exactly the tree "
           "the gate judged (amend this commit)")
    last = task.proj.last_gate or {}
    partial = _left_out(new, last, source_tree, task.proj.state)
    if partial:
        fix = partial
    elif task.proj.state == "DONE" and last.get("verdict") == "PASS" and last.get("tree") != source_tree:
        fix = ("this DONE commit was rewritten after its gate (rebase, cherry-pick, squash or amend carried the "
               "ledger onto other code): push the original gated commit and merge it instead — `git reflog` finds it")
    ok, detail = task.proj.gate_pass_for(source_tree, policy.digest)
    if not ok:
        problems.append(Problem(f"{folder}/events.jsonl", "done-needs-gate-pass",
                                f"{task.id} is {task.proj.state} but there is no gate PASS for the committed source tree "
                                f"{source_tree[:12]}: {detail}", fix))
    try:
        report = core_gate.evaluate(facts.gate_input(new, task, policy, source_tree, signers))
    except HarnessError as exc:
        problems.append(Problem(folder, "done-needs-gate-pass", exc.render(), fix))
        return None
    if report.verdict != "PASS":
        problems.append(Problem(folder, "done-needs-gate-pass",
                                f"{task.id} is {task.proj.state} but the gate recomputed on the committed content is "
                                f"BLOCKED: " + "; ".join(b.text for b in report.blockers), fix))
    return report


def _left_out(new: Source, last: dict[str, Any], source_tree: str, state: str) -> str | None:
    """At commit time (the index), a gate PASS on another tree means the commit does not hold
    what was gated: name those paths, and the way out that fits each — a path the working tree
    still has as the gate judged it was left out (stage it); a path changed after the gate has
    to be set aside (a DONE task takes no new evidence), or, for CONVERGED, judged again. The
    commands name every path (one left out would be refused again); the prose names five."""
    if getattr(new, "label", None) != "index" or last.get("verdict") != "PASS" or not last.get("tree") \
            or last["tree"] == source_tree or not hasattr(new, "changed_paths"):
        return None
    gated = last["tree"]
    files, total = new.changed_paths(gated, source_tree, limit=1 << 30)
    if total <= 0:
        return None
    # Under the pre-commit framework the unstaged changes are stashed while hooks run: the
    # working tree it leaves is the index, and what the user has on disk cannot be seen.
    if os.environ.get("PRE_COMMIT") or not hasattr(new, "since_tree"):
        return (f"the gate judged the working tree, and this commit leaves out (or changes) {_names(files)}: "
                f"if the gate judged it as it is on disk, stage it too (`git add {_quoted(files)}`); if it changed "
                f"after the gate, {_set_aside(new, gated, files, state)}")
    left, later = new.since_tree(gated, files)
    parts = []
    if left:
        parts.append(f"the gate judged the working tree, and this commit leaves out {_names(left)}: stage it too "
                     f"(`git add {_quoted(left)}`) and commit again")
    if later:
        parts.append(f"{_names(later)} changed after the gate judged the tree, and the commit must hold exactly the "
                     f"tree the gate passed: {_set_aside(new, gated, later, state)}")
    return "; ".join(parts)


def _names(files: list[str]) -> str:
    return ", ".join(files[:5]) + (f" (+{len(files) - 5} more)" if len(files) > 5 else "")


def _quoted(files: list[str]) -> str:
    import shlex

    return " ".join(shlex.quote(p) for p in files)


def _set_aside(new: Any, gated: str, files: list[str], state: str) -> str:
    """How to commit the gated tree while keeping a change made after the gate."""
    steps = f"set the change aside (`git stash push --include-untracked -- {_quoted(files)}`)"
    head = new.head_tree() if hasattr(new, "head_tree") else None
    # The stash puts back HEAD's version; where the gate judged another one, bring that back too.
    restore = [p for p in files if hasattr(new, "same_in") and not new.same_in(gated, head, p)
               and not new.same_in(gated, None, p)]
    if restore:
        steps += f", bring back what the gate judged (`git restore --source={gated} --staged --worktree -- {_quoted(restore)}`)"
    steps += ", commit again, then `git stash pop` and start a new task for the change (`harness task new \"TITLE\"`)"
    if state == "CONVERGED":
        steps += ("; or keep it in this task: re-collect the evidence (`harness evidence TYPE`) and re-judge "
                  "(`harness gate`)")
    return steps


def _findings_kept(old: Source, new: Source, folder: str, problems: list[Problem]) -> None:
    gone = set(old.listdir(f"{folder}/findings")) - set(new.listdir(f"{folder}/findings"))
    for name in sorted(gone):
        problems.append(Problem(f"{folder}/findings/{name}", "findings-never-deleted", "a finding was deleted",
                                f"restore it (`git checkout {_rev([old])} -- {folder}/findings/{name}`); reject it with "
                                "`harness finding reject` instead"))


def _first_difference(old: bytes, new: bytes, what: str = "committed ledger") -> str:
    old_lines, new_lines = old.splitlines(), new.splitlines()
    for n, (a, b) in enumerate(zip(old_lines, new_lines), start=1):
        if a != b:
            return f"line {n} of the {what} was rewritten"
    if len(new_lines) < len(old_lines):
        return f"the {what.removeprefix('committed ')} lost {len(old_lines) - len(new_lines)} committed line(s)"
    return f"the {what} is not a prefix of the new one"
