"""Stamps: a git note on a commit recording what the harness found at that exact commit.

Notes live outside the tracked tree (DESIGN §8), so stamping never dirties a work tree
or fails a commit. A note is a record and a cache; every guard recomputes from content.
"""

from __future__ import annotations

import json

from harness import __version__
from harness.core import gate as core_gate
from harness.core import states
from harness.errors import HarnessError
from harness.gitio import Git, TreeSource
from harness.store import facts, reader, settings
from harness.store.source import Source

DEFAULT_REF = settings.DEFAULT_NOTES_REF


def notes_ref(src: Source) -> str:
    return settings.notes_ref_of(src.read(settings.CONFIG))


def stamp_for(git: Git, commit: str) -> tuple[str, dict]:
    """(notes ref, note document) for ``commit``, computed from its committed content."""
    tree = git.commit_tree(commit)
    src = TreeSource(git, tree, f"commit {commit[:12]}")
    source_tree = git.strip_harness(tree)
    note: dict = {"harness": __version__, "commit": commit, "source_tree": source_tree, "tasks": {}}
    try:
        policy = settings.parse_gate(src.read(".harness/gate.yaml") or b"")
    except HarnessError as exc:
        policy, note["error"] = None, exc.message
    parents = git.parents(commit)
    parent = TreeSource(git, git.commit_tree(parents[0]), "parent") if parents else None
    for tid in reader.task_ids(src):
        folder = f"{reader.TASKS}/{tid}"
        try:
            task = reader.load_task(src, tid)
        except HarnessError as exc:
            note["tasks"][tid] = {"error": exc.message}
            continue
        entry: dict = {"state": task.proj.state, "iteration": task.proj.iteration}
        # A finished task that this commit does not touch keeps the verdict stamped when it
        # finished; re-judging all history on every commit would grow with the repo's age.
        finished_earlier = task.proj.state in states.TERMINAL and parent is not None \
            and parent.oid(folder) == src.oid(folder)
        if policy is not None and task.proj.state != "ESCALATED" and not finished_earlier:
            try:
                gi = facts.gate_input(src, task, policy, source_tree)
                report = core_gate.evaluate(gi)
                entry.update(gate=report.verdict, blockers=report.blockers,
                             fresh_evidence=sorted(t for t, r in gi.evidence.items()
                                                   if r["tree"] == source_tree and r["outcome"] == "passed"))
            except HarnessError as exc:
                entry.update(gate="INVALID_HARNESS_STATE", blockers=[exc.message])
        note["tasks"][tid] = entry
    return notes_ref(src), note


def stamp(git: Git, commit: str, extra: dict | None = None) -> dict:
    ref, note = stamp_for(git, commit)
    if extra:
        note.update(extra)
    git.write_note(ref, commit, json.dumps(note, indent=2, sort_keys=True) + "\n")
    return {"ref": ref, **note}
