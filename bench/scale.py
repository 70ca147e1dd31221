"""Issue 9 of the benchmark: cost follows the change (imported by bench.py, which it shares helpers with).

Repositories of 1, 100 and 1,000 tasks (and one task with a 10,000-event ledger) are built in this
process through the store's own code (``TaskStore.create`` / ``append``: no CLI process per task),
each with the same history: a commit adding the tasks, then commits alternating code changes and
one-task ledger changes (20 of them touch ``.harness/``), the last five being code, code, one task,
code, code. On each, interleaved with the others:

  validate    `python -m harness hook validate` with one task's change staged
  stamp       `harness stamp <the last one-task commit>`, its parent's stamp cached (as after a commit)
  push guard  `python -m harness hook push-guard` over the last 5 commits (1 touches .harness/)
  audit       `harness audit` over the whole history after the tasks commit
  status      `harness status`;  gate: `harness gate` (the current task is open: BLOCKED, exit 1)

Then a code-only `git commit` in the 1-task repository: with the native shims (`harness install`) vs
native hooks running `python -c pass` at the same stages (the floor any Python hook pays), and with
the pre-commit framework running the harness hooks vs the framework running no-op hooks at the same
stages (both `repo: local`, `language: system`, so only the hooks' own work differs).
"""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import bench as B

if TYPE_CHECKING:
    from collections.abc import Iterator

    from harness.store.tasks import TaskStore

STAGES = ("pre-commit", "pre-merge-commit", "post-commit", "post-merge", "post-rewrite", "pre-push")
REQ = {"id": "REQ-001", "priority": "must", "source": "user", "statement": "the change works"}


@contextlib.contextmanager
def inside(path: Path) -> Iterator[None]:
    old = os.getcwd()
    os.chdir(path)
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            yield
    finally:
        os.chdir(old)


def store(repo: Path) -> TaskStore:
    from harness.store.layout import open_layout
    from harness.store.tasks import TaskStore

    return TaskStore(open_layout(repo))


def toggle(n: int) -> tuple[str, dict]:
    return ("requirement.set", {"id": "REQ-001", "status": ("implemented", "pending")[n % 2], "evidence": []})


class ScaleRepo:
    def __init__(self, path: Path, tasks: int, events: int) -> None:
        self.path, self.tasks, self.events = path, tasks, events
        self.ids: list[str] = []
        self.base = ""        # the commit adding the tasks: audits start after it
        self.label = f"{tasks:,} tasks" if events <= 0 else f"1 task, {events:,} events"

    def build(self, history: int) -> None:
        p = self.path
        p.mkdir(parents=True)
        B.run(["git", "init", "-q", "-b", "main"], p)
        B.run([*B.H, "init"], p)
        B.write_file(p / ".harness/config.yaml", B.CONFIG)
        with inside(p):
            s = store(p)
            for n in range(self.tasks):
                tid = s.create(f"Scale task {n}", "made by the benchmark", 5, None)
                s.append(tid, [("requirement.added", REQ)])
                self.ids.append(tid)
            if self.events > 0:  # one long ledger, in batches (each append re-reads it)
                done = 2
                while done < self.events:
                    batch = min(1000, self.events - done)
                    s.append(self.ids[0], [toggle(done + k) for k in range(batch)])
                    done += batch
        B.git_commit(p, f"{self.tasks} tasks")
        self.base = B.out(["git", "rev-parse", "HEAD"], p)
        # History: every 11th commit changes one task's ledger, the others change code;
        # the last five are code, code, one task, code, code (the push guard's range).
        kinds = ["h" if i % 11 == 10 else "c" for i in range(history)] + ["c", "c", "h", "c", "c"]
        for i, kind in enumerate(kinds):
            if kind == "h":
                with inside(p):
                    store(p).append(self.ids[i % len(self.ids)], [toggle(i)])
            else:
                B.write_file(p / f"src/file_{i % 7}.txt", f"revision {i}\n")
            B.git_commit(p, f"{'one task' if kind == 'h' else 'code'} {i}")
        self.harness_commits = kinds.count("h")
        self.history = len(kinds)
        with inside(p):
            store(p).switch(self.ids[-1])
        B.run([*B.H, "install"], p)
        B.log(f"  {self.label}: {len(kinds) + 1} commits ({self.harness_commits} touch .harness/ after the tasks commit)")

    def stamp_case(self) -> B.Case:
        """`harness stamp HEAD~2` (a one-task commit) with the cache as its parent's stamp left it."""
        cache = self.path / ".git/harness/stamp-cache.json"
        saved = self.path / ".git/harness/stamp-cache.parent"
        if cache.exists():
            cache.unlink()
        B.run([*B.H, "stamp", "HEAD~3"], self.path)
        shutil.copy(cache, saved)
        return B.Case(f"stamp {self.label}", [*B.H, "stamp", "HEAD~2"], self.path,
                      before=lambda: shutil.copy(saved, cache))


