"""The benchmark's hot section (`--only hot`): the commands an agent runs most, each a ratio to the floor.

The floor is `python -c pass` with the same interpreter and environment, timed interleaved with the
commands (A B C …, A B C …) so that a busy machine slows all of them alike. Every row is a median
ratio of one run; nothing is hard-coded but the targets.

  pre-tool-use   `harness hook agent claude pre-tool-use` on a `Read`, an `Edit` outside `.harness/`,
                 `ls` and `pytest` (target <= 1.5x), and on `git commit` / `rm .harness/...` Bash calls
                 (any Bash call: target <= 2.5x)
  agent hooks    session-start and stop                                                 target <= 5x
  status         `harness status` with 0, 1 and 50 tasks, `status --json`, `--version`  target <= 5x

Measured twice: with PYTHONDONTWRITEBYTECODE unset (what a pip-installed user has: the bytecode cache
is written once and read after) — these rows carry the targets — and with it set, without a bytecode
prefix (what CI has), reported for comparison. `bash bench/run --only hot --rows TEXT` times
only the rows whose name holds TEXT (and leaves the provider rows out): a quicker look at a few. Rows from `bench/hot_evidence.py` and
`bench/hot_history.py` (each `rows(workdir) -> [(name, ratio, target, detail)]`) join the report when
those files exist.
"""

from __future__ import annotations

import importlib.util
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
FLOOR = [sys.executable, "-c", "pass"]
READ_ONLY = 1.5   # a tool call that cannot touch a guarded path or git's commit/push machinery
ANY_BASH = 2.5
HOOKS = 5.0
PROVIDERS = ("hot_evidence", "hot_history")


def log(msg: str) -> None:
    print(f"[bench hot] {msg}", file=sys.stderr, flush=True)


def harness_script() -> list[str]:
    script = Path(sys.executable).parent / "harness"
    return [str(script)] if os.access(script, os.X_OK) else [sys.executable, "-m", "harness"]


def wrapper_note() -> str | None:
    """What the `harness` script costs beyond the harness, when it is pip's old wrapper: pip before 26
    wrote `import re` into every console script, about half the floor on a machine where `re` is slow
    to import; the rows then time that wrapper, not the harness. None for a current wrapper."""
    script = harness_script()[0]
    try:
        text = Path(script).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    if "\nimport re\n" not in text:
        return None
    return (f"note: {script} is an old pip's wrapper, which imports `re` on every call; "
            "`python -m pip install --upgrade pip` and reinstall to time what a current install has")


def base_env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not (k.startswith("GIT_") or k.startswith("PRE_COMMIT") or k in ("PYTHONDONTWRITEBYTECODE",
                                                                                  "PYTHONPYCACHEPREFIX"))}
    env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"), XDG_CACHE_HOME=str(home / ".cache"),
               GIT_CONFIG_NOSYSTEM="1", GIT_AUTHOR_NAME="Bench", GIT_AUTHOR_EMAIL="bench@example.com",
               GIT_COMMITTER_NAME="Bench", GIT_COMMITTER_EMAIL="bench@example.com", LC_ALL="C.UTF-8")
    home.mkdir(parents=True, exist_ok=True)
    return env


def sh(argv: list[str], cwd: Path, env: dict[str, str], stdin: bytes | None = None) -> bytes:
    proc = subprocess.run(argv, cwd=cwd, env=env, input=stdin, capture_output=True)
    if proc.returncode != 0:
        raise RuntimeError(f"`{' '.join(argv)}` exited {proc.returncode}: {proc.stderr.decode(errors='replace')[-2000:]}")
    return proc.stdout


def make_repo(path: Path, tasks: int, env: dict[str, str]) -> Path:
    h = harness_script()
    path.mkdir(parents=True)
    sh(["git", "init", "-q", "-b", "main"], path, env)
    (path / "README.md").write_text("bench\n")
    sh(["git", "add", "-A"], path, env)
    sh(["git", "commit", "-q", "-m", "init"], path, env)
    sh([*h, "init"], path, env)
    for i in range(tasks):
        sh([*h, "task", "new", f"task {i}"], path, env)
    return path


def tool_call(cwd: Path, tool: str, tool_input: dict) -> bytes:
    return json.dumps({"session_id": "bench", "cwd": str(cwd), "hook_event_name": "PreToolUse",
                       "tool_name": tool, "tool_input": tool_input}).encode()


