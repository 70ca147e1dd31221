"""Self-found 35: `harness audit` and `harness metrics` over a range read, check and compare every finding file of a
task at every commit that touches the task, so a range adding a few events costs more the more findings the task has.

A task of 40 findings, then 6 commits each appending one event to its ledger (no finding changes). An audit and a
metrics run over those 6 commits, in this process, count the finding files they read: a range's work following the
events it adds reads each finding file once (its blob is the same at every commit), 40 reads, not one per commit.

Exit 1 while the defect is present (more than 2 x 40 reads in a run), 0 when fixed, 2 on a setup failure.
"""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
import tempfile
from pathlib import Path

FINDINGS, COMMITS = 40, 6


def finding(n: int) -> tuple[str, dict]:
    return ("finding.proposed", {"id": f"F-{n:04d}", "content": {
        "severity": "minor", "category": "correctness", "title": f"defect number {n} in the widget",
        "claim": f"w.f({n}) returns the wrong value", "failure_scenario": ["call it with a negative"],
        "expected_behavior": "the right value", "location": {"file": "src/w.py"},
        "recommended_reproducer": {"type": "unit_test", "description": "d",
                                   "command": f"python3 -c 'import w; w.f({n})'"}}})


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True, text=True).stdout.strip()


def build(repo: Path) -> str:
    from harness.store.layout import open_layout
    from harness.store.tasks import TaskStore

    git(repo, "init", "-q", "-b", "main")
    git(repo, "config", "user.email", "r@example.com")
    git(repo, "config", "user.name", "reproducer")
    subprocess.run([sys.executable, "-m", "harness", "init"], cwd=repo, check=True, capture_output=True)
    os.chdir(repo)
    store = TaskStore(open_layout(repo))
    tid = store.create("History task", "a task of many findings", 5, None)
    store.append(tid, [("requirement.added", {"id": "REQ-001", "priority": "must", "source": "user",
                                              "statement": "the widget works"})])
    store.append(tid, [finding(n) for n in range(1, FINDINGS + 1)])
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "-m", "a task of many findings")
    base = git(repo, "rev-parse", "HEAD")
    for i in range(COMMITS):
        store.append(tid, [("requirement.set", {"id": "REQ-001", "status": ("implemented", "pending")[i % 2],
                                                "evidence": []})])
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "--no-verify", "-m", f"one event more ({i})")
    return base


def finding_reads(command: list[str]) -> int:
    """The finding files read while ``harness COMMAND`` runs in this process (each run as a fresh process would)."""
    from harness import context
    from harness.cli.main import main
    from harness.store import yamlio

    context._PROCESS = None  # a fresh process: nothing remembered from the run before
    reads = 0
    real = yamlio.parse

    def counted(text: bytes | str, name: str) -> object:
        nonlocal reads
        reads += "/findings/F-" in name
        return real(text, name)

    yamlio.parse = counted
    old_argv = sys.argv
    sys.argv = ["harness", *command]
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            main()
    except SystemExit as exc:
        if exc.code not in (0, None):
            raise RuntimeError(f"harness {' '.join(command)} exited {exc.code}") from None
    finally:
        yamlio.parse = real
        sys.argv = old_argv
    return reads


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="self-found-35.") as tmp:
        repo = Path(tmp) / "repo"
        repo.mkdir()
        try:
            base = build(repo)
        except Exception as exc:  # noqa: BLE001 - a setup failure is exit 2, not a verdict
            print(f"setup failed: {exc}", file=sys.stderr)
            return 2
        worst = 0
        for command in (["audit", "--from", base, "--to", "HEAD"], ["metrics", "--from", base, "--to", "HEAD"]):
            reads = finding_reads(command)
            worst = max(worst, reads)
            print(f"harness {command[0]} over {COMMITS} commits each adding one event to a task of {FINDINGS} "
                  f"findings: {reads} finding files read (following the events added: about {FINDINGS})")
        if worst > 2 * FINDINGS:
            print(f"DEFECT: the range's work grows with the task's findings ({worst} reads > {2 * FINDINGS})")
            return 1
        print("fixed: each finding file is read about once per run")
        return 0


if __name__ == "__main__":
    sys.exit(main())