def _push_line(repo: Path) -> bytes:
    """What git gives a pre-push hook pushing HEAD over a main five commits behind: object ids,
    never revision names (the hook refuses a line git would not write)."""
    tip, old = (subprocess.run(["git", "rev-parse", rev], cwd=repo, capture_output=True, text=True,
                               check=True).stdout.strip() for rev in ("HEAD", "HEAD~5"))
    return f"refs/heads/main {tip} refs/heads/main {old}\n".encode()


def scale_section(work: Path, sizes: list[int], events: int, history: int, runs: int,
                  rows: list, targets: list, smoke: str) -> None:
    B.log(f"issue 9: repositories of {', '.join(map(str, sizes))} tasks and 1 task with {events} events")
    repos = [ScaleRepo(work / f"tasks-{n}", n, 0) for n in sizes] + [ScaleRepo(work / f"events-{events}", 1, events)]
    for r in repos:
        B.log(f"building {r.label}")
        r.build(history)
    first, last, long = repos[0], repos[len(sizes) - 1], repos[-1]
    ops: dict[str, list[B.Case]] = {}
    ops["stamp"] = [r.stamp_case() for r in repos]
    ops["push guard"] = [B.Case(f"push guard {r.label}", [*B.HM, "hook", "push-guard", "origin", str(work / "none.git")],
                                r.path, stdin=_push_line(r.path)) for r in repos]
    ops["audit"] = [B.Case(f"audit {r.label}", [*B.H, "audit", "--from", r.base, "--to", "HEAD"], r.path) for r in repos]
    ops["status"] = [B.Case(f"status {r.label}", [*B.H, "status"], r.path) for r in repos]
    ops["gate"] = [B.Case(f"gate {r.label}", [*B.H, "gate"], r.path, expect=(0, 1)) for r in repos]
    for name, cases in ops.items():
        B.log(f"issue 9: {name}")
        B.measure(cases, runs=runs, warmup=1)
    B.log("issue 9: validate with one task's change staged")
    for r in repos:
        with inside(r.path):
            store(r.path).append(r.ids[-1], [toggle(1), toggle(2)])
        B.run(["git", "add", ".harness"], r.path)
    ops["validate"] = B.measure([B.Case(f"validate {r.label}", [*B.HM, "hook", "validate"], r.path) for r in repos],
                                runs=runs, warmup=1)
    for name in ("validate", "stamp", "push guard", "audit", "status", "gate"):
        cases = ops[name]
        for r, c in zip(repos, cases):
            extra = f"; {r.history} commits, {r.history / c.median:.0f} commits/s" if name == "audit" else ""
            rows.append(B.Row("9", f"{name}, {r.label}", B.fmt_s(c.median), c.spread() + extra))
        growth = cases[len(sizes) - 1].median / cases[0].median
        rows.append(B.Row("9", f"{name} growth {first.label} → {last.label}", f"{growth:.2f}x",
                          "target <= 1.5x" if name in ("validate", "stamp", "push guard", "audit") else ""))
        ev_growth = cases[-1].median / cases[0].median
        ev_ratio = long.events / _events(first)
        rows.append(B.Row("9", f"{name} growth {_events(first)} → {long.events:,} events", f"{ev_growth:.2f}x",
                          f"events grew {ev_ratio:.0f}x (target: at most linear)"))
        if name in ("validate", "stamp", "push guard", "audit"):
            targets.append(B.Target(f"9 {name} growth {first.label} → {last.label}", growth, 1.5, "x", note=smoke))
            targets.append(B.Target(f"9 {name} growth {_events(first)} → {long.events:,} events (linear = "
                                    f"{ev_ratio:.0f}x)", ev_growth, round(ev_ratio, 1), "x", note=smoke))
    for r, c in zip(repos, ops["audit"]):
        if r.tasks == 100 or (r is repos[len(sizes) - 1] and 100 not in sizes):
            rate = r.history / c.median
            targets.append(B.Target(f"9 audit throughput ({r.label}, {r.harness_commits} .harness/ commits in "
                                    f"{r.history})", rate, 200, "commits/s", higher_is_better=True))
    code_only(work, first, runs, rows, targets, smoke)


def _events(r: ScaleRepo) -> int:
    return sum(1 for _ in (r.path / ".harness/tasks" / r.ids[0] / "events.jsonl").open()) if r.events <= 0 else r.events


