"""The test suite's speed, before and after, measured in one run on this machine (issue 8).

Three timed runs, one after the other, with this checkout's interpreter:

  inner   this checkout's inner loop:   pytest -q -n auto -m "not e2e and not slow"
  full    this checkout's full suite:   pytest -q -n auto          (the README's test command)
  same    this checkout's versions of the test files --before had (they have grown since): a
          like-for-like figure, printed beside the targets, not one of them
  before  the full suite of --before (default 8c1137c, the last commit before issue 8), checked
          out in a temporary clone and run with its own README test command, pytest -q

Each run imports its own checkout's `harness` (the old one through PYTHONPATH), so the old suite
tests the old code. This checkout's runs keep their repositories where its conftest.py would, on a
tmpfs when the machine has one to spare; --before's where its own command did, in pytest's default
temp root (its suite made no such choice).
Targets: full at least 2x faster than before; inner under 60 s. Exit 0 when every run passed and
every target is met, 1 when a target is missed, 2 when a run failed or could not start (its
targets then print INVALID). One run of each, in this order: a figure, not a distribution.

`--cpu` (issue 27 item 8) measures instead the inner loop's CPU seconds (pytest and every process it
waited for) of --before's checkout and of this one, each divided by a fixed calibration loop timed
in the same run (calibration, before, calibration, after, calibration, after as before, calibration;
the median unit): a ratio a machine's speed divides out of. Target: after at most 60% of before.
Each checkout's inner loop is its own: --before's `-m "not e2e"`, this one's also leaves out `slow`
tests (an install killed at each of its steps, megabytes of output, a benchmark). "after as before"
runs this checkout with --before's selection: the like-for-like figure, printed, not a target.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BEFORE = "8c1137c"  # the last commit before issue 8: 1,212 tests, run serially
INNER = ["-m", "not e2e and not slow"]  # this checkout's inner loop (CONTRIBUTING.md)
INNER_BEFORE = ["-m", "not e2e"]  # the inner loop before `slow` tests left it (issue 27)
SUMMARY = re.compile(r"(\d+) (passed|failed|skipped|errors?|deselected)")


def timed_pytest(label: str, checkout: Path, args: list[str], tmp: Path) -> tuple[float, str, int]:
    """Wall seconds, pytest's summary line and exit code of one pytest run in ``checkout``.

    This checkout runs as the README says (its venv imports its own code); another checkout gets
    PYTHONPATH, so that it and the processes its tests start import that checkout's code. Each run
    gets a temp folder of its own, removed after its time is taken: without one, pytest deletes
    the oldest of the runs it keeps at the end of each, and a run would be timed deleting another's
    files (~8 s here)."""
    env = dict(os.environ)
    if checkout != ROOT:
        env["PYTHONPATH"] = str(checkout)
    basetemp = tmp / f"temp-{label.split()[0]}"
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", f"--basetemp={basetemp}", *args]
    print(f"suite: {label}: {' '.join(cmd[1:])} (in {checkout})", file=sys.stderr, flush=True)
    start, cpu0 = time.monotonic(), children_cpu()
    proc = subprocess.run(cmd, cwd=checkout, env=env, capture_output=True, text=True)
    wall = time.monotonic() - start
    CPU[label] = children_cpu() - cpu0
    shutil.rmtree(basetemp, ignore_errors=True)
    lines = [line for line in proc.stdout.splitlines() if SUMMARY.search(line) and " in " in line]
    summary = lines[-1].strip("= ") if lines else f"no summary (exit {proc.returncode})"
    if proc.returncode != 0:
        sys.stderr.write(proc.stdout[-3000:] + proc.stderr[-2000:])
    print(f"suite: {label}: {wall:.1f} s, {summary}", file=sys.stderr, flush=True)
    return wall, summary, proc.returncode


CPU: dict[str, float] = {}  # label -> CPU seconds of the run and every process it waited for
CALIBRATION = "n = 0\nfor i in range(12_000_000):\n    n += i * i % 7\n"  # pure Python: the interpreter's speed


def children_cpu() -> float:
    """User + system CPU seconds of every child this process (and they, recursively) waited for."""
    import resource

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def calibration() -> float:
    """CPU seconds of a fixed Python loop in a fresh interpreter: the unit the inner loop is counted in."""
    cpu0 = children_cpu()
    subprocess.run([sys.executable, "-c", CALIBRATION], check=True)
    return children_cpu() - cpu0


def inner_cpu(before: str, xdist: list[str], fast: Path, tmp: Path) -> tuple[dict[str, tuple[float, str, int]], bool]:
    """Issue 27 item 8: the inner loop's CPU seconds over a calibration loop timed in the same run, for
    --before's checkout and this one (with its own selection, then --before's), one after the other between
    calibrations (C B C A C A C)."""
    results: dict[str, tuple[float, str, int]] = {}
    calib = [calibration()]
    old = old_checkout(before, tmp)
    try:
        results["inner before"] = timed_pytest(f"inner before ({before})", old, [*xdist, *INNER_BEFORE], tmp)
    finally:
        shutil.rmtree(old, ignore_errors=True)
    calib.append(calibration())
    results["inner"] = timed_pytest("inner", ROOT, [*xdist, *INNER], fast)
    calib.append(calibration())
    results["inner as before"] = timed_pytest("inner as before", ROOT, [*xdist, *INNER_BEFORE], fast)
    calib.append(calibration())
    unit = statistics.median(calib)
    seconds = {label: CPU[f"inner before ({before})" if label == "inner before" else label] for label in results}
    ratios = {label: cpu / unit for label, cpu in seconds.items()}
    print(f"calibration loop: {', '.join(f'{c:.2f}' for c in calib)} CPU s (median {unit:.2f})")
    for label, ratio in ratios.items():
        print(f"{label:<15} {seconds[label]:8.1f} CPU s = {ratio:7.1f} calibrations")
    print(f"like for like: inner as before / before = {ratios['inner as before'] / ratios['inner before']:.2f}")
    share = ratios["inner"] / ratios["inner before"]
    met = share <= 0.6
    print(f"TARGET 27.8 inner loop CPU: after / before = {share:.2f} (target <= 0.60) — {'MET' if met else 'NOT MET'}")
    return results, met


def pytest_temp_roots() -> list[Path]:
    """Where pytest keeps this user's numbered temp runs (and the suite's conftest its `.trash-*`):
    the temp root pytest would pick, and the tmpfs this suite's conftest prefers to it."""
    import getpass

    bases = [os.environ.get("PYTEST_DEBUG_TEMPROOT") or tempfile.gettempdir()]
    ram = in_memory()
    if ram is not None:
        bases.append(str(ram))
    return [Path(base) / f"pytest-of-{getpass.getuser()}" for base in dict.fromkeys(bases)]


