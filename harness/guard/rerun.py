"""`harness audit --rerun`: re-execute the required evidence of a DONE commit.

The only defence against a fully consistent forgery (evidence file and ledger event
both rewritten to say "passed"): run the configured command again on exactly that
commit's tree, in a temporary worktree that never touches the user's, and compare.
"""

from __future__ import annotations

import shlex
import subprocess
import tempfile

from harness import runner
from harness.errors import HarnessError
from harness.gitio import Git, TreeSource
from harness.guard.validate import Problem
from harness.store import reader, settings, validate, yamlio
from harness.store.evidence_files import load_valid


def _config(src) -> dict:
    raw = src.read(".harness/config.yaml") or b"version: 1\n"
    doc = yamlio.parse(raw, ".harness/config.yaml")
    validate.check(doc, "config", ".harness/config.yaml", raw)
    return doc.get("evidence") or {}


def rerun_done(git: Git, commit: str, report, runs: list | None = None, stream=None) -> list[Problem]:
    done = [v for v in report.gated() if v.after == "DONE"]
    if not done:
        return []
    src = TreeSource(git, git.commit_tree(commit), f"commit {commit[:12]}")
    policy = settings.parse_gate(src.read(".harness/gate.yaml") or b"")
    commands = _config(src)
    problems: list[Problem] = []
    with tempfile.TemporaryDirectory(prefix="harness-rerun-") as tmp:
        path = f"{tmp}/tree"
        subprocess.run(["git", "worktree", "add", "--detach", "--quiet", path, commit], cwd=git.root,
                       check=True, capture_output=True)
        try:
            for verdict in done:
                task = reader.load_task(src, verdict.id)
                records = load_valid(src, task)
                for etype in _types_to_rerun(policy, task):
                    problems.extend(_one(commit, verdict.id, etype, records.get(etype), commands.get(etype), path))
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", path], cwd=git.root, capture_output=True)
    return problems


def _types_to_rerun(policy, task) -> list[str]:
    """Required types, and every type a verified requirement or invariant leans on."""
    cited = {t for item in (*task.proj.requirements.values(), *task.proj.invariants.values())
             if item["status"] == "verified" for t in item["evidence"]}
    return sorted(set(policy.required_types()) | cited)


def _one(commit: str, tid: str, etype: str, record: dict | None, conf: dict | None, cwd: str) -> list[Problem]:
    where = f".harness/tasks/{tid}/evidence/{etype}.json"
    if conf is None:
        return [Problem(where, "rerun-reproduces", f"no evidence.{etype}.command in config.yaml at {commit[:12]}: "
                        "the recorded result cannot be re-run", "configure the command, re-collect, re-gate")]
    command = conf["command"]
    shell = bool(conf.get("shell"))
    if isinstance(command, str) and not shell:
        command = shlex.split(command)
    try:
        result = runner.run_command(command, shell=shell, cwd=cwd, timeout=conf.get("timeout"), echo=False)
    except HarnessError as exc:
        return [Problem(where, "rerun-reproduces", exc.message, "fix the configured command")]
    recorded = (record or {}).get("outcome"), (record or {}).get("exit_code")
    if (result.outcome, result.exit_code) != recorded:
        return [Problem(where, "rerun-reproduces",
                        f"{tid} at {commit[:12]}: recorded {etype} {recorded[0]} (exit {recorded[1]}), "
                        f"re-run {result.outcome} (exit {result.exit_code})",
                        "the recorded evidence does not reproduce: re-collect it honestly and re-gate")]
    return []
