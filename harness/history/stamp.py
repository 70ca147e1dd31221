"""Stamps: a git note on a commit recording what the harness found at that exact commit.

Notes live outside the tracked tree (on refs/notes/harness), so stamping never dirties a work tree
or fails a commit. A note is a record and a cache; every guard recomputes from content.

The stamp runs after every commit, so it keeps what it found (:mod:`stamp_cache`) keyed
by the object ids each finding depends on, and imports the store's readers only for what
it has not seen: a commit that changes one task of a thousand reads one task.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from harness import __version__, paths
from harness.core import stamp_shape
from harness.core.code_only import FOLDER, code_only
from harness.core.states import TERMINAL
from harness.errors import HarnessError
from harness.gitio.git import Git
from harness.gitio.tree_source import TreeSource
from harness.history.stamp_cache import StampCache

if TYPE_CHECKING:
    from pathlib import Path

    from harness.signatures.trust import Signers
    from harness.store.reader import LoadedTask
    from harness.store.settings import GatePolicy



def __getattr__(name: str) -> str:
    # DEFAULT_REF without importing the settings reader (and YAML) on every stamp.
    if name == "DEFAULT_REF":
        from harness.store.settings import DEFAULT_NOTES_REF

        return DEFAULT_NOTES_REF
    raise AttributeError(name)


TASKS = paths.TASKS


def notes_ref(src: TreeSource) -> str:
    from harness.store import settings

    return settings.notes_ref_of(src.read(paths.CONFIG))


def stamp_for(git: Git, commit: str, signers: Signers, cache: StampCache | None = None) -> tuple[str, dict]:
    """(notes ref, note document) for ``commit``, computed from its committed content (approvals
    verified against each parent's allowed_signers, or the command's own root: ``signers``).

    ``cache`` answers what an earlier stamp found for the same objects: a task folder whose
    tree id it knows is not read again. A code change still re-judges every open task's
    gate (the source tree is part of the verdict: evidence freshness), from the task's
    facts kept by tree id, without parsing the task again.
    """
    cache = cache or StampCache(None)
    tree = git.commit_tree(commit)
    src = TreeSource(git, tree, f"commit {commit[:12]}", rev=commit)  # its history, not HEAD's (read 63a's F-0156)
    source_tree = git.strip_harness(tree)
    note: dict = {"harness": __version__, "commit": commit, "source_tree": source_tree, "tasks": {}}
    gate_oid, config_oid = src.oid(paths.GATE) or "-", src.oid(paths.CONFIG) or "-"
    approvals_oid = src.oid(paths.APPROVALS) or "-"  # a config-change approval vouches for a task's commands
    policy_error = cache.get(f"policy:{gate_oid}")
    if policy_error is None:
        policy = _parse_policy(src)
        policy_error = cache.put(f"policy:{gate_oid}", policy if isinstance(policy, str) else "")
    if policy_error:
        note["error"] = policy_error
    parents = git.parents(commit)
    parent_tree = git.commit_tree_if_held(parents[0]) if parents else None
    before = TreeSource(git, parent_tree, "parent").entries(TASKS) if parent_tree else None
    listing = src.entries(TASKS)
    for tid, oid in listing.items():
        loaded: list[LoadedTask] = []  # the task, once parsed: at most once per stamp
        base = cache.get(f"task:{tid}:{oid}")
        if base is None:
            base = cache.put(f"task:{tid}:{oid}", _task_base(src, tid, loaded))
        if not isinstance(base, dict) or base.get("skip"):
            continue
        entry: dict = dict(base)
        if "error" not in base:
            # A finished task that this commit does not touch keeps the verdict stamped when it
            # finished; re-judging all history on every commit would grow with the repo's age.
            finished_earlier = entry["state"] in TERMINAL and before is not None and before.get(tid) == oid
            if not policy_error and entry["state"] != "ESCALATED" and not finished_earlier:
                entry.update(_verdict(cache, src, tid, oid, (gate_oid, config_oid, approvals_oid), source_tree, loaded,
                                      signers))
        note["tasks"][tid] = entry
    ref = cache.get(f"ref:{config_oid}")
    if ref is None:
        ref = cache.put(f"ref:{config_oid}", notes_ref(src))
    # What a commit keeping this very .harness/ tree needs to be stamped without reading it.
    cache.put(f"harness:{src.oid(paths.HARNESS)}", {
        "ref": ref, "error": policy_error, "globals": [gate_oid, config_oid, approvals_oid],
        "tasks": {tid: listing[tid] for tid in note["tasks"]}, "patterns": _committed_patterns(src)})
    return str(ref), note


def quick_stamp_head() -> bool:
    """Stamp HEAD without pygit2 when it is a code-only commit whose ``.harness/`` tree an earlier
    stamp knew (and, for every open task, its gate facts): the common case after `git commit`.
    Returns False, having written nothing, when anything is missing: then stamp in full."""
    from harness.gitio import fast_path

    facts = fast_path.head_facts()
    if facts is None:
        return False
    common, head, parents, entries, parent_harness = facts
    if (common / "shallow").exists():
        return False  # what a shallow clone can read depends on its depth: the full stamp keeps nothing of it
    harness = fast_path.entry_of(entries, paths.HARNESS)
    if len(parents) != 1 or harness is None or not code_only(harness, [(FOLDER, parent_harness)]):
        return False  # a merge, or a commit changing .harness/: the full stamp (and check) is due
    harness_oid = harness[1]
    cache = StampCache(common / "harness" / "stamp-cache.json")
    known = cache.get(f"harness:{harness_oid}")
    if not _known_harness(known):
        return False  # unknown, or not what a stamp wrote (the cache is a file anyone can edit)
    source_tree = fast_path.tree_without(entries, paths.HARNESS)
    note: dict = {"harness": __version__, "commit": head, "source_tree": source_tree, "tasks": {}}
    if known["error"]:
        note["error"] = known["error"]
    for tid, oid in known["tasks"].items():
        base = cache.get(f"task:{tid}:{oid}")
        if not isinstance(base, dict) or not ("error" in base or isinstance(base.get("state"), str)):
            return False
        entry = dict(base)
        # Every task folder is its parent's: a finished one keeps the verdict it was stamped with.
        if "error" not in base and not known["error"] and entry["state"] not in TERMINAL:
            verdict = _known_verdict(cache, ":".join([tid, oid, *known["globals"]]), source_tree)
            if verdict is None:
                return False
            entry.update(verdict)
        note["tasks"][tid] = entry
    cache.put(f"harness:{harness_oid}", known)
    from harness.store.secrets_check import note_text

    fast_path.add_note(str(known["ref"]), head, note_text(note, _with_worktree(known["patterns"], _worktree())))
    cache.save()
    return True


def _worktree() -> Path | None:
    from harness.store.layout import find_worktree

    try:
        return find_worktree()
    except HarnessError:
        return None


def _committed_patterns(src: TreeSource) -> list[str]:
    """config.yaml's `redaction.patterns` as the stamped commit holds them, read leniently: a note quotes the messages
    about a broken commit too. Kept with the `.harness/` tree's facts for the code-only stamp, which reads no file."""
    from harness.store import settings

    try:
        raw = src.read(paths.CONFIG)
    except HarnessError:
        raw = None  # over its cap: the commit check refuses it; the work tree's patterns still apply
    return list(settings.patterns_in(raw))


