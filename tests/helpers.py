"""Helpers shared by the test modules, in the manner of pre-commit's ``testing/`` package.

Fixtures live in conftest.py; test modules import plain helpers from here and never from
each other, so each helper has one definition.
"""

from __future__ import annotations

import fcntl
import hashlib
import io
import json
import os
import pty
import re
import select
import shlex
import shutil
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import yaml

from harness.core.ledger import encode_event, line_hash

GIT_ENV = {
    "GIT_AUTHOR_NAME": "Test", "GIT_AUTHOR_EMAIL": "test@example.com",
    "GIT_COMMITTER_NAME": "Test", "GIT_COMMITTER_EMAIL": "test@example.com",
    "GIT_CONFIG_NOSYSTEM": "1",
}


ROOT = Path(__file__).resolve().parent.parent


def documentation() -> str:
    """What a user can read: the README (the front door) and the manual in docs/, as one text."""
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    return "\n\n".join(page.read_text("utf-8") for page in pages)


PY = sys.executable
# A finding proposal as a reviewer writes one (`harness finding propose --file`), every field filled.
FINDING_PROPOSAL = {
    "type": "suspected_defect", "severity": "major", "category": "correctness",
    "title": "answer() is off by one", "claim": "answer() returns 42 where 41 is required",
    "location": {"file": "app.py", "line": 2}, "failure_scenario": ["call app.answer()"],
    "expected_behavior": "41", "possible_actual_behavior": "42",
    "recommended_reproducer": {"type": "unit_test", "description": "assert", "command": [PY, "-c", "pass"]},
}
TO_VERIFYING = ("SPECIFYING", "PLANNED", "IMPLEMENTING", "VERIFYING")


STAGES = ["pre-commit", "post-commit", "post-merge", "post-rewrite", "pre-merge-commit", "pre-push"]


NOTES = "refs/notes/harness"


# No sample hooks copied into every repository and clone a test makes (a template of empty hooks/
# and info/ folders instead: one in seven of the files a run writes, copies and deletes), and no
# `git maintenance run --auto` process after every commit.
GITCONFIG = ("[init]\n\tdefaultBranch = main\n\ttemplateDir = {template}\n[commit]\n\tgpgsign = false\n"
             "[maintenance]\n\tauto = false\n[gc]\n\tauto = 0\n")


# Where a run's repositories go when the machine has memory to spare: /dev/shm, Linux's tmpfs, so
# that the ~55,000 files a run writes, and the fsyncs of every harness write and git ref update,
# never touch a disk (the inner loop took 16% less wall time, 62 s against 74 s back to back, on the
# 2-core machines this suite is timed on). HARNESS_TEST_TMPFS names another folder (the suite's own tests of this choice do).
RAM_TEMP = Path(os.environ.get("HARNESS_TEST_TMPFS", "/dev/shm"))
RAM_TEMP_MIN_FREE = 2 << 30  # a full run keeps ~0.3 GB there, and pytest keeps three runs


def ram_temp_root(candidate: Path | None = None, min_free: int = RAM_TEMP_MIN_FREE) -> Path | None:
    """``candidate`` (default RAM_TEMP) when it is a writable folder with ``min_free`` bytes free
    and the machine has as much memory available (a tmpfs's free space is only its cap), else
    None: no /dev/shm on macOS, 64 MB of it in a default Docker container."""
    candidate = RAM_TEMP if candidate is None else candidate
    try:
        stat = os.statvfs(candidate)
        with open("/proc/meminfo", "rb") as meminfo:
            available = next(int(line.split()[1]) * 1024 for line in meminfo if line.startswith(b"MemAvailable:"))
    except (OSError, StopIteration, ValueError):
        return None
    if not candidate.is_dir() or not os.access(candidate, os.W_OK | os.X_OK):
        return None
    return candidate if min(stat.f_bavail * stat.f_frsize, available) >= min_free else None


