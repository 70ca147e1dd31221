"""How much of each kind of file the harness will read: a bound, not a quota (the reader: harness.store.bounded)."""

from __future__ import annotations

MiB = 1024 * 1024
# Far above what a real file of each kind holds; the point is a bound, not a quota.
CAPS = {
    "ledger": 64 * MiB,      # events.jsonl
    "yaml": 8 * MiB,         # task, requirement, invariant, finding, contract files
    "settings": 8 * MiB,     # config.yaml, gate.yaml
    "evidence": 16 * MiB,    # evidence/TYPE.json (tails are capped at 1 MiB each)
    "log": 1024 * MiB + MiB,  # evidence/TYPE.log: config may allow 1 GiB; hashed in chunks
    "approvals": 16 * MiB,   # approvals.jsonl
    "junit": 64 * MiB,       # a JUnit XML report
    "cases": 64 * MiB,       # evidence/TYPE.cases, the case list of such a report
    "input": 8 * MiB,        # a file named on the command line (finding proposal, contract)
    "state": 1 * MiB,        # .harness/local/*: current task, caches, redo log, lock holder
    "hooklog": 64 * MiB,     # .harness/local/agent-hooks.jsonl: the agent hooks' releases and errors
    "cache": 64 * MiB,       # .git/harness/stamp-cache.json: what earlier stamps found
    "record": 1 * MiB,       # what an installer wrote to undo itself (harness-install.json, a manifest)
    "hook": 8 * MiB,         # a git hook script found where the shims go, .pre-commit-config.yaml
    "note": 16 * MiB,        # a git note a push sends (a stamp: a few hundred bytes per task)
}

def kind_of(rel: str) -> str:
    """The kind of a `.harness/` file, from its path (what :class:`FsSource` reads)."""
    name = rel.rsplit("/", 1)[-1]
    if name.endswith(".jsonl"):
        return "approvals" if name == "approvals.jsonl" else "ledger"
    if name in ("config.yaml", "gate.yaml") and rel.count("/") <= 1:
        return "settings"
    if name.endswith(".log"):
        return "log"
    if name.endswith(".cases"):
        return "cases"
    if name.endswith(".json"):
        return "evidence"
    if name.endswith((".yaml", ".yml")):
        return "yaml"
    return "state"
