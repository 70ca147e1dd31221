#!/usr/bin/env python3
"""Engineering Harness performance benchmark (run it with `bash bench/run`).

Every number printed is measured in this run: nothing is hard-coded but the targets.

Issue 3
  (a) fixed evidence overhead: median `harness evidence custom -- true` minus median bare `true`
      (both as subprocesses), in a small repository.                              target < 0.4 s
  (b) on a generated repository of --files files (default 100,000; committed, nested dirs of
      ~100 small text files): median `harness gate` and `harness status` (evidence present, so
      the working tree's source tree is computed) against median `git status`.   target gate <= 2x
Issue 4, on generated repositories of --small-files (1,000) and --files (100,000) files, each with a
--commits (1,000) commit history made with `git fast-import`, then harness init, tasks and commits:
  (a) commit validation `python -m harness hook validate` with a staged legit .harness change;
      ratio to `git status` at the large size.                                   target <= 2x
  (b) `harness stamp HEAD`: growth large/small.                                  target <= 1.3x
  (c) `python -m harness hook push-guard origin URL` over a 50-commit range: growth large/small.
                                                                                 target <= 1.3x
  (d) `harness audit --from <root> --to HEAD`: commits per second.               target >= 200
Output (`--only output`, bench/output.py): recording random bytes against text, the work after an
endless command's timeout against after a short command, 50 MB captured against piped to /dev/null,
each a ratio of two things timed side by side.                                    targets <= 2x, 3x

Medians of several runs (time.perf_counter around subprocess.run, repository as cwd). Commands
compared with each other run round-robin (A B C, A B C, ...) after warm-up runs, so that drift of
the machine hits all of them alike and the caches are warm.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
PER_DIR = 100          # files per leaf directory
START = time.perf_counter()
EPOCH = 1_700_000_000  # commit timestamps of the generated history


class BenchError(RuntimeError):
    pass


def log(msg: str) -> None:
    t = time.perf_counter() - START
    print(f"[bench {int(t) // 60:02d}:{t % 60:04.1f}] {msg}", file=sys.stderr, flush=True)


# -- processes -------------------------------------------------------------------------------------

def harness_cmd() -> list[str]:
    """The `harness` console script of the interpreter running us (the venv's), else `python -m harness`."""
    script = Path(sys.executable).parent / "harness"
    return [str(script)] if os.access(script, os.X_OK) else [sys.executable, "-m", "harness"]


H = harness_cmd()
HM = [sys.executable, "-m", "harness"]


def make_env(home: Path) -> dict[str, str]:
    """Git identity and an isolated git configuration, so the user's settings change no figure."""
    env = {k: v for k, v in os.environ.items()
           if not (k.startswith("GIT_") or k.startswith("PRE_COMMIT") or k == "PYTHONDONTWRITEBYTECODE")}
    # An installed harness runs from compiled bytecode (pip compiles it at install): keep what the
    # first run compiles, outside the checkout, instead of recompiling every module per process.
    env["PYTHONPYCACHEPREFIX"] = str(home.parent / "pycache")
    env.update(
        HOME=str(home),
        GIT_CONFIG_NOSYSTEM="1",
        GIT_CONFIG_GLOBAL=str(home / ".gitconfig"),
        GIT_AUTHOR_NAME="Bench", GIT_AUTHOR_EMAIL="bench@example.com",
        GIT_COMMITTER_NAME="Bench", GIT_COMMITTER_EMAIL="bench@example.com",
        PATH=str(Path(sys.executable).parent) + os.pathsep + os.environ.get("PATH", ""),
    )
    home.mkdir(parents=True, exist_ok=True)
    (home / ".gitconfig").write_text(
        "[user]\n\tname = Bench\n\temail = bench@example.com\n"
        "[init]\n\tdefaultBranch = main\n"
        "[gc]\n\tauto = 0\n"            # no auto-gc in the middle of a timing
        "[maintenance]\n\tauto = false\n"
        "[advice]\n\tdetachedHead = false\n")
    return env


ENV: dict[str, str] = {}


def run(argv: list[str], cwd: Path, stdin: bytes | None = None, expect=(0,)) -> subprocess.CompletedProcess:
    proc = subprocess.run(argv, cwd=cwd, env=ENV, input=stdin, capture_output=True)
    if proc.returncode not in expect:
        raise BenchError(f"`{' '.join(argv)}` in {cwd} exited {proc.returncode} (expected {expect}):\n"
                         + proc.stdout.decode(errors="replace")[-2000:] + proc.stderr.decode(errors="replace")[-4000:])
    return proc


def out(argv: list[str], cwd: Path) -> str:
    return run(argv, cwd).stdout.decode().strip()


@dataclass
class Case:
    name: str
    argv: list[str]
    cwd: Path
    stdin: bytes | None = None
    expect: tuple[int, ...] = (0,)
    times: list[float] = field(default_factory=list)
    before: Callable[[], object] | None = None  # untimed preparation before every run

    def once(self) -> float:
        if self.before is not None:
            self.before()
        t0 = time.perf_counter()
        proc = subprocess.run(self.argv, cwd=self.cwd, env=ENV, input=self.stdin, capture_output=True)
        dt = time.perf_counter() - t0
        if proc.returncode not in self.expect:
            raise BenchError(f"{self.name}: `{' '.join(self.argv)}` exited {proc.returncode} (expected {self.expect}):\n"
                             + proc.stderr.decode(errors="replace")[-4000:])
        return dt

    @property
    def median(self) -> float:
        return statistics.median(self.times)

    def spread(self) -> str:
        return f"n={len(self.times)}, min {fmt_s(min(self.times))}, max {fmt_s(max(self.times))}"


def measure(cases: list[Case], runs: int, warmup: int = 1) -> list[Case]:
    """Round-robin: warm-up rounds (not timed), then ``runs`` timed rounds of every case."""
    for _ in range(warmup):
        for c in cases:
            c.once()
    for r in range(runs):
        for c in cases:
            c.times.append(c.once())
        log("  round %d/%d: %s" % (r + 1, runs, ", ".join(f"{c.name} {fmt_s(c.times[-1])}" for c in cases)))
    return cases


def fmt_s(t: float) -> str:
    return f"{t * 1000:.0f} ms" if t < 10 else f"{t:.1f} s"


# -- generated repositories ------------------------------------------------------------------------

WORDS = ("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma "
         "tau upsilon phi chi psi omega value result config handler request response buffer cache index "
         "tree commit branch merge token record parse render update delete insert select return").split()
LEVELS = ("pkg", "mod", "sub", "grp", "set", "lot", "bin")


def file_paths(n: int) -> list[str]:
    """``n`` paths, ~PER_DIR per leaf directory, leaves nested by decimal digits (src/pkg3/mod7/sub1/...)."""
    ndirs = max(1, -(-n // PER_DIR))
    width = max(2, len(str(ndirs - 1)))
    paths = []
    for i in range(n):
        digits = f"{i // PER_DIR:0{width}d}"
        leaf = "/".join(f"{LEVELS[k % len(LEVELS)]}{c}" for k, c in enumerate(digits))
        paths.append(f"src/{leaf}/file_{i % PER_DIR:02d}.txt")
    return paths


class Content:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.pool = [" ".join(self.rng.choice(WORDS) for _ in range(self.rng.randint(3, 10))) for _ in range(1024)]

    def make(self, i: int, rev: int) -> bytes:
        r = self.rng
        lines = [f"# generated file {i}, revision {rev}"]
        lines += [self.pool[r.randrange(1024)] for _ in range(r.randint(3, 12))]
        return ("\n".join(lines) + "\n").encode()


def fast_import_stream(n_files: int, n_commits: int, seed: int, extra: dict[str, bytes] | None = None) -> bytes:
    """One commit adding every file (and ``extra``), then ``n_commits - 1`` commits each modifying one or two files."""
    paths = file_paths(n_files)
    content = Content(seed)
    chunks: list[bytes] = []
    ident = b"Bench <bench@example.com>"

    def header(mark: int, msg: str) -> None:
        m = msg.encode()
        ts = f"{EPOCH + 60 * mark} +0000".encode()
        chunks.append(b"commit refs/heads/main\nmark :%d\nauthor %s %s\ncommitter %s %s\ndata %d\n%s\n"
                      % (mark, ident, ts, ident, ts, len(m), m))

    def modify(path: str, data: bytes) -> None:
        chunks.append(b"M 100644 inline %s\ndata %d\n%s\n" % (path.encode(), len(data), data))

    header(1, f"generated: initial tree of {n_files} files")
    for p, data in sorted((extra or {}).items()):
        modify(p, data)
    for i, p in enumerate(paths):
        modify(p, content.make(i, 0))
    rng = random.Random(seed + 1)
    for mark in range(2, n_commits + 1):
        picks = rng.sample(range(n_files), k=min(n_files, rng.choice((1, 2))))
        header(mark, f"generated: change {mark - 1} ({', '.join(paths[i].rsplit('/', 1)[1] for i in picks)})")
        for i in picks:
            modify(paths[i], content.make(i, mark))
    chunks.append(b"done\n")
    return b"".join(chunks)


def write_file(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def git_commit(repo: Path, msg: str) -> None:
    run(["git", "add", "-A"], repo)
    run(["git", "commit", "-q", "-m", msg], repo)  # the harness hooks run here: validate, then stamp


CONFIG = """version: 1
evidence:
  build:
    command: ["true"]
  unit_test:
    command: ["true"]
output:
  tail_bytes: 8192
  log_cap_bytes: 8388608
redaction:
  patterns: []
notes:
  ref: refs/notes/harness
"""


@dataclass
class Repo:
    path: Path
    files: int
    root_commit: str = ""
    commits: int = 0
    task_done: str = ""
    task_open: str = ""
    timings: dict[str, float] = field(default_factory=dict)


def harness_files(work: Path) -> dict[str, bytes]:
    """What `harness init` writes (run in a scratch repository), with config.yaml naming the evidence commands."""
    scratch = work / "init-template"
    scratch.mkdir(parents=True)
    run(["git", "init", "-q", "-b", "main"], scratch)
    run([*H, "init"], scratch)
    files = {str(p.relative_to(scratch)): p.read_bytes()
             for p in sorted((scratch / ".harness").rglob("*")) if p.is_file() and "local" not in p.parts}
    files[".harness/config.yaml"] = CONFIG.encode()
    shutil.rmtree(scratch)
    return files


def build_history_repo(path: Path, n_files: int, n_commits: int, seed: int, harness: dict[str, bytes]) -> Repo:
    """A repository whose n_commits-commit generated history carries `.harness/` (from `harness init`) from its
    root commit on, then hooks installed and two tasks worked and committed as demo/run does."""
    repo = Repo(path, n_files)
    path.mkdir(parents=True)
    run(["git", "init", "-q", "-b", "main"], path)
    t0 = time.perf_counter()
    stream = fast_import_stream(n_files, n_commits, seed, extra=harness)
    run(["git", "fast-import", "--quiet", "--done"], path, stdin=stream)
    repo.timings["fast-import"] = time.perf_counter() - t0
    log(f"  fast-import: {n_commits} commits, {n_files} files, {len(stream) / 1e6:.1f} MB stream "
        f"in {repo.timings['fast-import']:.1f} s")
    t0 = time.perf_counter()
    run(["git", "checkout", "-q", "-f", "main"], path)
    repo.timings["checkout"] = time.perf_counter() - t0
    log(f"  checkout: {repo.timings['checkout']:.1f} s")
    if not (path / file_paths(n_files)[0]).exists() or not (path / ".harness/gate.yaml").exists():
        raise BenchError(f"checkout did not populate the work tree of {path}")
    repo.root_commit = out(["git", "rev-list", "--max-parents=0", "HEAD"], path)

    t0 = time.perf_counter()
    h = lambda *a: run([*H, *a], path)  # noqa: E731
    h("init")     # already there (committed at the root): creates only the untracked .harness/local/
    h("install")  # the native hook shims: every commit below is validated and stamped

    # Task one, walked to DONE through the gate (this commit makes the push guard recompute a gate).
    repo.task_done = out([*H, "task", "new", "Bench task one", "--description", "walked to DONE"], path)
    h("requirement", "add", "the change works", "--priority", "must")
    h("invariant", "add", "nothing else breaks", "--category", "correctness", "--severity", "major")
    for s in ("SPECIFYING", "PLANNED", "IMPLEMENTING"):
        h("transition", s)
    git_commit(path, "task one planned")
    write_file(path / "src/feature_one.txt", "feature one\n")
    git_commit(path, "feature one")
    h("transition", "VERIFYING")
    h("evidence", "build", "--", "true")
    h("evidence", "unit_test", "--", "true")
    h("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "unit_test")
    h("invariant", "set", "INV-001", "--status", "verified", "--evidence", "unit_test")
    for s in ("REVIEWING", "GATING"):
        h("transition", s)
    h("gate", "--advance")
    h("transition", "DONE")
    git_commit(path, "task one done")

    # Task two, left in GATING with fresh passing evidence: what `harness gate` and `status` judge.
    repo.task_open = out([*H, "task", "new", "Bench task two", "--description", "left in GATING"], path)
    h("requirement", "add", "the second change works", "--priority", "must")
    for s in ("SPECIFYING", "PLANNED", "IMPLEMENTING"):
        h("transition", s)
    git_commit(path, "task two planned")
    write_file(path / "src/feature_two.txt", "feature two\n")
    git_commit(path, "feature two")
    h("transition", "VERIFYING")
    h("evidence", "build", "--", "true")
    h("evidence", "unit_test", "--", "true")
    h("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "unit_test")
    for s in ("REVIEWING", "GATING"):
        h("transition", s)
    git_commit(path, "task two in GATING with evidence")
    repo.timings["harness setup"] = time.perf_counter() - t0
    repo.commits = int(out(["git", "rev-list", "--count", "HEAD"], path))
    log(f"  hooks installed, 2 tasks, {repo.commits} commits in all, in {repo.timings['harness setup']:.1f} s")
    # Settle the index's stat cache (racily-clean entries right after checkout) before any timing.
    time.sleep(1.1)
    run(["git", "update-index", "-q", "--refresh"], path, expect=(0, 1))
    run(["git", "status", "-s"], path)
    return repo


def build_small_repo(path: Path) -> Path:
    path.mkdir(parents=True)
    run(["git", "init", "-q", "-b", "main"], path)
    content = Content(7)
    for i, p in enumerate(file_paths(20)):
        (path / p).parent.mkdir(parents=True, exist_ok=True)
        (path / p).write_bytes(content.make(i, 0))
    run([*H, "init"], path)
    write_file(path / ".harness/config.yaml", CONFIG)
    run([*H, "task", "new", "Evidence overhead"], path)
    git_commit(path, "small repository")
    return path


# -- the benchmark ---------------------------------------------------------------------------------

@dataclass
class Row:
    section: str
    figure: str
    value: str
    detail: str = ""


@dataclass
class Target:
    name: str
    measured: float
    target: float
    unit: str
    higher_is_better: bool = False
    note: str = ""

    @property
    def met(self) -> bool:
        return self.measured >= self.target if self.higher_is_better else self.measured <= self.target

    def line(self) -> str:
        op = ">=" if self.higher_is_better else ("<" if self.unit == "s" else "<=")
        val = f"{self.measured:.3f} s" if self.unit == "s" else (
            f"{self.measured:.2f}x" if self.unit == "x" else f"{self.measured:.0f} {self.unit}")
        tgt = f"{self.target} s" if self.unit == "s" else (
            f"{self.target}x" if self.unit == "x" else f"{self.target:.0f} {self.unit}")
        return (f"TARGET {self.name}: measured {val} (target {op} {tgt}) — {'MET' if self.met else 'NOT MET'}"
                + (f" ({self.note})" if self.note else ""))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="smaller sizes and fewer runs: a smoke test")
    ap.add_argument("--files", type=int, help="files in the large repository (default 100000; --quick 5000)")
    ap.add_argument("--small-files", type=int, help="files in the small history repository (default 1000)")
    ap.add_argument("--commits", type=int, help="generated history length (default 1000; --quick 200)")
    ap.add_argument("--runs", type=int, help="timed runs per fast command (default 7; --quick 3)")
    ap.add_argument("--slow-runs", type=int, help="timed runs of the slow large-repo audits (default 3; --quick 2)")
    ap.add_argument("--range", type=int, default=50, help="commits in the push-guard range (default 50)")
    ap.add_argument("--workdir", type=Path, help="where to generate the repositories (default: a new temp dir)")
    ap.add_argument("--keep", action="store_true", help="keep the generated repositories")
    ap.add_argument("--only", choices=("all", "files", "tasks", "output", "fanout", "hot"), default="all",
                    help="run only the file-count section (issues 3-4), the task-count section (issue 9), the "
                    "output section (big, binary and endless output), the re-run fan-out (#24; not in `all`: "
                    "bench/fanout.py), or the hot commands as ratios to `python -c pass` (#28; not in `all`: bench/hot.py)")
    ap.add_argument("--rows", help="--only hot: time only the rows whose name holds this text (e.g. pre-tool-use)")
    ap.add_argument("--tasks", help="task counts of the issue-9 repositories (default 1,100,1000; --quick 1,10,30)")
    ap.add_argument("--events", type=int, help="ledger length of the long-ledger repository (default 10000; "
                    "--quick 500)")
    ap.add_argument("--history", type=int, help="commits of the issue-9 histories before the last five "
                    "(default 209, every 11th touching .harness/; --quick 44)")
    args = ap.parse_args(argv)
    if os.environ.get("HARNESS_BENCH_QUICK"):
        args.quick = True
    if args.only == "fanout":  # its own report: serial against fanned-out `audit --rerun` (bench/fanout.py)
        from fanout import main as fanout_main

        return fanout_main(["--commits", "5", "--work", "0.2"] if args.quick else [])
    if args.only == "hot":  # its own report: ratios to the interpreter's floor, exit 1 on a missed target
        from hot import main as hot_main

        hot_work = Path(tempfile.mkdtemp(prefix="harness-bench-hot.", dir=args.workdir))
        try:
            return hot_main(hot_work, args.runs or (3 if args.quick else 9), args.rows)
        finally:
            if not args.keep:
                shutil.rmtree(hot_work, ignore_errors=True)
    sizes = [int(n) for n in (args.tasks or ("1,10,30" if args.quick else "1,100,1000")).split(",")]
    events = args.events or (500 if args.quick else 10_000)
    history = args.history or (44 if args.quick else 209)
    big = args.files or (5000 if args.quick else 100_000)
    small = args.small_files or 1000
    commits = args.commits or (200 if args.quick else 1000)
    runs = args.runs or (3 if args.quick else 7)
    slow_runs = args.slow_runs or (2 if args.quick else 3)
    if commits <= args.range + 10:
        ap.error(f"--commits must exceed the push-guard range ({args.range}) by more than 10")

    if args.workdir:
        args.workdir.mkdir(parents=True, exist_ok=True)
    head = report_header(big, small, commits, runs)
    work = Path(tempfile.mkdtemp(prefix="harness-bench.", dir=args.workdir))
    ENV.update(make_env(work / "home"))
    log(f"work dir {work}; large repo {big} files, small {small} files, {commits}-commit histories, "
        f"{runs} runs ({slow_runs} for slow cases)")
    rows: list[Row] = []
    targets: list[Target] = []
    try:
        if args.only in ("all", "files"):
            bench(work, big, small, commits, runs, slow_runs, args.range, rows, targets)
        if args.only in ("all", "tasks"):
            from scale import scale_section

            smoke = "smoke-test size: the target is stated for 1,000 tasks and 10,000 events" if args.quick else ""
            scale_section(work, sizes, events, history, runs, rows, targets, smoke)
        if args.only in ("all", "output"):
            from output import output_section

            output_section(work, runs, args.quick, rows, targets)
    except BenchError as exc:
        log(f"FAILED: {exc}")
        print_report(rows, targets, head, failed=str(exc).splitlines()[0])
        return 2
    finally:
        if args.keep:
            log(f"kept the generated repositories in {work}")
        else:
            log(f"removing {work}")
            shutil.rmtree(work, ignore_errors=True)
    print_report(rows, targets, head)
    log(f"total {time.perf_counter() - START:.0f} s")
    return 0


def report_header(big: int, small: int, commits: int, runs: int) -> list[str]:
    try:
        rev = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True,
                             text=True).stdout.strip() or "?"
    except OSError:
        rev = "?"
    gitv = subprocess.run(["git", "--version"], capture_output=True, text=True).stdout.strip()
    return [f"Engineering Harness benchmark — harness checkout {rev}, Python {platform.python_version()}, {gitv}, "
            f"{os.cpu_count()} CPUs, {platform.system()} {platform.release()}",
            f"large repo {big:,} files, small repo {small:,} files, {commits:,} generated commits; "
            f"medians of {runs} runs unless noted; load average at start "
            + " ".join(f"{x:.2f}" for x in os.getloadavg())]


def bench(work: Path, big: int, small: int, commits: int, runs: int, slow_runs: int, span: int,
          rows: list[Row], targets: list[Target]) -> None:
    S = f"{small:,} files"
    B = f"{big:,} files"
    # The 2x targets are stated for 100,000 files; on a smaller tree git status is a few ms and the
    # harness's fixed cost (a Python process: ~60 ms of interpreter and imports) dominates any ratio.
    at_size = "" if big >= 100_000 else "smoke-test size: the ratio target is stated for 100,000 files"

    # ---- baselines and issue 3 (a) ----------------------------------------------------------------
    log("issue 3(a): evidence overhead in a small repository")
    small_repo = build_small_repo(work / "tiny")
    true_c = Case("true", ["true"], small_repo)
    ev = Case("evidence custom -- true", [*H, "evidence", "custom", "--", "true"], small_repo)
    ver = Case("harness --version", [*H, "--version"], small_repo)
    pyc = Case("python -c pass", [sys.executable, "-c", "pass"], small_repo)
    measure([true_c, ev, ver, pyc], runs=max(runs, 9), warmup=2)
    overhead = ev.median - true_c.median
    rows += [
        Row("3a", "bare `true` (subprocess)", fmt_s(true_c.median), true_c.spread()),
        Row("3a", "`harness evidence custom -- true`", fmt_s(ev.median), ev.spread()),
        Row("3a", "evidence overhead (difference)", fmt_s(overhead), "target < 400 ms"),
        Row("3a", "  for scale: `python -c pass`", fmt_s(pyc.median), pyc.spread()),
        Row("3a", "  for scale: `harness --version`", fmt_s(ver.median), ver.spread()),
    ]
    targets.append(Target("3a evidence overhead", overhead, 0.4, "s"))

    # ---- the two history repositories -------------------------------------------------------------
    log(f"building the {S} repository with a {commits}-commit history")
    template = harness_files(work)
    rs = build_history_repo(work / f"repo-{small}", small, commits, seed=1, harness=template)
    log(f"building the {B} repository with a {commits}-commit history")
    rb = build_history_repo(work / f"repo-{big}", big, commits, seed=2, harness=template)
    for r in (rs, rb):
        rows.append(Row("setup", f"build the {r.files:,}-file repository", f"{sum(r.timings.values()):.1f} s",
                        f"{r.commits} commits; " + ", ".join(f"{k} {v:.1f} s" for k, v in r.timings.items())))

    # ---- issue 3 (b): gate and status against git status on the large repository --------------------
    log(f"issue 3(b): harness gate / status vs git status, {B}")
    gs = Case("git status", ["git", "status"], rb.path)
    st = Case("harness status", [*H, "status"], rb.path)
    gt = Case("harness gate", [*H, "gate"], rb.path)  # task two is in GATING with fresh evidence: PASS
    measure([gs, st, gt], runs=runs, warmup=2)
    rows += [
        Row("3b", f"`git status`, {B}", fmt_s(gs.median), gs.spread()),
        Row("3b", f"`harness status`, {B}", fmt_s(st.median), st.spread()),
        Row("3b", f"`harness gate`, {B}", fmt_s(gt.median), gt.spread()),
        Row("3b", "ratio gate / git status", f"{gt.median / gs.median:.2f}x", "target <= 2x"),
        Row("3b", "ratio status / git status", f"{st.median / gs.median:.2f}x", ""),
    ]
    targets.append(Target(f"3b gate / git status ({B})", gt.median / gs.median, 2.0, "x", note=at_size))

    # ---- issue 4 (b), (c): stamp and push guard, small vs large, interleaved ---------------------------
    log(f"issue 4(b,c): stamp and push guard ({span} commits), {S} vs {B}")
    cases = []
    for r in (rs, rb):
        head = out(["git", "rev-parse", "HEAD"], r.path)
        base = out(["git", "rev-parse", f"HEAD~{span}"], r.path)
        touched = int(out(["git", "rev-list", "--count", f"{base}..{head}", "--", ".harness"], r.path))
        r.timings["range touching .harness"] = touched
        stdin = f"refs/heads/main {head} refs/heads/main {base}\n".encode()
        cases += [Case(f"stamp {r.files}", [*H, "stamp", "HEAD"], r.path),
                  Case(f"push-guard {r.files}", [*HM, "hook", "push-guard", "origin", str(work / "remote.git")],
                       r.path, stdin=stdin)]
    measure(cases, runs=runs, warmup=1)
    st_s, pg_s, st_b, pg_b = cases
    rows += [
        Row("4b", f"`harness stamp HEAD`, {S}", fmt_s(st_s.median), st_s.spread()),
        Row("4b", f"`harness stamp HEAD`, {B}", fmt_s(st_b.median), st_b.spread()),
        Row("4b", "stamp growth large / small", f"{st_b.median / st_s.median:.2f}x", "target <= 1.3x"),
        Row("4c", f"push guard, {span} commits, {S}", fmt_s(pg_s.median),
            f"{pg_s.spread()}; {rs.timings['range touching .harness']:.0f} touch .harness"),
        Row("4c", f"push guard, {span} commits, {B}", fmt_s(pg_b.median),
            f"{pg_b.spread()}; {rb.timings['range touching .harness']:.0f} touch .harness"),
        Row("4c", "push guard growth large / small", f"{pg_b.median / pg_s.median:.2f}x", "target <= 1.3x"),
    ]
    targets.append(Target("4b stamp growth", st_b.median / st_s.median, 1.3, "x"))
    targets.append(Target("4c push-guard growth", pg_b.median / pg_s.median, 1.3, "x"))

    # ---- issue 4 (d): audit throughput over the whole history ------------------------------------------
    for r, n in ((rs, runs), (rb, slow_runs)):
        log(f"issue 4(d): audit over the history, {r.files:,} files")
        ncommits = int(out(["git", "rev-list", "--count", f"{r.root_commit}..HEAD"], r.path))
        au = Case(f"audit {r.files}", [*H, "audit", "--from", r.root_commit, "--to", "HEAD"], r.path)
        measure([au], runs=n, warmup=1)
        rate = ncommits / au.median
        rows += [Row("4d", f"`harness audit --from <root> --to HEAD`, {r.files:,} files", fmt_s(au.median),
                     f"{au.spread()}; {ncommits} commits, all pass"),
                 Row("4d", f"audit throughput, {r.files:,} files", f"{rate:.0f} commits/s", "target >= 200")]
        targets.append(Target(f"4d audit throughput ({r.files:,} files)", rate, 200, "commits/s", higher_is_better=True))

    # ---- issue 4 (a): commit validation with a staged legit .harness change -----------------------------
    log(f"issue 4(a): hook validate with a staged .harness change, {S} vs {B}")
    for r in (rs, rb):
        run([*H, "requirement", "add", "a staged requirement", "--priority", "should"], r.path)
        run(["git", "add", ".harness"], r.path)
    va_s = Case(f"validate {small}", [*HM, "hook", "validate"], rs.path)
    va_b = Case(f"validate {big}", [*HM, "hook", "validate"], rb.path)
    gs2 = Case(f"git status {big}", ["git", "status"], rb.path)
    measure([va_s, va_b, gs2], runs=runs, warmup=2)
    rows += [
        Row("4a", f"`python -m harness hook validate`, {S}", fmt_s(va_s.median), va_s.spread()),
        Row("4a", f"`python -m harness hook validate`, {B}", fmt_s(va_b.median), va_b.spread()),
        Row("4a", f"`git status`, {B} (same state)", fmt_s(gs2.median), gs2.spread()),
        Row("4a", "ratio validate / git status (large)", f"{va_b.median / gs2.median:.2f}x", "target <= 2x"),
        Row("4a", "validate growth large / small", f"{va_b.median / va_s.median:.2f}x", ""),
    ]
    targets.append(Target(f"4a validate / git status ({B})", va_b.median / gs2.median, 2.0, "x", note=at_size))


def print_report(rows: list[Row], targets: list[Target], head: list[str], failed: str | None = None) -> None:
    print()
    for line in head:
        print(line)
    if failed:
        print(f"BENCHMARK FAILED before finishing: {failed}")
    w1 = max([len(r.figure) for r in rows] + [6])
    w2 = max([len(r.value) for r in rows] + [5])
    print()
    print(f"{'issue':<6} {'figure':<{w1}}  {'value':>{w2}}  detail")
    print(f"{'-' * 6} {'-' * w1}  {'-' * w2}  {'-' * 40}")
    for r in rows:
        print(f"{r.section:<6} {r.figure:<{w1}}  {r.value:>{w2}}  {r.detail}")
    print()
    for t in targets:
        print(t.line())
    sys.stdout.flush()


if __name__ == "__main__":
    # Run as the module `bench`, so scale.py (which imports bench) shares its state (ENV).
    sys.path.insert(0, str(HERE))
    import bench

    sys.exit(bench.main())