def hermetic_env(mp: pytest.MonkeyPatch, home: Path) -> None:
    """What every test runs under (the autouse fixture ``_git_identity``, and the builds of session
    templates): ``home`` as HOME holding a fixed .gitconfig, a fixed git identity, no system git
    config, and nothing that would point git at another repository or skip hooks."""
    home.mkdir(parents=True, exist_ok=True)
    mp.setenv("HOME", str(home))
    mp.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    for key, value in GIT_ENV.items():
        mp.setenv(key, value)
    template = home / ".git-template"
    for folder in ("hooks", "info"):
        (template / folder).mkdir(parents=True, exist_ok=True)
    (home / ".gitconfig").write_text(GITCONFIG.format(template=template))
    # `python3` in a command a test records is this suite's interpreter, found first on PATH: not a
    # version manager's shim (pyenv's costs a dozen processes a call) nor another Python. Only
    # python3: putting the venv's bin/ first would also put `harness` there, and hide a hook that
    # names a Python it cannot run behind the shim's `harness` fallback. A script, not a symlink:
    # a venv's interpreter started through a link elsewhere would not find its venv.
    bin_dir = home / "bin"
    bin_dir.mkdir(exist_ok=True)
    (bin_dir / "python3").write_text(f'#!/bin/sh\nexec {shlex.quote(PY)} "$@"\n')
    (bin_dir / "python3").chmod(0o755)
    mp.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")
    for var in ("GIT_INDEX_FILE", "GIT_DIR", "GIT_WORK_TREE", "PRE_COMMIT_FROM_REF", "PRE_COMMIT_TO_REF", "SKIP"):
        mp.delenv(var, raising=False)
    # The pytest runs tests record as evidence in scratch repositories need none of the plugins this
    # venv holds (xdist, hypothesis, ...); loading them costs ~0.6 s per start.
    mp.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
    # git logs every hook it starts (trace2) in HOME, for :func:`hooks_started`; nesting 1 writes a
    # third less and keeps the hook events.
    mp.setenv("GIT_TRACE2_EVENT", str(home / TRACE2_FILE))
    mp.setenv("GIT_TRACE2_EVENT_NESTING", "1")


def slow_first_in_each_share(items: list, workers: int, slow: Callable[[object], bool]) -> list:
    """``items`` reordered so that each share pytest-xdist's worksteal deals out at the start (the
    i-th worker gets the next len(left) // (workers - i) items) begins with its part of the ``slow``
    items, dealt round-robin; slow and other items each keep their order. So every worker starts
    on slow tests at once and the run ends on short ones, which the workers steal from each other."""
    slows, others = [it for it in items if slow(it)], [it for it in items if not slow(it)]
    ordered, left = [], len(items)
    for i in range(workers):
        size = left // (workers - i)
        left -= size
        mine = slows[i::workers]
        take = max(0, size - len(mine))
        ordered += mine + others[:take]
        others = others[take:]
    return ordered + others


HOOKS_KEY = "git hooks started"  # in a Template's data
TRACE2_FILE = "git-trace2.json"  # in the HOME of hermetic_env


def hooks_started(home: Path) -> list[str]:
    """The git hooks (by name, in order, once each) that git logged starting under the hermetic
    ``home`` (its GIT_TRACE2_EVENT file, see :func:`hermetic_env`)."""
    try:
        raw = (home / TRACE2_FILE).read_bytes()
    except FileNotFoundError:
        return []
    # A regular expression, not a JSON parse: concurrent git processes append to one file, and a
    # torn line must not hide the hook it names.
    names = re.findall(rb'"child_class":"hook"[^\n]*?"hook_name":"([^"]*)"', raw)
    return list(dict.fromkeys(name.decode("utf-8", "replace") for name in names))


def git(cwd: Path, *args: str, check: bool = True, env: dict | None = None) -> subprocess.CompletedProcess:
    proc = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True,
                          env={**os.environ, **(env or {})})
    if check and proc.returncode != 0:
        raise AssertionError(f"git {' '.join(args)} failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}")
    return proc


@dataclass
class Result:
    code: int
    out: str
    err: str

    @property
    def text(self) -> str:
        return self.out + self.err


class Harness:
    """Runs `harness` in a repository: in-process by default (fast), or as a real process."""

    def __init__(self, root: Path, capfd) -> None:
        self.root, self.capfd = root, capfd

    def __call__(self, *args: str, cwd: Path | None = None) -> Result:
        from harness.cli.launch import fast_answer
        from harness.cli.main import main

        self.capfd.readouterr()
        old = os.getcwd()
        os.chdir(cwd or self.root)
        try:  # as the entry point runs it: the git-hook calls it answers before the CLI first
            code = fast_answer(list(args))
            if code is None:
                code = main(list(args))
        finally:
            os.chdir(old)
        out, err = self.capfd.readouterr()
        return Result(code, out, err)

    def proc(self, *args: str, cwd: Path | None = None, env: dict | None = None,
             timeout: float = 120) -> Result:
        p = subprocess.run([sys.executable, "-m", "harness", *args], cwd=cwd or self.root, capture_output=True,
                           text=True, env={**os.environ, **(env or {})}, timeout=timeout)
        return Result(p.returncode, p.stdout, p.stderr)

    def ok(self, *args: str) -> Result:
        r = self(*args)
        assert r.code == 0, f"harness {' '.join(args)} exited {r.code}:\n{r.text}"
        return r


