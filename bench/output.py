"""The benchmark's output section (`--only output`): what recording big, binary and endless output costs,
each figure a ratio of two things timed side by side in this run (imported by bench.py, whose helpers it shares).

These were wall-clock bounds in the test suite, which now holds only the work (what the redactor is
handed, what is kept): a bound in seconds fails on a busy machine and says nothing on an idle one.

  random / text   recording 5 MB of random bytes against 5 MB of text: `harness.evidence.outputcut.log_text` alone
                  (in this process) and a whole `harness evidence custom -- cat FILE`.      target <= 2x
  after timeout   the work after the run (wall time of `harness evidence` minus the run's recorded
                  duration_s) of an endless command killed by `--timeout 1` (hundreds of MB seen) against
                  a command printing twice the log cap and exiting (16 MB seen): the same 8 MB kept.
                                                                                             target <= 2x
  50 MB           `harness.runner.run_command` capturing 50 MB of output (head and tail kept) against the
                  same command with its output piped to /dev/null (`subprocess.run`), in this process.
                                                                                             target <= 3x
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import bench as B

CAP = 8 * 1024 * 1024  # bench.CONFIG's output.log_cap_bytes
TEXT_LINE = b"the quick brown fox jumps over the lazy dog 0123456789\n"
ENDLESS = "import sys\nwhile True: sys.stdout.write('y\\n' * 4096)"


class Call(B.Case):
    """A Python call in this process, timed like a command."""

    def __init__(self, name: str, fn: Callable[[], object]) -> None:
        super().__init__(name, [], Path.cwd())
        self.fn = fn

    def once(self) -> float:
        t0 = time.perf_counter()
        self.fn()
        return time.perf_counter() - t0


class AfterRun(B.Case):
    """`harness evidence custom ...`: the wall time minus the run's own duration_s (from its record), i.e. the
    harness's work before and after the command (startup, cut, redaction, record)."""

    def __post_init__(self) -> None:
        self.record: dict = {}  # of the last run

    def once(self) -> float:
        wall = super().once()
        self.record = json.loads(next(self.cwd.glob(".harness/tasks/*/evidence/custom.json")).read_text())
        return wall - self.record["duration_s"]


