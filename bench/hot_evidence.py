"""Hot paths of a working day, each as a ratio to its floor, timed side by side in one run under
both bytecode settings (PYTHONDONTWRITEBYTECODE unset and set):

  evidence fixed cost   `harness evidence custom -- true` against `python -c pass` (the interpreter
                        start any Python command pays; `true` itself costs nothing)     target <= 5x
  50 MB recording       `harness.runner.run_command` capturing 50 MB against the same command with
                        its output sent to /dev/null (in this process)                  target <= 3x
                        (beside it, untargeted: `python -c "import ..."` of exactly the modules
                        the recording loads, against the same floor: what loading them costs alone)
  code-only push        the native pre-push hook (`python -m harness hook run pre-push`) pushing
                        three code-only commits, against a `python -c pass` pre-push hook
                        given the same standard input                                   target <= 2x

`python bench/hot_evidence.py [WORKDIR]` prints the rows; `bash bench/run --only hot` imports
:func:`rows`.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import hot_timing as T
from hot_timing import B

BIG = 50_000_000
TARGETS = {"evidence": 5.0, "recording": 3.0, "push": 2.0}


def _code_only_push(repo: Path) -> bytes:
    """Three code-only commits on top of the repository, and the line git gives pre-push for them."""
    for i in range(3):
        B.write_file(repo / "src/pushed.txt", f"revision {i}\n")
        B.run(["git", "add", "-A"], repo)
        B.run(["git", "commit", "-q", "--no-verify", "-m", f"code {i}"], repo)
    tip, old = (B.out(["git", "rev-parse", rev], repo) for rev in ("HEAD", "HEAD~3"))
    return f"refs/heads/main {tip} refs/heads/main {old}\n".encode()


def _recording(setting: str | None) -> tuple[T.Timed, T.Timed]:
    from harness.runner import run_command

    argv = [sys.executable, "-c", f"import sys; sys.stdout.buffer.write(b'x' * {BIG})"]

    def with_env(fn):
        def call() -> None:
            saved = os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
            if setting is not None:
                os.environ["PYTHONDONTWRITEBYTECODE"] = setting
            try:
                fn()
            finally:
                os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
                if saved is not None:
                    os.environ["PYTHONDONTWRITEBYTECODE"] = saved
        return call

    def captured() -> None:
        r = run_command(argv, echo=False)
        if r.outcome != "passed" or r.stdout.total_bytes != BIG:
            raise B.BenchError(f"run_command of {BIG} bytes: {r.outcome}, {r.stdout.total_bytes} bytes")

    def to_null() -> None:
        subprocess.run(argv, stdout=subprocess.DEVNULL, check=True)

    return T.Timed("run_command 50 MB", call=with_env(captured)), T.Timed("50 MB to /dev/null", call=with_env(to_null))


def _loaded_modules(repo: Path, env: dict[str, str]) -> list[str]:
    """The modules `harness evidence custom -- true` imports beyond what `python -c pass` does (from -X importtime),
    those a fresh interpreter can import by name."""
    def imported(argv: list[str]) -> list[str]:
        err = subprocess.run([sys.executable, "-X", "importtime", *argv], cwd=repo, env=env, capture_output=True,
                             text=True).stderr
        return [line.rsplit("|", 1)[1].strip() for line in err.splitlines() if line.startswith("import time:")
                and "|" in line and not line.rstrip().endswith("package")]
    floor = set(imported(["-c", "pass"]))
    wanted = [m for m in imported(["-m", "harness", "evidence", "custom", "--", "true"]) if m not in floor]
    check = "import importlib, sys\nfor m in sys.argv[1:]:\n    try: importlib.import_module(m); print(m)\n" \
            "    except Exception: pass\n"
    return subprocess.run([sys.executable, "-c", check, *wanted], cwd=repo, env=env, capture_output=True,
                          text=True).stdout.split()


def rows(workdir: Path) -> list[T.Row]:
    T.ensure_env(workdir)
    B.log("hot evidence: a small repository with a current task; three code-only commits to push")
    repo = B.build_small_repo(workdir / "hot-evidence")
    push_line = _code_only_push(repo)
    pre_push = [*B.HM, "hook", "run", "pre-push", "origin", str(workdir / "none.git")]
    floor = [sys.executable, "-c", "pass"]
    cases: dict[tuple[str, str], tuple[T.Timed, T.Timed]] = {}
    imports: dict[str, T.Timed] = {}
    for label, setting in T.BYTECODE:
        env = T.env_for(setting)
        cases["evidence", label] = (T.Timed(f"evidence -- true ({label})", [*B.H, "evidence", "custom", "--", "true"],
                                            repo, env),
                                    T.Timed(f"python -c pass ({label})", floor, repo, env))
        modules = _loaded_modules(repo, env)
        imports[label] = T.Timed(f"its {len(modules)} modules imported ({label})",
                                 [sys.executable, "-c", "import " + ", ".join(modules)], repo, env)
        cases["recording", label] = _recording(setting)
        cases["push", label] = (T.Timed(f"pre-push, code only ({label})", pre_push, repo, env, stdin=push_line),
                                T.Timed(f"python -c pass pre-push ({label})", floor, repo, env, stdin=push_line))
    T.interleave([*(c for pair in cases.values() for c in pair), *imports.values()], runs=5)
    names = {"evidence": "evidence fixed cost, `harness evidence custom -- true` / `python -c pass`",
             "recording": "50 MB recording, run_command / to /dev/null",
             "push": "code-only push (3 commits), pre-push hook / `python -c pass` hook"}
    out = []
    for (what, label), (measured, floor_) in cases.items():
        name, ratio, target, detail = T.ratio_row(f"{names[what]} ({label})", measured, floor_, TARGETS[what])
        if what == "evidence":  # no target of its own: what the modules cost before the recording does anything
            alone = imports[label]
            detail += f"; {alone.name.rsplit(' (', 1)[0]} alone: {alone.median / floor_.median:.2f}x"
        out.append((name, ratio, target, detail))
    return out


if __name__ == "__main__":
    sys.exit(T.standalone(rows))
