"""Shared by bench/hot_evidence.py and bench/hot_history.py: commands timed side by side, each under
both bytecode settings (PYTHONDONTWRITEBYTECODE unset and set), round-robin in one run, so that a
ratio compares things the machine's drift hit alike."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import bench as B  # noqa: E402  (bench/ on the path first, as bench/run arranges)

Row = tuple[str, float, float, str]  # (name, measured ratio, target ratio, detail)
BYTECODE = (("bytecode kept", None), ("PYTHONDONTWRITEBYTECODE=1", "1"))


def env_for(setting: str | None) -> dict[str, str]:
    """The benchmark's environment with PYTHONDONTWRITEBYTECODE unset (None) or set."""
    env = {k: v for k, v in B.ENV.items() if k != "PYTHONDONTWRITEBYTECODE"}
    if setting is not None:
        env["PYTHONDONTWRITEBYTECODE"] = setting
    return env


def ensure_env(workdir: Path) -> None:
    """Standalone runs have no bench.main to set the isolated git environment up: do it here."""
    if not B.ENV:
        B.ENV.update(B.make_env(workdir / "home"))


@dataclass
class Timed:
    """One thing to time: a command (argv) in ``cwd`` under ``env``, or an in-process call."""

    name: str
    argv: list[str] | None = None
    cwd: Path | None = None
    env: dict[str, str] | None = None
    stdin: bytes | None = None
    expect: tuple[int, ...] = (0,)
    call: Callable[[], object] | None = None
    before: Callable[[], object] | None = None
    times: list[float] = field(default_factory=list)

    def once(self) -> float:
        if self.before is not None:
            self.before()
        t0 = time.perf_counter()
        if self.call is not None:
            self.call()
            return time.perf_counter() - t0
        assert self.argv is not None
        proc = subprocess.run(self.argv, cwd=self.cwd, env=self.env, input=self.stdin, capture_output=True)
        dt = time.perf_counter() - t0
        if proc.returncode not in self.expect:
            raise B.BenchError(f"{self.name}: `{' '.join(self.argv)}` exited {proc.returncode} (expected "
                               f"{self.expect}):\n" + proc.stderr.decode(errors="replace")[-4000:])
        return dt

    @property
    def median(self) -> float:
        return statistics.median(self.times)


def interleave(cases: list[Timed], runs: int, warmup: int = 1) -> None:
    """Round-robin: ``warmup`` untimed rounds, then ``runs`` timed rounds of every case — bench.py's
    ``measure``, which needs only each case's ``name``, ``once()`` and ``times``."""
    B.measure(cases, runs, warmup)  # type: ignore[arg-type]  # Timed has what a Case is used for there


def ratio_row(name: str, measured: Timed, floor: Timed, target: float) -> Row:
    ratio = measured.median / floor.median
    return (name, ratio, target, f"{B.fmt_s(measured.median)} / {B.fmt_s(floor.median)} "
                                 f"(medians of {len(measured.times)})")


def standalone(rows_of: Callable[[Path], list[Row]]) -> int:
    """`python bench/hot_X.py [WORKDIR]`: print the rows; exit 1 when a target is missed."""
    work = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tempfile.mkdtemp(prefix="harness-hot."))
    work.mkdir(parents=True, exist_ok=True)
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    rows = rows_of(work)
    missed = 0
    for name, measured, target, detail in rows:
        ok = measured <= target
        missed += not ok
        print(f"{name}: {measured:.2f}x (target <= {target:g}x) — {'MET' if ok else 'NOT MET'}; {detail}")
    return 1 if missed else 0