def in_memory() -> Path | None:
    """The tmpfs this checkout's suite keeps its repositories on (tests/support/environment.py), if any."""
    sys.path.insert(0, str(ROOT / "tests"))
    try:
        from support.environment import ram_temp_root
    finally:
        sys.path.remove(str(ROOT / "tests"))
    return ram_temp_root()


def wait_for_background_deletes(root: Path, limit: float = 120.0, poll: float = 0.5) -> float:
    """Seconds spent waiting, up to ``limit``, for the `.trash-*` folders under ``root`` to go.

    A test run ends by handing its oldest temp run to a detached `rm` (tests/conftest.py): ~55,000
    files deleted while the next command starts. Timed then, the first run would share the machine
    with that `rm` (the evidence run just before this one leaves exactly that behind)."""
    start = time.monotonic()
    while any(p.is_dir() for p in root.glob(".trash-*")) and time.monotonic() - start < limit:
        time.sleep(poll)
    return time.monotonic() - start


def files_at(rev: str) -> list[str]:
    """The test modules ``rev`` had that this checkout still has."""
    proc = subprocess.run(["git", "-C", str(ROOT), "ls-tree", "--name-only", rev, "tests/"],
                          capture_output=True, text=True, check=True)
    return [name for name in proc.stdout.split() if Path(name).name.startswith("test_") and (ROOT / name).is_file()]


