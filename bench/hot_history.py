"""History work stays linear: `harness audit` and `harness metrics` over a range adding the same few
events, on a task whose ledger holds 22 events and on one whose ledger holds 10,000: of toggles of one
requirement, and, as a task that lives long gathers them, of 2,000 findings and 8,000 toggles.

Every repository gets the same history after the commit holding the task: 40 commits, every fourth
appending one event to the task's ledger (10 events in all), the others changing code. The work of
the range is the same in all; only the ledger each of those commits carries differs in length, and the
findings' files in number. A ledger seen at one blob id is validated once per run and an appended suffix
is checked against the validated prefix; a finding file whose blob agreed with an equal finding is not
read again (self-found 35), so a 10,000-event range may cost at most 5x the 22-event one. The findings'
row pays, once per run, the reading of its 2,000 files at the range's first commit.

`python bench/hot_history.py [WORKDIR]` prints the rows; `bash bench/run --only hot` imports
:func:`rows`.
"""

from __future__ import annotations

import sys
from pathlib import Path

import hot_timing as T
from hot_timing import B

SHORT, LONG, FINDINGS = 22, 10_000, 2_000
COMMITS, EVERY = 40, 4
TARGET = 5.0


def finding(n: int) -> tuple[str, dict]:
    """A finding's proposal, as `harness finding propose` records one."""
    return ("finding.proposed", {"id": f"F-{n:04d}", "content": {
        "severity": "minor", "category": "correctness", "title": f"defect number {n} in the widget",
        "claim": f"w.f({n}) returns the wrong value", "failure_scenario": ["call it with a negative"],
        "expected_behavior": "the right value", "location": {"file": "src/w.py"},
        "recommended_reproducer": {"type": "unit_test", "description": "d", "command": f"python3 -c 'w.f({n})'"}}})


def build(path: Path, events: int, findings: int = 0) -> str:
    """A repository whose one task's ledger holds ``events`` events (``findings`` of them findings proposed), then
    the range; the base commit."""
    import scale as S

    path.mkdir(parents=True)
    B.run(["git", "init", "-q", "-b", "main"], path)
    B.run([*B.H, "init"], path)
    B.write_file(path / ".harness/config.yaml", B.CONFIG)
    with S.inside(path):
        s = S.store(path)
        tid = s.create("History task", "made by the benchmark", 5, None)
        s.append(tid, [("requirement.added", S.REQ)])
        for first in range(1, findings + 1, 200):
            s.append(tid, [finding(n) for n in range(first, min(first + 200, findings + 1))])
        done = 2 + findings
        while done < events:
            batch = min(1000, events - done)
            s.append(tid, [S.toggle(done + k) for k in range(batch)])
            done += batch
    commit(path, f"task with {events} events")
    base = B.out(["git", "rev-parse", "HEAD"], path)
    for i in range(COMMITS):
        if i % EVERY == EVERY - 1:
            with S.inside(path):
                S.store(path).append(tid, [S.toggle(events + i)])
        else:
            B.write_file(path / f"src/file_{i % 5}.txt", f"revision {i}\n")
        commit(path, f"commit {i}")
    return base


def commit(path: Path, msg: str) -> None:
    B.run(["git", "add", "-A"], path)
    B.run(["git", "commit", "-q", "--no-verify", "-m", msg], path)


def rows(workdir: Path) -> list[T.Row]:
    T.ensure_env(workdir)
    B.log(f"hot history: building a {SHORT}-event and two {LONG:,}-event ledgers (one of {FINDINGS:,} findings), "
          f"{COMMITS} commits after each")
    shapes = {"short": (SHORT, 0), "long": (LONG, 0), "findings": (LONG, FINDINGS)}
    repos = {name: (workdir / f"history-{name}", build(workdir / f"history-{name}", n, f))
             for name, (n, f) in shapes.items()}
    cases: dict[tuple[str, str, str], T.Timed] = {}
    for label, setting in T.BYTECODE:
        env = T.env_for(setting)
        for command in ("audit", "metrics"):
            for name, (path, base) in repos.items():
                cases[command, label, name] = T.Timed(f"{command} {name} ({label})",
                                                      [*B.H, command, "--from", base, "--to", "HEAD"], path, env)
    T.interleave(list(cases.values()), runs=3)
    out = []
    for label, _ in T.BYTECODE:
        for command in ("audit", "metrics"):
            for name, what in (("long", "events"), ("findings", f"events ({FINDINGS:,} of them findings)")):
                out.append(T.ratio_row(f"history {command}, {LONG:,} / {SHORT} {what}, {COMMITS // EVERY} added "
                                       f"in {COMMITS} commits ({label})",
                                       cases[command, label, name], cases[command, label, "short"], TARGET))
    return out


if __name__ == "__main__":
    sys.exit(T.standalone(rows))