def _with_worktree(committed: list[str], root: Path | None) -> list[str]:
    """``committed`` and the patterns the work tree's config.yaml names (``root``; None: a bare repository): a note is
    redacted with what the project calls secret in the commit and now (F-0355)."""
    if root is None:
        return committed
    from harness.store import settings

    return list(dict.fromkeys([*committed, *settings.worktree_patterns(root)]))


def _known_harness(known: object) -> bool:
    """Whether ``known`` is what :func:`stamp_for` caches for a ``.harness/`` tree."""
    return (isinstance(known, dict) and isinstance(known.get("ref"), str)
            and isinstance(known.get("error"), (str, type(None)))
            and isinstance(known.get("globals"), list) and len(known["globals"]) == 3
            and all(isinstance(g, str) for g in known["globals"])
            and isinstance(known.get("tasks"), dict)
            and all(isinstance(v, str) for v in known["tasks"].values())
            and stamp_shape.texts(known.get("patterns")))  # an older stamp's kept none: the full stamp reads them


def _known_verdict(cache: StampCache, key: str, source_tree: str) -> dict | None:
    """The gate fields of a task at ``source_tree`` from its cached facts (None: not cached, or facts that
    rest on the configured signers, which only the full stamp reads)."""
    if cache.get(f"trust:{key}") != UNSIGNED:
        return None
    return _judged(cache, key, source_tree)


def _judged(cache: StampCache, key: str, source_tree: str) -> dict | None:
    """The gate fields of the facts this stamp has for ``key`` at ``source_tree`` (None: none), kept as long as they are."""
    trust = cache.get(f"trust:{key}")
    vkey = f"gate:{key}:{source_tree}:{trust}"
    verdict = cache.get(vkey)
    if isinstance(verdict, dict):
        return dict(verdict)
    known = cache.get(f"facts:{key}")
    keep = trust == UNSIGNED
    if isinstance(known, str):  # why the facts could not be computed
        return dict(cache.put(vkey, {"gate": "INVALID_HARNESS_STATE", "blockers": [known]}, keep=keep))
    if not isinstance(known, dict):
        return None
    return dict(cache.put(vkey, _evaluate(known, source_tree), keep=keep))