class _Buffers:
    """``capfd``'s ``readouterr`` over in-memory streams."""

    def __init__(self) -> None:
        self.out, self.err = io.StringIO(), io.StringIO()

    def readouterr(self) -> tuple[str, str]:
        text = self.out.getvalue(), self.err.getvalue()
        for stream in (self.out, self.err):
            stream.seek(0)
            stream.truncate()
        return text


@contextmanager
def in_process(root: Path) -> Iterator[Harness]:
    """A Harness for code running outside a test (the builds of session templates), with no
    ``capfd``: what the CLI prints goes to buffers while the block runs."""
    buffers = _Buffers()
    with redirect_stdout(buffers.out), redirect_stderr(buffers.err):
        yield Harness(root, buffers)


def cli(repo: Path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    """`harness ARGS` in ``repo``, in this process, with ``stdin`` as standard input, reported as
    a finished process would be. For commands that read only the repository, the environment and
    stdin (hooks, audit): a process of their own adds ~0.3 s (Python, click, pygit2) and proves
    nothing more; tests of what only a process shows (signals, exit paths) start one."""
    old_stdin = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO((stdin or "").encode()), encoding="utf-8")
    try:
        with in_process(repo) as h:
            r = h(*args)
    finally:
        sys.stdin = old_stdin
    return subprocess.CompletedProcess(["harness", *args], r.code, r.out, r.err)


def validate_staged(repo: Path) -> subprocess.CompletedProcess:
    """Stage everything and run the commit hook's check (`harness hook validate`) on it, in this
    process (the e2e tests run it from real git hooks)."""
    git(repo, "add", "-A")
    return cli(repo, "hook", "validate")


def new_repo(root: Path) -> Path:
    """An empty git repository with one commit of source code (the ``repo`` fixture)."""
    root.mkdir()
    git(root, "init", "-q")
    (root / "app.py").write_text("def answer():\n    return 42\n")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "initial")
    return root


def walk_to(h: Harness, *states: str) -> None:
    for state in states:
        h.ok("transition", state)


def gone(pid: int, within: float = 5.0) -> bool:
    """True once ``pid`` no longer runs (missing, or a zombie awaiting its reaper)."""
    deadline = time.monotonic() + within
    while True:
        try:
            with open(f"/proc/{pid}/stat") as f:
                state = f.read().rsplit(")", 1)[1].split()[0]
        except (FileNotFoundError, ProcessLookupError):
            return True
        if state in ("Z", "X"):
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)


def py(code: str) -> tuple[str, ...]:
    return (PY, "-c", textwrap.dedent(code))


def record(repo: Path, tid: str, etype: str) -> dict:
    return json.loads((repo / ".harness/tasks" / tid / "evidence" / f"{etype}.json").read_text("utf-8"))


def log_bytes(repo: Path, tid: str, etype: str) -> bytes:
    return (repo / ".harness/tasks" / tid / "evidence" / f"{etype}.log").read_bytes()


def children_of(pid: int, running: str | None = None) -> list[int]:
    """Child pids of ``pid``; with ``running``, only those whose argv[0] ends with it (exec done)."""
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) != pid:
            continue
        if running is not None:
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as f:
                    argv0 = f.read().split(b"\0")[0].decode(errors="replace")
            except OSError:
                continue
            if not argv0.endswith(running):
                continue
        out.append(int(entry))
    return out


def wait_for(predicate, within: float = 30.0, what: str = "condition"):
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def start_harness(repo: Path, *args: str) -> subprocess.Popen:
    return subprocess.Popen([PY, "-m", "harness", *args], cwd=repo, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=dict(os.environ))


def harness_files(repo: Path) -> list[Path]:
    return [p for p in (repo / ".harness").rglob("*") if p.is_file()]