def old_checkout(rev: str, where: Path) -> Path:
    """A clone of this repository at ``rev`` (sharing its objects; removed by the caller)."""
    dest = where / "before"
    for args in (["clone", "-q", "--shared", "--no-checkout", str(ROOT), str(dest)],
                 ["-C", str(dest), "checkout", "-q", "--detach", rev]):
        proc = subprocess.run(["git", *args], capture_output=True, text=True)
        if proc.returncode != 0:
            raise SystemExit(f"suite: git {' '.join(args[:2])} failed: {proc.stderr.strip()}")
    return dest


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--before", default=BEFORE, help=f"the revision to compare with (default {BEFORE})")
    ap.add_argument("--workers", default="auto", help="pytest-xdist workers for this checkout's runs (default auto)")
    ap.add_argument("--cpu", action="store_true",
                    help="issue 27 item 8 alone: the inner loop's CPU seconds in units of a calibration loop, "
                         "--before's against this checkout's (give --before 9b6e3ca for the issue's 'today')")
    ap.add_argument("--only", choices=("inner", "full"), default=None,
                    help="one target alone, its exit code its own: inner (the inner loop) or full (the full suite "
                         "against --before's); default both, and the like-for-like figure")
    ns = ap.parse_args(argv)
    import harness

    if Path(harness.__file__).resolve().parent != ROOT / "harness":
        print(f"suite: {sys.executable} imports harness from {harness.__file__}, not from {ROOT}: "
              "run `bash bench/suite` (its .venv), or `pip install -e .` into this interpreter", file=sys.stderr)
        return 2
    xdist = ["-n", ns.workers]
    waited = sum(wait_for_background_deletes(root) for root in pytest_temp_roots())
    if waited >= 1:
        print(f"suite: waited {waited:.0f} s for an earlier test run's temp files to be deleted", file=sys.stderr)
    print(f"suite: load average at start {os.getloadavg()[0]:.2f} (1 min)", file=sys.stderr, flush=True)
    results: dict[str, tuple[float, str, int]] = {}
    if ns.cpu:
        with tempfile.TemporaryDirectory(prefix="harness-suite-", dir=in_memory()) as fast, \
                tempfile.TemporaryDirectory(prefix="harness-suite-") as tmp:
            results, met = inner_cpu(ns.before, xdist, Path(fast), Path(tmp))
        failed = [label for label, (_, _, code) in results.items() if code != 0]
        return 2 if failed else 0 if met else 1
    # This checkout's runs keep their repositories where its conftest would (a tmpfs when there is
    # one to spare); --before's run where its own README command did, pytest's default temp root.
    with tempfile.TemporaryDirectory(prefix="harness-suite-", dir=in_memory()) as fast, \
            tempfile.TemporaryDirectory(prefix="harness-suite-") as tmp:
        if ns.only in (None, "inner"):
            results["inner"] = timed_pytest("inner", ROOT, [*xdist, *INNER], Path(fast))
        if ns.only in (None, "full"):
            results["full"] = timed_pytest("full", ROOT, xdist, Path(fast))
        if ns.only is None:
            results["same"] = timed_pytest("same", ROOT, [*xdist, *files_at(ns.before)], Path(fast))
        if ns.only in (None, "full"):
            old = old_checkout(ns.before, Path(tmp))
            try:
                results["before"] = timed_pytest(f"before ({ns.before})", old, [], Path(tmp))
            finally:
                shutil.rmtree(old, ignore_errors=True)

    print(f"{'run':<8} {'wall':>8}  pytest's summary")
    for label, (wall, summary, code) in results.items():
        print(f"{label:<8} {wall:>7.1f}s  {summary}" + ("" if code == 0 else f"  (exit {code})"))
    if "same" in results:
        print(f"like for like: the {len(files_at(ns.before))} test files of {ns.before}, before / after = "
              f"{results['before'][0] / results['same'][0]:.2f}x")
    targets = []
    if "full" in results:
        speedup = results["before"][0] / results["full"][0]
        targets.append((f"TARGET 8 full suite: before / after = {speedup:.2f}x (target >= 2x)", speedup >= 2))
    if "inner" in results:
        targets.append((f"TARGET 8 inner loop: {results['inner'][0]:.1f} s (target < 60 s)", results["inner"][0] < 60))
    failed = [label for label, (_, _, code) in results.items() if code != 0]
    for text, met in targets:  # a run that failed measured nothing worth a verdict
        print(f"{text} — {'INVALID (a run failed: ' + ', '.join(failed) + ')' if failed else 'MET' if met else 'NOT MET'}")
    if failed:
        return 2
    return 0 if all(met for _, met in targets) else 1


if __name__ == "__main__":
    sys.exit(main())