def _evaluate(known: dict, source_tree: str) -> dict:
    from harness.core import gate as core_gate
    from harness.gate import facts

    try:
        gi = facts.gate_input_at(known, source_tree)
        report = core_gate.evaluate(gi)
    except HarnessError as exc:
        return {"gate": "INVALID_HARNESS_STATE", "blockers": [exc.message]}
    return {"gate": report.verdict, "blockers": [b.text for b in report.blockers],
            "fresh_evidence": sorted(t for t, r in gi.evidence.items()
                                     if r["tree"] == source_tree and r["outcome"] == "passed")}


def _task_base(src: TreeSource, tid: str, loaded: list) -> dict:
    """State and iteration of the task folder ``tid`` ({"skip": True} if it is no task)."""
    from harness.store import reader

    if not reader.is_task(src, tid):
        return {"skip": True}
    try:
        loaded.append(reader.load_task(src, tid))
    except HarnessError as exc:
        return {"error": exc.message}
    return {"state": loaded[0].proj.state, "iteration": loaded[0].proj.iteration}


def _verdict(cache: StampCache, src: TreeSource, tid: str, oid: str, globals_: tuple[str, str, str],
             source_tree: str, loaded: list, signers: Signers) -> dict:
    """The gate fields of one task's note entry at ``source_tree``, from its facts kept by the ids of what they are
    computed from. Facts that checked an approval's signature are not kept for a later stamp: the same signers file
    may answer otherwise then (a key past its valid-before), and so may ssh-keygen (read 51's F-0093)."""
    key = ":".join([tid, oid, *globals_])
    judged = _judged(cache, key, source_tree) if cache.get(f"trust:{key}") == UNSIGNED else None
    if judged is None:  # no facts kept, or facts of this stamp's own: computed now
        _facts(cache, src, tid, key, loaded, signers)
        judged = _judged(cache, key, source_tree)
    assert judged is not None  # _facts keeps the facts, or why there are none, under this key
    return judged


UNSIGNED = "-"  # facts resting on the keyed objects alone (no signature, no history read): what a later stamp may reuse


def _facts(cache: StampCache, src: TreeSource, tid: str, key: str, loaded: list, signers: Signers) -> None:
    """Compute the task's gate facts (or why they cannot be); keep them for later stamps only when they rest on the
    keyed objects alone (see the comment below), else for this stamp only."""
    from harness.gate import facts
    from harness.store import reader

    asked = signers.asked
    try:
        policy = _parse_policy(src)
        if isinstance(policy, str):
            raise HarnessError(policy)
        task = loaded[0] if loaded else reader.load_task(src, tid)
        # Through JSON, so a fresh computation judges exactly what a cached one does.
        found: dict | str = json.loads(json.dumps(facts.gate_facts(src, task, policy, signers)))
    except HarnessError as exc:
        found = exc.message  # a verdict of INVALID_HARNESS_STATE, wherever it is judged
    # Kept when they rest on the keyed objects alone: not on a signature's verdict (F-0093), nor on which commits
    # this clone holds (a base it lacks, F-0097's refusal) or the history before the judged commit (F-0098), which a
    # command changed since the base was also judged by (its steps' approvals, read 102's F-0360).
    keep = signers.asked == asked and not (isinstance(found, dict) and (
        found.get("base_unread") or found.get("adopted_at") or found.get("introduced")))
    cache.put(f"facts:{key}", found, keep=keep)
    cache.put(f"trust:{key}", UNSIGNED if keep else "this stamp", keep=keep)


def _parse_policy(src: TreeSource) -> GatePolicy | str:
    """The committed gate policy, or why it is invalid."""
    from harness.store import settings

    raw = src.read(paths.GATE)
    if raw is None:
        return f"{paths.GATE}: not in this commit" + ("" if src.oid(paths.HARNESS) else " (no .harness/ committed yet)")
    try:
        return settings.parse_gate(raw)
    except HarnessError as exc:
        return exc.message


def stamp(git: Git, commit: str, signers: Signers, extra: dict | None = None) -> dict:
    # Nothing computed in a shallow clone is kept: a bound approval needs the root commit, the changed-command
    # check the task's base, and `git fetch --unshallow` brings them without changing any key (F-0094, F-0095).
    cache = StampCache(None if git.is_shallow() else git.cache_file("stamp-cache.json"))
    ref, note = stamp_for(git, commit, signers.judging([commit]), cache)  # its facts hold what its history holds
    harness = TreeSource(git, git.commit_tree(commit), "").oid(paths.HARNESS)
    patterns = _with_worktree(cache.get(f"harness:{harness}")["patterns"], None if git.is_bare else git.root)
    cache.save()
    if extra:
        note.update(extra)
    from harness.store.secrets_check import note_text

    git.write_note(ref, commit, note_text(note, patterns))
    return {"ref": ref, **note}
