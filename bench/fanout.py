"""#24 item 3: a push's DONE commits re-run serially in one job against fanned out, one job each.

Builds a repository whose history brings N (default 20) commits each marking a task DONE through the
CLI (evidence from configured commands that take --work seconds each, as a real build and test
suite do), pushes it to a bare remote, then times, from fresh clones of that remote:

  serial   `harness audit --from BASE --to TIP --rerun` in one clone: every DONE commit in turn
  fan-out  `--plan --json`, then `--rerun --only SHA` for every planned commit, each in a clone of its
           own (a fresh runner), --jobs at a time, then `--aggregate` over the plan and the verdicts

The fan-out's wall time includes the plan and the aggregate; the clones are made before the clock
starts (a CI runner's checkout is not the audit's work). Both must exit 0.

    python bench/fanout.py [--commits 20] [--jobs 20] [--work 1.0] [--keep]
    bash bench/run --only fanout
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HARNESS = [sys.executable, "-m", "harness"]
STATES = ("SPECIFYING", "PLANNED", "IMPLEMENTING", "VERIFYING")


def run(argv: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess:
    p = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit(f"`{' '.join(argv)}` exited {p.returncode}:\n{p.stdout[-2000:]}{p.stderr[-2000:]}")
    return p


def environment(home: Path) -> dict[str, str]:
    home.mkdir(parents=True)
    (home / ".gitconfig").write_text("[user]\n\tname = Bench\n\temail = bench@example.com\n"
                                     "[init]\n\tdefaultBranch = main\n[commit]\n\tgpgsign = false\n")
    keep = ("PATH", "LANG", "LC_ALL", "TMPDIR")
    return {**{k: v for k, v in os.environ.items() if k in keep}, "HOME": str(home),
            "GIT_CONFIG_NOSYSTEM": "1", "HARNESS_NO_BROWSER": "1"}


def build(repo: Path, commits: int, work: float, env: dict[str, str]) -> str:
    """The repository, with ``commits`` DONE commits after BASE. Returns BASE."""
    h = lambda *a: run([*HARNESS, *a], repo, env)  # noqa: E731
    repo.mkdir()
    run(["git", "init", "-q", "-b", "main"], repo, env)
    (repo / "app.py").write_text("def answer():\n    return 42\n")
    h("init")
    sleep = [sys.executable, "-c", f"import time; time.sleep({work})"]
    config = repo / ".harness" / "config.yaml"
    import yaml

    doc = yaml.safe_load(config.read_text()) or {}
    doc["evidence"] = {"build": {"command": sleep}, "unit_test": {"command": sleep}}
    config.write_text(yaml.safe_dump(doc, sort_keys=False))
    run(["git", "add", "-A"], repo, env)
    run(["git", "commit", "-q", "-m", "harness init"], repo, env)
    base = run(["git", "rev-parse", "HEAD"], repo, env).stdout.strip()
    for n in range(commits):
        h("task", "new", f"Task {n}")
        h("requirement", "add", "It works", "--priority", "must")
        for state in STATES:
            h("transition", state)
        h("evidence", "build")
        h("evidence", "unit_test")
        h("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "unit_test")
        for state in ("REVIEWING", "GATING"):
            h("transition", state)
        h("gate", "--advance")
        h("transition", "DONE")
        run(["git", "add", "-A"], repo, env)
        run(["git", "commit", "-q", "-m", f"done {n}"], repo, env)
        print(f"bench: built DONE commit {n + 1}/{commits}", file=sys.stderr, flush=True)
    return base


def clone(remote: Path, where: Path, env: dict[str, str]) -> Path:
    run(["git", "clone", "-q", f"file://{remote}", str(where)], where.parent, env)
    return where


def fan_out(remote: Path, work_dir: Path, rng: list[str], jobs: int, env: dict[str, str]) -> tuple[float, int]:
    plan_clone = clone(remote, work_dir / "plan", env)
    doc = json.loads(run([*HARNESS, "audit", *rng, "--plan", "--json"], plan_clone, env).stdout)
    clones = {sha: clone(remote, work_dir / f"job-{sha[:12]}", env) for sha in doc["matrix"]}
    verdicts = work_dir / "verdicts"
    verdicts.mkdir()

    def job(sha: str) -> None:
        p = run([*HARNESS, "audit", *rng, "--rerun", "--only", sha, "--json"], clones[sha], env)
        (verdicts / f"{sha}.json").write_text(p.stdout)

    start = time.perf_counter()  # the plan again, timed: the clones above are the runners' checkouts
    (verdicts / "plan.json").write_text(run([*HARNESS, "audit", *rng, "--plan", "--json"], plan_clone, env).stdout)
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        list(pool.map(job, doc["matrix"]))
    run([*HARNESS, "audit", "--aggregate", *map(str, sorted(verdicts.iterdir()))], work_dir, env)
    return time.perf_counter() - start, len(doc["matrix"])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--commits", type=int, default=20, help="DONE commits in the range (default 20)")
    ap.add_argument("--jobs", type=int, default=20, help="fan-out jobs at a time (default 20: one per commit)")
    ap.add_argument("--work", type=float, default=1.0, help="seconds each evidence command takes (default 1.0)")
    ap.add_argument("--keep", action="store_true", help="keep the generated repositories")
    args = ap.parse_args(argv)
    work_dir = Path(tempfile.mkdtemp(prefix="harness-bench-fanout-"))
    try:
        env = environment(work_dir / "home")
        repo = work_dir / "repo"
        base = build(repo, args.commits, args.work, env)
        remote = work_dir / "remote.git"
        run(["git", "clone", "-q", "--bare", str(repo), str(remote)], work_dir, env)
        tip = run(["git", "rev-parse", "HEAD"], repo, env).stdout.strip()
        rng = ["--from", base, "--to", tip]

        serial_clone = clone(remote, work_dir / "serial", env)
        start = time.perf_counter()
        run([*HARNESS, "audit", *rng, "--rerun"], serial_clone, env)
        serial = time.perf_counter() - start

        fanned, planned = fan_out(remote, work_dir, rng, args.jobs, env)
        cores = os.cpu_count()
        print(f"fan-out bench: {planned} DONE commits, 2 evidence commands of {args.work:.1f}s each per commit, "
              f"{cores} core(s)")
        print(f"  serial   audit --rerun, one job:                     {serial:7.1f} s")
        print(f"  fan-out  plan + {planned} x --only ({args.jobs} at a time) + aggregate: {fanned:7.1f} s")
        print(f"  ratio    serial / fan-out:                           {serial / fanned:7.2f}x")
        return 0
    finally:
        if args.keep:
            print(f"kept {work_dir}", file=sys.stderr)
        else:
            shutil.rmtree(work_dir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