def cases(work: Path, env: dict[str, str]) -> list[tuple[str, list[str], Path, bytes | None, float]]:
    """(name, argv, cwd, stdin, target ratio)."""
    h = harness_script()
    none, one, fifty = (make_repo(work / f"tasks-{n}", n, env) for n in (0, 1, 50))
    guard = [*h, "hook", "agent", "claude", "pre-tool-use"]
    event = {"session_id": "bench", "cwd": str(one)}
    return [
        ("pre-tool-use Read", guard, one, tool_call(one, "Read", {"file_path": str(one / "README.md")}), READ_ONLY),
        ("pre-tool-use Edit outside .harness/", guard, one,
         tool_call(one, "Edit", {"file_path": str(one / "README.md"), "old_string": "a", "new_string": "b"}),
         READ_ONLY),
        ("pre-tool-use Bash ls", guard, one, tool_call(one, "Bash", {"command": "ls -la"}), READ_ONLY),
        ("pre-tool-use Bash pytest", guard, one, tool_call(one, "Bash", {"command": "pytest -q tests"}), READ_ONLY),
        ("pre-tool-use Bash git commit -n", guard, one,
         tool_call(one, "Bash", {"command": "git add -A && git commit -n -m 'x'"}), ANY_BASH),
        ("pre-tool-use Bash rm .harness", guard, one,
         tool_call(one, "Bash", {"command": "rm -rf .harness/tasks"}), ANY_BASH),
        ("session-start", [*h, "hook", "agent", "claude", "session-start"], one, json.dumps(event).encode(), HOOKS),
        ("stop", [*h, "hook", "agent", "claude", "stop"], one, json.dumps(event).encode(), HOOKS),
        ("status, 0 tasks", [*h, "status"], none, None, HOOKS),
        ("status, 1 task", [*h, "status"], one, None, HOOKS),
        ("status, 50 tasks", [*h, "status"], fifty, None, HOOKS),
        ("status --json", [*h, "status", "--json"], one, None, HOOKS),
        ("--version", [*h, "--version"], one, None, HOOKS),
    ]


def timed(argv: list[str], cwd: Path, env: dict[str, str], stdin: bytes | None) -> float:
    t0 = time.perf_counter()
    proc = subprocess.run(argv, cwd=cwd, env=env, input=stdin, capture_output=True)
    dt = time.perf_counter() - t0
    if proc.returncode not in (0, 1):  # status exits 0; a hook answers on 0
        raise RuntimeError(f"`{' '.join(argv)}` exited {proc.returncode}: {proc.stderr.decode(errors='replace')[-2000:]}")
    return dt


def ratios(table: list, env: dict[str, str], runs: int) -> list[tuple[str, float, float, str]]:
    """Each case's median time over the median floor, every round timing the floor before each case."""
    floor: list[float] = []
    times: dict[str, list[float]] = {name: [] for name, *_ in table}
    for round_no in range(runs + 1):  # round 0 warms the caches (bytecode, parser tables): not counted
        for name, argv, cwd, stdin, _ in table:
            f = timed(FLOOR, cwd, env, None)
            t = timed(argv, cwd, env, stdin)
            if round_no:
                floor.append(f)
                times[name].append(t)
    base = statistics.median(floor)
    return [(name, statistics.median(times[name]) / base, target,
             f"median {statistics.median(times[name]) * 1000:.0f} ms, floor {base * 1000:.0f} ms, n={runs}")
            for name, _, _, _, target in table]


def provider_rows(work: Path) -> list[tuple[str, float, float, str]]:
    out: list[tuple[str, float, float, str]] = []
    for name in PROVIDERS:
        path = HERE / f"{name}.py"
        if not path.is_file():
            continue
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        folder = work / name
        folder.mkdir(parents=True, exist_ok=True)
        out.extend(module.rows(folder))
    return out


def main(work: Path, runs: int, rows: str | None = None) -> int:
    """``rows``: time only the rows whose name holds it (`--rows pre-tool-use`), and no provider's."""
    env = base_env(work / "home")
    every = cases(work, env)
    table = [case for case in every if rows is None or rows in case[0]]
    if not table:  # a median of nothing is no ratio: name what can be chosen instead of failing on it
        print(f"hot: no row's name holds {rows!r}; the rows --rows chooses from are: "
              + ", ".join(name for name, *_ in every) + " (evidence, recording and push: `python bench/hot_evidence.py`)",
              file=sys.stderr)
        return 2
    log(f"{len(table)} commands, {runs} interleaved rounds with PYTHONDONTWRITEBYTECODE unset")
    user = ratios(table, env, runs)
    log("again with PYTHONDONTWRITEBYTECODE=1")
    ci = ratios(table, {**env, "PYTHONDONTWRITEBYTECODE": "1"}, runs)
    extra = provider_rows(work) if rows is None else []
    print(f"Hot commands: ratio to `python -c pass` ({sys.version.split()[0]}), medians of {runs} interleaved runs")
    print(f"{'command':40} {'user':>7} {'CI':>7}  detail (user)")
    note = wrapper_note()
    if note:
        print(note)
    for (name, r_user, _, detail), (_, r_ci, _, _) in zip(user, ci):
        print(f"{name:40} {r_user:6.2f}x {r_ci:6.2f}x  {detail}")
    for name, ratio, _, detail in extra:
        print(f"{name:40} {ratio:6.2f}x {'':>7}  {detail}")
    missed = 0
    for name, ratio, target, _ in [*user, *extra]:
        met = ratio <= target
        missed += not met
        print(f"TARGET {name}: measured {ratio:.2f}x (target <= {target}x) — {'MET' if met else 'NOT MET'}")
    return 1 if missed else 0
