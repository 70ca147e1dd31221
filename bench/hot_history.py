"""History work stays linear: `harness audit` and `harness metrics` over a range adding the same few
events, on a task whose ledger holds 22 events and on one whose ledger holds 10,000.

Both repositories get the same history after the commit holding the task: 40 commits, every fourth
appending one event to the task's ledger (10 events in all), the others changing code. The work of
the range is the same in both; only the ledger each of those commits carries differs in length. A
ledger seen at one blob id is validated once per run and an appended suffix is checked against the
validated prefix, so the 10,000-event range may cost at most 5x the 22-event one.

`python bench/hot_history.py [WORKDIR]` prints the rows; `bash bench/run --only hot` imports
:func:`rows`.
"""

from __future__ import annotations

import sys
from pathlib import Path

import hot_timing as T
from hot_timing import B

SHORT, LONG = 22, 10_000
COMMITS, EVERY = 40, 4
TARGET = 5.0


def build(path: Path, events: int) -> str:
    """A repository whose one task's ledger holds ``events`` events, then the range; the base commit."""
    import scale as S

    path.mkdir(parents=True)
    B.run(["git", "init", "-q", "-b", "main"], path)
    B.run([*B.H, "init"], path)
    B.write_file(path / ".harness/config.yaml", B.CONFIG)
    with S.inside(path):
        s = S.store(path)
        tid = s.create("History task", "made by the benchmark", 5, None)
        s.append(tid, [("requirement.added", S.REQ)])
        done = 2
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
    B.log(f"hot history: building a {SHORT}-event and a {LONG:,}-event ledger, {COMMITS} commits after each")
    repos = {n: (workdir / f"history-{n}", build(workdir / f"history-{n}", n)) for n in (SHORT, LONG)}
    cases: dict[tuple[str, str, int], T.Timed] = {}
    for label, setting in T.BYTECODE:
        env = T.env_for(setting)
        for command in ("audit", "metrics"):
            for n, (path, base) in repos.items():
                cases[command, label, n] = T.Timed(f"{command} {n} ({label})",
                                                   [*B.H, command, "--from", base, "--to", "HEAD"], path, env)
    T.interleave(list(cases.values()), runs=3)
    out = []
    for label, _ in T.BYTECODE:
        for command in ("audit", "metrics"):
            out.append(T.ratio_row(f"history {command}, {LONG:,} / {SHORT} events, {COMMITS // EVERY} added "
                                   f"in {COMMITS} commits ({label})",
                                   cases[command, label, LONG], cases[command, label, SHORT], TARGET))
    return out


if __name__ == "__main__":
    sys.exit(T.standalone(rows))