def output_section(work: Path, runs: int, quick: bool, rows: list, targets: list) -> None:
    from harness.core.redact import compile_patterns
    from harness.evidence import outputcut
    from harness.runner import _Bounded, run_command

    smoke = "smoke-test size: the targets are stated for 5 MB, 1 s and 50 MB" if quick else ""
    size, timeout, big = (1024 * 1024, 0.5, 10_000_000) if quick else (5 * 1024 * 1024, 1.0, 50_000_000)
    mb = f"{size / 2**20:.0f} MB"
    repo = B.build_small_repo(work / "output")
    rnd_file, txt_file = work / "random.bin", work / "text.txt"
    rnd_file.write_bytes(random.Random(1).randbytes(size))
    txt_file.write_bytes((TEXT_LINE * (size // len(TEXT_LINE) + 1))[:size])

    def captured(data: bytes):
        cap = _Bounded(CAP // 2, CAP // 2)
        for i in range(0, len(data), 65536):
            cap.add(data[i:i + 65536])
        return cap.freeze()

    B.log(f"output: recording {mb} of random bytes vs {mb} of text")
    red = compile_patterns([])
    rnd_cap, txt_cap = captured(rnd_file.read_bytes()), captured(txt_file.read_bytes())
    cut = [Call("log_text random", lambda: outputcut.log_text(rnd_cap, red, CAP)),
           Call("log_text text", lambda: outputcut.log_text(txt_cap, red, CAP))]
    whole = [B.Case("evidence random", [*B.H, "evidence", "custom", "--", "cat", str(rnd_file)], repo),
             B.Case("evidence text", [*B.H, "evidence", "custom", "--", "cat", str(txt_file)], repo)]
    B.measure(cut + whole, runs=runs, warmup=1)

    B.log(f"output: the work after an endless command's {timeout:g} s timeout vs after a short command")
    endless = AfterRun("after endless", [*B.H, "evidence", "custom", "--timeout", f"{timeout:g}", "--",
                                         sys.executable, "-c", ENDLESS], repo, expect=(124,))
    short = AfterRun("after 16 MB", [*B.H, "evidence", "custom", "--", sys.executable, "-c",
                                     f"import sys\nsys.stdout.write('y\\n' * {CAP})"], repo)
    true_ = AfterRun("after true", [*B.H, "evidence", "custom", "--", "true"], repo)
    B.measure([endless, short, true_], runs=runs, warmup=1)

    B.log(f"output: {big / 1e6:.0f} MB captured by run_command vs piped to /dev/null")
    argv = [sys.executable, "-c", f"import sys; sys.stdout.buffer.write(b'x' * {big})"]

    def to_null() -> None:
        subprocess.run(argv, stdout=subprocess.DEVNULL, check=True)

    def captured_run() -> None:
        r = run_command(argv, echo=False)
        if r.outcome != "passed" or r.stdout.total_bytes != big:
            raise B.BenchError(f"run_command of {big} bytes: {r.outcome}, {r.stdout.total_bytes} bytes")

    pipe = [Call("run_command", captured_run), Call("to /dev/null", to_null)]
    B.measure(pipe, runs=runs, warmup=1)

    (c_rnd, c_txt), (w_rnd, w_txt), (run_c, null_c) = cut, whole, pipe
    ratios = {"cut": c_rnd.median / c_txt.median, "whole": w_rnd.median / w_txt.median,
              "after": endless.median / short.median, "pipe": run_c.median / null_c.median}
    rows += [
        timed_row(f"`log_text`, {mb} random bytes", c_rnd), timed_row(f"`log_text`, {mb} text", c_txt),
        B.Row("out", "ratio log_text random / text", f"{ratios['cut']:.2f}x", "target <= 2x"),
        timed_row(f"`harness evidence custom -- cat`, {mb} random bytes", w_rnd),
        timed_row(f"`harness evidence custom -- cat`, {mb} text", w_txt),
        B.Row("out", "ratio evidence random / text", f"{ratios['whole']:.2f}x", "target <= 2x"),
        timed_row(f"work after the run: endless, killed at {timeout:g} s", endless,
                  f"; {endless.record['output_bytes'] / 1e6:.0f} MB seen, {endless.record['log_bytes'] / 1e6:.1f} MB kept"),
        timed_row(f"work after the run: {2 * CAP / 2**20:.0f} MB printed, exit 0", short),
        timed_row("work after the run: `true` (for scale)", true_),
        B.Row("out", "ratio after endless / after 16 MB", f"{ratios['after']:.2f}x", "target <= 2x"),
        timed_row(f"`run_command`, {big / 1e6:.0f} MB captured", run_c),
        timed_row(f"the same to /dev/null, {big / 1e6:.0f} MB", null_c),
        B.Row("out", "ratio captured / to /dev/null", f"{ratios['pipe']:.2f}x", "target <= 3x"),
    ]
    targets += [
        B.Target(f"out log_text, random bytes / text ({mb})", ratios["cut"], 2.0, "x", note=smoke),
        B.Target(f"out evidence recording, random bytes / text ({mb})", ratios["whole"], 2.0, "x", note=smoke),
        B.Target("out work after the run, endless output at its timeout / 16 MB and exit", ratios["after"], 2.0, "x",
                 note=smoke),
        B.Target(f"out run_command capture / to /dev/null ({big / 1e6:.0f} MB)", ratios["pipe"], 3.0, "x", note=smoke),
    ]


def timed_row(figure: str, case: B.Case, extra: str = "") -> B.Row:
    return B.Row("out", figure, B.fmt_s(case.median), case.spread() + extra)