def set_config(repo: Path, text: str) -> None:
    (repo / ".harness/config.yaml").write_text("version: 1\n" + textwrap.dedent(text))


def tdir(repo: Path, tid: str) -> Path:
    return repo / ".harness" / "tasks" / tid


def ledger_path(repo: Path, tid: str) -> Path:
    return tdir(repo, tid) / "events.jsonl"


def events(repo: Path, tid: str) -> list[dict]:
    # split on "\n" only: str.splitlines() would also split inside text holding U+2028, U+0085, ...
    return [json.loads(line) for line in ledger_path(repo, tid).read_bytes().split(b"\n") if line]


def status_json(h: Harness, *extra: str) -> dict:
    return json.loads(h.ok("status", "--json", *extra).out)


def gate_json(h, *extra: str) -> tuple[int, dict]:
    r = h("gate", "--json", *extra)
    return r.code, json.loads(r.out)


def ledger_bytes(repo: Path, tid: str) -> bytes:
    return (tdir(repo, tid) / "events.jsonl").read_bytes()


def append_event(repo: Path, tid: str, etype: str, data: dict) -> None:
    """A correctly chained, canonical event appended by hand (no harness command)."""
    path = tdir(repo, tid) / "events.jsonl"
    lines = path.read_text("utf-8").splitlines()
    last = json.loads(lines[-1])
    line = encode_event(last["seq"] + 1, last["ts"], etype, data, line_hash(lines[-1]))
    path.write_text("\n".join([*lines, line]) + "\n", "utf-8")


def write_yaml(path: Path, doc) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump(doc, sort_keys=False), "utf-8")
    return path


def outside_env(**extra: str) -> dict[str, str]:
    """os.environ without what a surrounding git process (a hook running this suite) sets to point
    git at its own repository: scratch repositories stay scratch, the project's stays untouched."""
    bending = ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_PREFIX", "GIT_OBJECT_DIRECTORY",
               "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_QUARANTINE_PATH", "GIT_COMMON_DIR")
    return {**{k: v for k, v in os.environ.items() if k not in bending}, **extra}


def project_files() -> list[str]:
    """This project's files (tracked, and untracked-not-ignored; its own .harness/ is not shipped)."""
    out = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z", "--cached", "--others", "--exclude-standard",
                          "--", ".", ":(exclude).harness"],
                         capture_output=True, check=True, env=outside_env()).stdout.decode("utf-8")
    return sorted({p for p in out.split("\0") if p})


def build_hook_repo(base: Path) -> tuple[Path, str]:
    """A committed copy of this project's files: what `repo:` points at in a user's config."""
    dest = base / "hook-repo"
    dest.mkdir()
    for rel in project_files():
        src = ROOT / rel
        if not src.is_file():  # deleted in the work tree, or a submodule
            continue
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, target)
    env = outside_env(**GIT_ENV)
    for args in (["init", "-q"], ["add", "-A"], ["-c", "commit.gpgsign=false", "commit", "-qm", "hook repo"]):
        subprocess.run(["git", *args], cwd=dest, env=env, check=True, capture_output=True)
    sha = subprocess.run(["git", "rev-parse", "HEAD"], cwd=dest, env=env, check=True,
                         capture_output=True, text=True).stdout.strip()
    return dest, sha


def config_text(hook_repo: Path, sha: str) -> str:
    hooks = ["harness-validate", "harness-stamp", "harness-merge-guard", "harness-push-guard",
             "harness-gate", "harness-audit"]
    return (
        f"default_install_hook_types: [{', '.join(STAGES)}]\n"
        "repos:\n"
        f"- repo: {hook_repo}\n"
        f"  rev: {sha}\n"
        "  hooks:\n" + "".join(f"  - id: {h}\n" + ("    verbose: true\n" if h == "harness-push-guard" else "")
                                for h in hooks)
    )


@dataclass
class Pc:
    repo: Path
    remote: Path
    h: Harness
    base: str  # the commit holding `harness init` and .pre-commit-config.yaml