def hooks_dir(path: Path, body: str) -> Path:
    path.mkdir(parents=True)
    for stage in STAGES:
        (path / stage).write_text(f"#!/bin/sh\n{body}\n")
        (path / stage).chmod(0o755)
    return path


class CodeCommit(B.Case):
    """`git commit` of a fresh one-line code change (written and staged before the clock starts)."""

    def __init__(self, name: str, repo: Path, git_args: list[str]) -> None:
        self.n = 0
        super().__init__(name, ["git", *git_args, "commit", "-q", "-m", "code only"], repo, before=self.change)

    def change(self) -> None:
        self.n += 1
        B.write_file(self.cwd / "src/code_only.txt", f"{self.name} {self.n}\n")
        B.run(["git", "add", "src/code_only.txt"], self.cwd)


FRAMEWORK = """repos:
- repo: local
  hooks:
  - {{id: harness-validate, name: validate, entry: {validate}, language: system, pass_filenames: false, always_run: true, stages: [pre-commit, pre-merge-commit]}}
  - {{id: harness-merge-guard, name: merge guard, entry: {merge}, language: system, pass_filenames: false, always_run: true, stages: [pre-merge-commit, pre-commit]}}
  - {{id: harness-stamp, name: stamp, entry: {stamp}, language: system, pass_filenames: false, always_run: true, stages: [post-commit, post-merge, post-rewrite]}}
  - {{id: harness-push-guard, name: push guard, entry: {push}, language: system, pass_filenames: false, always_run: true, stages: [pre-push]}}
"""


def framework_repo(src: Path, dest: Path, entries: dict[str, str]) -> Path:
    B.run(["git", "clone", "-q", str(src), str(dest)], src.parent)
    B.run([*B.H, "init"], dest)  # the untracked .harness/local/ of a fresh clone
    (dest / ".pre-commit-config.yaml").write_text(FRAMEWORK.format(**entries))
    B.run(["git", "add", ".pre-commit-config.yaml"], dest)
    B.run(["git", "commit", "-q", "--no-verify", "-m", "framework config"], dest)
    pc = Path(sys.executable).parent / "pre-commit"
    B.run([str(pc), "install", *[a for s in STAGES for a in ("-t", s)]], dest)
    return dest


def code_only(work: Path, r: ScaleRepo, runs: int, rows: list, targets: list, smoke: str = "") -> None:
    B.log(f"issue 9: code-only commit, {r.label}: native shims vs `python -c pass` hooks; framework vs no-op")
    # A commit is noisy: at least 9 timed runs after 2 warm-ups, except in a smoke run (--quick),
    # which takes --runs as given: its figures are not the targets' anyway.
    native_runs, warmup = (runs, 1) if smoke else (max(runs, 9), 2)
    floor = hooks_dir(work / "floor-hooks", f"exec {sys.executable} -c pass")
    none = hooks_dir(work / "no-hooks", "exit 0")
    native = [CodeCommit("native shims", r.path, []),
              CodeCommit("python -c pass hooks", r.path, ["-c", f"core.hooksPath={floor}"]),
              CodeCommit("no-op sh hooks", r.path, ["-c", f"core.hooksPath={none}"])]
    B.measure(native, runs=native_runs, warmup=warmup)
    h = str(Path(sys.executable).parent / "harness")
    fw = framework_repo(r.path, work / "framework-harness",
                        {"validate": f"{h} hook validate", "merge": f"{h} hook merge-guard",
                         "stamp": f"{h} hook stamp", "push": f"{h} hook push-guard"})
    noop = f"{sys.executable} -c pass"
    fw0 = framework_repo(r.path, work / "framework-noop", {k: noop for k in ("validate", "merge", "stamp", "push")})
    frame = [CodeCommit("framework, harness hooks", fw, []), CodeCommit("framework, no-op hooks", fw0, [])]
    B.measure(frame, runs=runs, warmup=warmup)
    shim, pyfloor, _ = native
    for c in (*native, *frame):
        rows.append(B.Row("9", f"code-only commit, {c.name}", B.fmt_s(c.median), c.spread()))
    rows.append(B.Row("9", "native shims / python -c pass floor", f"{shim.median / pyfloor.median:.2f}x", "target <= 3x"))
    rows.append(B.Row("9", "framework harness / framework no-op", f"{frame[0].median / frame[1].median:.2f}x",
                      "target <= 1.5x"))
    targets.append(B.Target("9 code-only commit, native shims / python -c pass hooks", shim.median / pyfloor.median,
                            3.0, "x"))
    targets.append(B.Target("9 code-only commit, framework harness / no-op hooks", frame[0].median / frame[1].median,
                            1.5, "x"))