def install_pc(repo: Path, hook_repo: dict) -> None:
    """Write the user's .pre-commit-config.yaml and run `pre-commit install` (nothing committed)."""
    (repo / ".pre-commit-config.yaml").write_text(config_text(hook_repo["path"], hook_repo["sha"]))
    proc = subprocess.run([PY, "-m", "pre_commit", "install"], cwd=repo, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    for stage in STAGES:
        assert (repo / ".git" / "hooks" / stage).exists(), f"pre-commit did not install {stage}"


def head(repo: Path, rev: str = "HEAD") -> str:
    return git(repo, "rev-parse", rev).stdout.strip()


def out(proc: subprocess.CompletedProcess) -> str:
    return (proc.stdout or "") + (proc.stderr or "")


def commit(repo: Path, msg: str, *args: str) -> subprocess.CompletedProcess:
    return git(repo, "commit", "-m", msg, *args, check=False)


def commit_ok(repo: Path, msg: str, *args: str) -> str:
    proc = commit(repo, msg, *args)
    assert proc.returncode == 0, f"commit {msg!r} was refused:\n{out(proc)}"
    return head(repo)


def commit_all_ok(repo: Path, msg: str, *args: str) -> str:
    git(repo, "add", "-A")
    return commit_ok(repo, msg, *args)


def refused_commit(repo: Path, msg: str, *args: str) -> str:
    """Commit, expecting a refusal; returns the output. HEAD must not move."""
    before = head(repo)
    proc = commit(repo, msg, *args)
    assert proc.returncode != 0, f"commit {msg!r} should have been refused:\n{out(proc)}"
    assert head(repo) == before, "a refused commit moved HEAD"
    return out(proc)


def push(repo: Path, *args: str) -> subprocess.CompletedProcess:
    return git(repo, "push", *args, check=False)


def push_ok(repo: Path, *args: str) -> None:
    p = push(repo, *args)
    assert p.returncode == 0, f"git push {' '.join(args)} was refused:\n{out(p)}"


def remote_ref(remote: Path, ref: str) -> str | None:
    p = subprocess.run(["git", "--git-dir", str(remote), "rev-parse", "--verify", "-q", ref],
                       capture_output=True, text=True)
    return p.stdout.strip() if p.returncode == 0 else None


def note(repo: Path, rev: str) -> dict | None:
    p = git(repo, "notes", "--ref", NOTES, "show", rev, check=False)
    return json.loads(p.stdout) if p.returncode == 0 else None


def raw_note(repo: Path, rev: str) -> str | None:
    p = git(repo, "notes", "--ref", NOTES, "show", rev, check=False)
    return p.stdout if p.returncode == 0 else None


def task_dir(repo: Path, tid: str) -> Path:
    return repo / ".harness" / "tasks" / tid


def new_task(h: Harness, title: str = "Add resumable execution") -> str:
    tid = h.ok("task", "new", title).out.strip()
    h.ok("requirement", "add", "Interrupted runs resume", "--priority", "must")
    return tid


def collect_passing_evidence(h: Harness) -> None:
    h.ok("evidence", "build", "--", PY, "-c", "pass")
    h.ok("evidence", "unit_test", "--", PY, "-c", "pass")
    h.ok("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "unit_test")


def gate_to_converged(h: Harness) -> None:
    walk_to(h, "REVIEWING", "GATING")
    r = h("gate", "--advance")
    assert r.code == 0 and "PASS" in r.out, r.text


def gated_done(h: Harness, title: str = "Add resumable execution") -> str:
    """A task walked legitimately to DONE (nothing committed). Returns its id."""
    tid = new_task(h, title)
    walk_to(h, *TO_VERIFYING)
    collect_passing_evidence(h)
    gate_to_converged(h)
    h.ok("transition", "DONE")
    return tid


def set_state_by_hand(repo: Path, tid: str, state: str) -> None:
    path = task_dir(repo, tid) / "task.yaml"
    text = path.read_text("utf-8")
    new, n = re.subn(r"(?m)^(  state: )\S+$", rf"\g<1>{state}", text)
    assert n == 1, text
    path.write_text(new, "utf-8")


def rechain(path: Path, mutate) -> None:
    """Rewrite a ledger: ``mutate(events)`` edits the decoded events in place; every line is then
    re-encoded canonically with its ``prev`` recomputed, so the hash chain is valid again."""
    events = [json.loads(line) for line in path.read_text("utf-8").splitlines()]
    mutate(events)
    prev, lines = "0" * 64, []
    for n, e in enumerate(events, start=1):
        line = encode_event(n, e["ts"], e["type"], e["data"], prev)
        lines.append(line)
        prev = line_hash(line)
    path.write_text("\n".join(lines) + "\n", "utf-8")


def hand_done_no_verify(pc_repo: Path, h: Harness, title: str = "Shortcut") -> tuple[str, str]:
    """A task at IMPLEMENTING whose task.yaml says DONE, committed with --no-verify. (tid, sha)."""
    tid = h.ok("task", "new", title).out.strip()
    walk_to(h, "SPECIFYING", "PLANNED", "IMPLEMENTING")
    set_state_by_hand(pc_repo, tid, "DONE")
    git(pc_repo, "add", "-A")
    return tid, commit_ok(pc_repo, "done (no verify)", "--no-verify")


def write_ledger(repo: Path, tid: str, evs: list[tuple[str, dict]], ts: str = "2025-01-01T00:00:00Z") -> Path:
    """A whole hand-made ledger for task ``tid``, correctly chained."""
    path = tdir(repo, tid) / "events.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    prev, lines = "0" * 64, []
    for seq, (etype, data) in enumerate(evs, start=1):
        lines.append(encode_event(seq, ts, etype, data, prev))
        prev = line_hash(lines[-1])
    path.write_text("".join(f"{line}\n" for line in lines), "utf-8")
    return path


PASS_CMD = [PY, "-c", "pass"]


def configure(repo: Path, build: list[str], unit_test: list[str]) -> None:
    path = repo / ".harness/config.yaml"
    doc = yaml.safe_load(path.read_text("utf-8"))
    doc["evidence"] = {"build": {"command": build}, "unit_test": {"command": unit_test}}
    path.write_text(yaml.safe_dump(doc, sort_keys=False), "utf-8")


def finding(title: str, claim: str, code: str, severity: str = "major") -> dict:
    return {
        "type": "suspected_defect", "severity": severity, "category": "correctness", "title": title,
        "claim": claim, "related_requirements": ["REQ-001"], "location": {"file": "app.py", "line": 6},
        "failure_scenario": ["import app", code], "expected_behavior": "as the contract says",
        "recommended_reproducer": {"type": "unit_test", "description": title, "command": [PY, "-c", code]},
    }


ZERO = "0" * 40  # git's name for "no commit" (a created or deleted ref)


def pushed_to_bare(repo: Path, tmp_path: Path) -> Path:
    commit_all_ok(repo, "harness init")
    bare = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", str(bare))
    git(repo, "remote", "add", "origin", str(bare))
    git(repo, "push", "-q", "-u", "origin", "main")
    return bare


def ci_clone(remote: Path, where: Path, *args: str) -> Path:
    """What a CI job checks out: a fresh clone of the remote after the push."""
    if where.exists():
        git(where, "fetch", "-q", "origin", "+refs/heads/*:refs/remotes/origin/*", "+refs/tags/*:refs/tags/*")
        git(where, "checkout", "-q", "--detach", "origin/main")
        return where
    git(remote.parent, "clone", "-q", *args, f"file://{remote}", str(where))
    return where


def gc_remote(remote: Path) -> None:
    """The server forgets the commits a force push left unreachable."""
    git(remote, "reflog", "expire", "--expire=now", "--all")
    git(remote, "gc", "-q", "--prune=now")


def forged_done_force_pushed(h: Harness, repo: Path, remote: Path, where: Path) -> tuple[str, str, str, Path]:
    """Push honest work, then force-push over it a DONE committed with --no-verify, and let the
    remote forget the old tip: the case where a CI fallback to merge-base(main, HEAD) audits nothing.
    Returns (old tip, forged task id, forged commit, a fresh CI clone)."""
    base = head(repo)
    (repo / "app.py").write_text("def answer():\n    return 1\n")
    old_tip = commit_all_ok(repo, "honest work, later thrown away")
    git(repo, "push", "-q", "origin", "main")
    git(repo, "reset", "-q", "--hard", base)
    tid, forged = hand_done_no_verify(repo, h)
    git(repo, "push", "-q", "--force", "origin", "main")
    gc_remote(remote)
    return old_tip, tid, forged, ci_clone(remote, where)


# Exits 1 while the defect exists (app.answer() returns 42, the finding says it should be 41).
ANSWER_REPRODUCER = [PY, "-c", "import app, sys; print('REPRO-MARKER', app.answer()); sys.exit(0 if app.answer() == 41 else 1)"]


def proposal(**over) -> dict:
    base = {
        "type": "suspected_defect", "severity": "major", "category": "correctness",
        "title": "answer() is off by one",
        "claim": "answer() returns 42 where the requirement says 41",
        "location": {"file": "app.py", "line": 2},
        "failure_scenario": ["import app", "call app.answer()"],
        "expected_behavior": "answer() returns 41",
        "possible_actual_behavior": "answer() returns 42",
        "recommended_reproducer": {"type": "unit_test", "description": "assert the value",
                                   "command": list(ANSWER_REPRODUCER)},
    }
    base.update(over)
    return base


def propose(h, tmp_path: Path, doc, name: str = "findings.yaml"):
    """Write ``doc`` outside the repository and run `harness finding propose --file` on it."""
    return h("finding", "propose", "--file", str(write_yaml(tmp_path / "inbox" / name, doc)))


def run_in_pty(cwd: Path | str, args: list[str], answer: str, timeout: float = 30) -> tuple[int, str]:
    """Run ``python -m harness ARGS`` with a terminal on stdin/stdout, typing ``answer`` at the prompt."""
    pid, fd = pty.fork()
    if pid == 0:  # child: exec with the pty as its terminal
        os.chdir(cwd)
        os.execv(sys.executable, [sys.executable, "-m", "harness", *args])
    out, sent, deadline = b"", False, time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(fd, 4096)
            except OSError:  # EIO: the child closed the terminal
                break
            if not chunk:
                break
            out += chunk
        if not sent and b"type \"approve\"" in out:
            os.write(fd, answer.encode() + b"\r")
            sent = True
    _, status = os.waitpid(pid, 0)
    os.close(fd)
    return os.waitstatus_to_exitcode(status), out.decode("utf-8", "replace")


def collect_all(h: Harness) -> None:
    """Fresh passing build and unit_test evidence."""
    h.ok("evidence", "build", "--", *py("pass"))
    h.ok("evidence", "unit_test", "--", *py("pass"))


def to_gating(h: Harness, verify: bool = True) -> None:
    """A full legal walk: must requirement, VERIFYING, fresh build + unit_test, REVIEWING, GATING."""
    h.ok("requirement", "add", "The answer is 42", "--priority", "must")
    walk_to(h, *TO_VERIFYING)
    collect_all(h)
    if verify:
        h.ok("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "unit_test")
    walk_to(h, "REVIEWING", "GATING")


# -- built once, copied per test ----------------------------------------------------------

def once_per_run(tmp_path_factory, name: str, build: Callable[[Path], dict], owner: str = "") -> tuple[Path, dict]:
    """``build(folder)`` run once per test run; returns (folder, what build returned, through JSON).

    Under pytest-xdist the workers share it (the pattern pytest-xdist documents): the folder is in
    the run's base temp folder, the first worker to take the lock builds, the others wait for it and
    reuse what it built. A build that failed is retried by the next one to ask. ``owner`` names the
    code that builds it: two builders under one name would otherwise share whichever ran first."""
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent  # the run's folder, shared by its workers
    folder, done, owned = base / f"once-{name}", base / f"once-{name}.json", base / f"once-{name}.owner"
    with open(base / f"once-{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.is_file():
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir()
            data = build(folder)
            owned.write_text(owner, "utf-8")
            tmp = done.with_suffix(".tmp")
            tmp.write_text(json.dumps(data), "utf-8")
            tmp.replace(done)
        built_by = owned.read_text("utf-8")
    assert built_by == owner, f"two builders share the name {name!r}: {built_by} and {owner}; rename one"
    return folder, json.loads(done.read_text("utf-8"))


@dataclass(frozen=True)
class Template:
    """A user repository built once per test run and copied into each test that asks for it.

    ``root`` holds ``repo/`` and, when the repository has a remote, the bare ``remote.git/`` it
    pushed to; ``data`` is what its fixtures return besides the repository; ``lineage`` names the
    templates it is built on, then itself."""

    root: Path
    data: dict = field(default_factory=dict)
    lineage: tuple[str, ...] = ()


@contextmanager
def hermetic(home: Path, **env: str) -> Iterator[None]:
    """The environment of a test (see ``hermetic_env``) for code running outside one."""
    with pytest.MonkeyPatch.context() as mp:
        hermetic_env(mp, home)
        for key, value in env.items():
            mp.setenv(key, value)
        yield


def template(tmp_path_factory, name: str, build: Callable[[Path, Harness], dict], on: Template | None = None,
             **env: str) -> Template:
    """The template ``name``: ``build(repo, h)`` run once per test run, in the environment of a test
    (plus ``env``), on a copy of the template ``on`` or else on a fresh ``new_repo``. Its data are
    ``on``'s updated with what ``build`` returns (JSON), and under HOOKS_KEY the git hooks the build
    and ``on``'s started (a test copying it drives them too, see conftest's ``_git_identity``)."""

    def make(folder: Path) -> dict:
        with hermetic(folder / "home", **env):
            repo = materialise(on, folder) if on is not None else new_repo(folder / "repo")
            with in_process(repo) as h:
                data = {**(on.data if on is not None else {}), **build(repo, h)}
        started = [*data.get(HOOKS_KEY, []), *hooks_started(folder / "home")]
        return {**data, HOOKS_KEY: list(dict.fromkeys(started))}

    owner = " on ".join([f"{build.__module__}.{build.__qualname__}", *(on.lineage if on is not None else ())])
    folder, data = once_per_run(tmp_path_factory, f"template-{name}", make, owner)
    return Template(folder, data, (*(on.lineage if on is not None else ()), name))


def copies_naming(root: Path, text: str) -> list[Path]:
    """Files a copy of the template folder ``root`` carries (its repo/ and remote.git/, see
    :func:`materialise`; git's compressed objects aside) whose bytes contain ``text``."""
    needle = text.encode()
    return [p for part in ("repo", "remote.git") for p in sorted((root / part).rglob("*"))
            if p.is_file() and "objects" not in p.parts and needle in p.read_bytes()]


def materialise(tpl: Template, dest: Path) -> Path:
    """A copy of the template's repository (and remote, as ``origin``) in ``dest``; returns the repository."""
    repo = dest / "repo"
    shutil.copytree(tpl.root / "repo", repo, symlinks=True)
    if (tpl.root / "remote.git").is_dir():
        shutil.copytree(tpl.root / "remote.git", dest / "remote.git", symlinks=True)
        git(repo, "remote", "set-url", "origin", str(dest / "remote.git"))
    git(repo, "update-index", "-q", "--refresh", check=False)  # the copies' stat data differ from the index's
    return repo


# -- CI re-runs of a DONE (tests/test_audit.py, tests/test_audit_fanout.py) --------------------------

FAIL_CMD = [PY, "-c", "import sys; sys.exit(1)"]


def forge_passing(repo: Path, tid: str, etype: str) -> None:
    """Rewrite a failed evidence record as passed, consistently in its file and in the ledger
    (digest, outcome, exit code), re-chaining the ledger: what a determined forger would do."""
    folder = task_dir(repo, tid)
    path = folder / "evidence" / f"{etype}.json"
    record = json.loads(path.read_text("utf-8"))
    assert record["outcome"] == "failed" and record["exit_code"] == 1, record
    record.update(outcome="passed", exit_code=0)
    raw = (json.dumps(record, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
    path.write_bytes(raw)

    def mutate(events):
        (event,) = [e for e in events if e["type"] == "evidence.collected" and e["data"]["type"] == etype]
        event["data"].update(outcome="passed", exit_code=0, digest=hashlib.sha256(raw).hexdigest())

    rechain(folder / "events.jsonl", mutate)


def done_with_configured_evidence(h, repo: Path, unit_test: list[str], forge: bool) -> tuple[str, str, str]:
    """Commit config commands, then a task to DONE with evidence from them. (base, tid, done sha)."""
    configure(repo, PASS_CMD, unit_test)
    base = commit_all_ok(repo, "harness init, evidence commands")
    tid = h.ok("task", "new", "Rerun").out.strip()
    h.ok("requirement", "add", "It works", "--priority", "must")
    walk_to(h, *TO_VERIFYING)
    h.ok("evidence", "build")
    r = h("evidence", "unit_test")
    if forge:
        assert r.code == 1, r.text
        forge_passing(repo, tid, "unit_test")
        h.ok("replay", "--write")  # re-render task.yaml from the forged ledger
        r = h("replay")
        assert r.code == 0, r.text  # the forgery is consistent: the ledger replays cleanly
    else:
        assert r.code == 0, r.text
    h.ok("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "unit_test")
    gate_to_converged(h)
    h.ok("transition", "DONE")
    done = commit_all_ok(repo, "done")
    return base, tid, done
