"""The store under stress: concurrent processes, SIGKILL mid-write, interrupted commands,
malformed files, running outside a repository, and what `harness status` imports."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from harness.core import ledger

from support.cli import Harness, walk_to
from support.gitrepo import git
from support.records import crash_after_the_commit_point, tdir

CLI = [sys.executable, "-m", "harness"]


def check_store_is_whole(repo: Path, tid: str) -> ledger.Projection:
    """Every YAML file parses, the ledger parses and replays; returns the projection."""
    folder = tdir(repo, tid)
    for name in ("task.yaml", "requirements.yaml", "invariants.yaml"):
        raw = (folder / name).read_bytes()
        doc = yaml.safe_load(raw)
        assert isinstance(doc, dict), f"{name} is not a whole document: {raw[-200:]!r}"
    for name in (".harness/config.yaml", ".harness/gate.yaml"):
        assert isinstance(yaml.safe_load((repo / name).read_bytes()), dict), name
    raw = (folder / "events.jsonl").read_bytes()
    parsed = ledger.parse_lines(raw, "events.jsonl")  # raises on a torn line or a broken chain
    return ledger.replay([e for _, e in parsed])


def requirement_ids(repo: Path, tid: str) -> list[str]:
    doc = yaml.safe_load((tdir(repo, tid) / "requirements.yaml").read_text())
    return [r["id"] for r in doc["requirements"]]


# -- concurrency --------------------------------------------------------------------------

def test_eight_concurrent_requirement_adds_serialize_on_the_lock(h, repo, task):
    procs = [subprocess.Popen([*CLI, "requirement", "add", f"Concurrent requirement {i}", "--priority", "should"],
                              cwd=repo, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for i in range(8)]
    results = []
    for p in procs:  # all eight were started before any is waited for
        out, err = p.communicate(timeout=120)
        results.append((p.returncode, out, err))
    assert [code for code, _, _ in results] == [0] * 8, results
    printed = sorted(out.strip() for _, out, _ in results)
    expected = [f"REQ-{n:03d}" for n in range(1, 9)]
    assert printed == expected
    assert sorted(requirement_ids(repo, task)) == expected
    proj = check_store_is_whole(repo, task)
    added = [e for _, e in ledger.parse_lines((tdir(repo, task) / "events.jsonl").read_bytes(), "x")
             if e["type"] == "requirement.added"]
    assert len(added) == 8 and sorted(e["data"]["id"] for e in added) == expected
    assert sorted(e["data"]["statement"] for e in added) == sorted(f"Concurrent requirement {i}" for i in range(8))
    assert len(proj.requirements) == 8
    r = h.proc("replay")
    assert r.code == 0, r.text


# -- SIGKILL in the middle of a write -----------------------------------------------------

# Runs each command it reads (a JSON argv line) as a process of its own, forked from this one
# after the CLI is imported: the command's life is then the command itself, not ~0.2 s of
# imports that write nothing (kills landing there proved nothing). Prints the child's pid, and
# its exit code once told to reap it (a killed child waits as a zombie until then, so its pid
# cannot be reused under the kill).
FORKER = """
import json, os, sys
from harness.cli.main import main
import harness.cli.items, jsonschema  # what the command imports: once, before the forks
devnull = os.open(os.devnull, os.O_RDWR)
print("ready", flush=True)
for line in sys.stdin:
    argv = json.loads(line)
    pid = os.fork()
    if pid == 0:
        code = 70
        try:
            os.dup2(devnull, 1)
            os.dup2(devnull, 2)
            code = main(argv)
        finally:
            os._exit(code)
    print(pid, flush=True)
    sys.stdin.readline()
    print(os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]), flush=True)
"""


def test_sigkill_during_writes_never_leaves_a_torn_file(h, repo, task):
    rng = random.Random(20240607)
    forker = subprocess.Popen([sys.executable, "-c", FORKER], cwd=repo, stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)

    def start(*argv: str) -> int:
        forker.stdin.write(json.dumps(argv) + "\n")
        forker.stdin.flush()
        return int(forker.stdout.readline())

    def reap() -> int:
        forker.stdin.write("reap\n")
        forker.stdin.flush()
        return int(forker.stdout.readline())

    try:
        assert forker.stdout.readline() == "ready\n"
        # Measure one uncontested run so the kills land across the whole life of a command.
        t0 = time.monotonic()
        start("requirement", "add", "warm-up", "--priority", "could")
        assert reap() == 0
        lifetime = time.monotonic() - t0
        window = max(0.03, lifetime * 1.2)
        completed = 0
        for i in range(30):
            pid = start("requirement", "add", f"killed {i} " + "x" * 2000, "--priority", "must")
            time.sleep(rng.uniform(0, window))
            os.kill(pid, signal.SIGKILL)  # a zombie if it finished: it waits for reap() below
            completed += reap() == 0
            # The files on disk are whole after every kill, before any recovery ran.
            proj = check_store_is_whole(repo, task)
            # requirements.yaml holds at most one extra requirement: the one whose renames were cut short.
            on_disk = requirement_ids(repo, task)
            assert len(on_disk) - len(proj.requirements) in (0, 1, -1), (on_disk, list(proj.requirements))
    finally:
        forker.kill()
        forker.wait()
    r = h.proc("replay")
    assert r.code == 0, r.text
    proj = check_store_is_whole(repo, task)
    assert sorted(requirement_ids(repo, task)) == sorted(proj.requirements)
    assert list(proj.requirements) == [f"REQ-{n:03d}" for n in range(1, len(proj.requirements) + 1)]
    assert not (repo / ".harness" / "local" / "journal").exists()
    # The store still accepts writes.
    assert h.proc("requirement", "add", "after the storm", "--priority", "must").code == 0
    assert h.proc("replay").code == 0
    # and a killed writer's temp files do not stay behind in the (tracked) task folder
    litter = [str(p.relative_to(repo)) for p in tdir(repo, task).rglob("*.tmp")]
    assert litter == [], litter
    assert completed < 30, "no process was killed before it finished: the test proved nothing"


def test_an_interrupted_write_leaves_the_repository_as_it_was(h, repo, task, monkeypatch):
    """Ctrl-C between writing the new files and the commit point: nothing changes, nothing is left behind."""
    from harness.store import fsio

    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "task")
    real = fsio.atomic_write

    def interrupted(dest, data):
        if dest.name == "journal":
            raise KeyboardInterrupt
        return real(dest, data)

    monkeypatch.setattr(fsio, "atomic_write", interrupted)
    r = h("requirement", "add", "never recorded", "--priority", "must")
    monkeypatch.setattr(fsio, "atomic_write", real)
    assert r.code == 130, r.text
    porcelain = git(repo, "status", "--porcelain", "--untracked-files=all").stdout
    assert porcelain == "", f"an interrupted command left files behind:\n{porcelain}"
    h.ok("replay")


def test_a_crash_after_the_commit_point_is_rolled_forward_by_the_next_command(h, repo, task, monkeypatch):
    crash_after_the_commit_point(monkeypatch)
    r = h("requirement", "add", "committed but not renamed", "--priority", "must")
    monkeypatch.undo()
    assert r.code == 130
    assert (repo / ".harness" / "local" / "journal").exists()
    h.ok("status")  # any command finishes the promised renames
    assert not (repo / ".harness" / "local" / "journal").exists()
    assert requirement_ids(repo, task) == ["REQ-001"]
    h.ok("replay")


# -- malformed input ----------------------------------------------------------------------

def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, (old, text)
    path.write_text(text.replace(old, new, 1))


TASK_FILE_CASES = {
    # name: (file, old, new, what the message must contain besides the file name)
    "task malformed yaml": ("task.yaml", "  state: CREATED\n", "  state: [CREATED\n", ["malformed YAML"]),
    "task wrong enum": ("task.yaml", "state: CREATED", "state: FINISHED", ["task.state", "FINISHED"]),
    "task unknown field": ("task.yaml", "  iteration: 0\n", "  iteration: 0\n  priority: high\n",
                           ["unknown field", "priority"]),
    "task wrong type": ("task.yaml", "iteration: 0", "iteration: zero", ["task.iteration", "zero"]),
    "requirements malformed yaml": ("requirements.yaml", "- id: REQ-001", "- id: REQ-001\n\t bad: [", ["YAML"]),
    "requirements wrong enum": ("requirements.yaml", "priority: must", "priority: urgent",
                                ["requirements[0].priority", "urgent"]),
    "requirements unknown field": ("requirements.yaml", "  priority: must\n", "  priority: must\n  owner: me\n",
                                   ["unknown field", "owner"]),
    "invariants wrong enum": ("invariants.yaml", "severity: major", "severity: huge",
                              ["invariants[0].severity", "huge"]),
    "invariants unknown field": ("invariants.yaml", "  severity: major\n", "  severity: major\n  owner: me\n",
                                 ["unknown field", "owner"]),
}


@pytest.mark.parametrize("case", list(TASK_FILE_CASES))
@pytest.mark.parametrize("command", ["replay", "status"])
def test_bad_task_files_exit_2_naming_file_and_field(h, repo, task, case, command):
    h.ok("requirement", "add", "Resume", "--priority", "must")
    h.ok("invariant", "add", "Never lose data", "--category", "recovery", "--severity", "major")
    name, old, new, needles = TASK_FILE_CASES[case]
    edit(tdir(repo, task) / name, old, new)
    r = h(command)
    assert r.code == 2, r.text
    assert f".harness/tasks/{task}/{name}" in r.text
    for needle in needles:
        assert needle in r.text, (needle, r.text)
    assert "Traceback" not in r.text


def test_malformed_yaml_names_the_line(h, repo, task):
    edit(tdir(repo, task) / "task.yaml", "  state: CREATED\n", "  state: [CREATED\n")
    r = h("replay")
    assert r.code == 2
    assert f".harness/tasks/{task}/task.yaml:" in r.text  # file:line:col


def test_replay_write_repairs_a_malformed_task_yaml(h, repo, task):
    edit(tdir(repo, task) / "task.yaml", "  state: CREATED\n", "  state: [CREATED\n")
    assert h("replay").code == 2
    h.ok("replay", "--write")
    h.ok("replay")
    assert yaml.safe_load((tdir(repo, task) / "task.yaml").read_text())["task"]["state"] == "CREATED"


SETTINGS_CASES = {
    "gate malformed yaml": ("gate.yaml", "  requirements:\n", "  requirements: [\n", ["malformed YAML"]),
    "gate wrong enum": ("gate.yaml", "build: required", "build: mandatory",
                        ["gate.verification.build", "mandatory"]),
    "gate unknown field": ("gate.yaml", "  convergence:\n", "  strictness: 11\n  convergence:\n",
                           ["unknown field", "strictness"]),
    "config malformed yaml": ("config.yaml", "version: 1\n", "version: 1\n  : : [\n", ["malformed YAML"]),
    "config wrong enum": ("config.yaml", "evidence: {}", "evidence: {unit_tests: {command: pytest}}",
                          ["evidence", "unit_tests"]),
    "config unknown field": ("config.yaml", "version: 1\n", "version: 1\ncolour: blue\n",
                             ["unknown field", "colour"]),
}


@pytest.mark.parametrize("case", list(SETTINGS_CASES))
def test_bad_settings_make_status_exit_2_naming_file_and_field(h, repo, task, case):
    name, old, new, needles = SETTINGS_CASES[case]
    edit(repo / ".harness" / name, old, new)
    r = h("status")
    assert r.code == 2, f"status exited {r.code} with .harness/{name} invalid:\n{r.text}"
    assert f".harness/{name}" in r.text
    for needle in needles:
        assert needle in r.text, (needle, r.text)
    assert "Traceback" not in r.text


@pytest.mark.parametrize("case", [c for c in SETTINGS_CASES if c.startswith("gate")])
def test_bad_gate_yaml_is_refused_by_the_commands_that_use_it(h, repo, task, case):
    name, old, new, needles = SETTINGS_CASES[case]
    edit(repo / ".harness" / name, old, new)
    walk_to(h, "SPECIFYING", "PLANNED", "IMPLEMENTING", "VERIFYING", "REVIEWING", "GATING")
    for args in (("gate",), ("task", "new", "another")):
        r = h(*args)
        assert r.code == 2, (args, r.text)
        assert ".harness/gate.yaml" in r.text and all(n in r.text for n in needles), r.text
        assert "Traceback" not in r.text


@pytest.mark.parametrize("case", [c for c in SETTINGS_CASES if c.startswith("config")])
def test_bad_config_yaml_is_refused_by_evidence(h, repo, task, case):
    name, old, new, needles = SETTINGS_CASES[case]
    edit(repo / ".harness" / name, old, new)
    r = h("evidence", "build", "--", sys.executable, "-c", "pass")
    assert r.code == 2, r.text
    assert ".harness/config.yaml" in r.text and all(n in r.text for n in needles), r.text
    assert "Traceback" not in r.text


def test_a_corrupt_ledger_makes_status_exit_2(h, repo, task):
    path = tdir(repo, task) / "events.jsonl"
    path.write_bytes(path.read_bytes() + b'{"half": ')
    r = h("status")
    assert r.code == 2 and "events.jsonl" in r.text and "Traceback" not in r.text


def test_a_non_utf8_argument_is_a_usage_error_not_a_traceback(h, repo, task):
    before = (tdir(repo, task) / "events.jsonl").read_bytes()
    for args in ([b"requirement", b"add", b"caf\xe9 latin-1 statement", b"--priority", b"must"],
                 [b"task", b"new", b"r\xe9sum\xe9"]):
        p = subprocess.run([sys.executable.encode(), b"-m", b"harness", *args], cwd=repo, capture_output=True,
                           timeout=60)
        text = (p.stdout + p.stderr).decode("utf-8", "replace")
        assert p.returncode == 2, (args, text)
        assert "Traceback" not in text, text
    assert (tdir(repo, task) / "events.jsonl").read_bytes() == before
    assert [p.name for p in (repo / ".harness" / "tasks").iterdir()] == [task]


def test_files_written_by_harness_respect_the_umask(repo, capfd):
    old = os.umask(0o022)
    try:
        harness = Harness(repo, capfd)
        harness.ok("init")
        tid = harness.ok("task", "new", "Permissions").out.strip()
        harness.ok("requirement", "add", "r", "--priority", "must")
    finally:
        os.umask(old)
    for path in (repo / ".harness" / "config.yaml", repo / ".harness" / "gate.yaml",
                 repo / ".harness" / ".gitignore", *(tdir(repo, tid) / n for n in
                 ("task.yaml", "requirements.yaml", "invariants.yaml", "events.jsonl"))):
        mode = path.stat().st_mode & 0o777
        assert mode == 0o644, f"{path.relative_to(repo)} has mode {oct(mode)}, expected 0o644 under umask 022"


# -- outside a repository -----------------------------------------------------------------

def test_status_in_a_git_repo_without_init_says_to_run_init(repo, capfd):
    r = Harness(repo, capfd)("status")
    assert r.code == 2, r.text
    assert "harness init" in r.text and "Traceback" not in r.text
    assert not (repo / ".harness").exists()


def test_status_outside_a_git_repo_says_so(tmp_path, capfd):
    plain = tmp_path / "not-a-repo"
    plain.mkdir()
    r = Harness(plain, capfd)("status")
    assert r.code == 2, r.text
    assert "not inside a git work tree" in r.text and "Traceback" not in r.text


def test_user_errors_in_a_real_process_have_no_traceback(tmp_path, repo, capfd):
    plain = tmp_path / "elsewhere"
    plain.mkdir()
    harness = Harness(repo, capfd)
    for args, cwd, code in ((("status",), plain, 2), (("status",), repo, 2), (("init",), plain, 2),
                            (("transition", "NOWHERE"), repo, 2), (("no-such-command",), repo, 2)):
        r = harness.proc(*args, cwd=cwd)
        assert r.code == code, (args, r.text)
        assert "Traceback" not in r.text and r.err.strip(), (args, r.text)


def test_the_current_task_in_a_subdirectory(h, repo, task):
    sub = repo / "pkg" / "deep"
    sub.mkdir(parents=True)
    r = h("status", "--json", cwd=sub)
    assert r.code == 0 and json.loads(r.out)["task"]["id"] == task


# -- `harness status` stays light ---------------------------------------------------------

def test_status_does_not_import_pygit2_or_jsonschema_on_an_unchanged_store(h, repo, task):
    h.ok("requirement", "add", "Resume", "--priority", "must")
    walk_to(h, "SPECIFYING")
    env = {"PYTHONDONTWRITEBYTECODE": "1"}
    runs = []
    for _ in range(2):
        p = subprocess.run([sys.executable, "-X", "importtime", "-m", "harness", "status"], cwd=repo,
                           capture_output=True, text=True, env={**os.environ, **env}, timeout=120)
        assert p.returncode == 0, p.stderr
        runs.append(p)
    assert "import time:" in runs[1].stderr  # -X importtime did report
    heavy = [line for line in runs[1].stderr.splitlines()
             if line.startswith("import time:") and ("pygit2" in line or "jsonschema" in line)]
    assert heavy == [], "\n".join(heavy)
    assert "SPECIFYING" in runs[1].stdout


# -- writing only what changes ----------------------------------------------------------

def _identity(path: Path) -> tuple[int, int]:
    st = path.stat()
    return st.st_ino, st.st_mtime_ns


def test_a_transition_replaces_the_files_it_changes_and_leaves_the_others_as_they_were(h, task, repo):
    h.ok("requirement", "add", "Interrupted runs resume", "--priority", "must")
    folder = tdir(repo, task)
    before = {name: _identity(folder / name) for name in ("task.yaml", "requirements.yaml", "invariants.yaml",
                                                          "events.jsonl")}
    h.ok("transition", "SPECIFYING")
    after = {name: _identity(folder / name) for name in before}
    assert after["requirements.yaml"] == before["requirements.yaml"]  # same bytes: not written again
    assert after["invariants.yaml"] == before["invariants.yaml"]
    assert after["task.yaml"] != before["task.yaml"] and after["events.jsonl"] != before["events.jsonl"]
    assert "state: SPECIFYING" in (folder / "task.yaml").read_text("utf-8")
    assert h.ok("replay").code == 0


def test_a_hand_edit_of_the_same_length_is_still_rewritten_by_replay_write(h, task, repo):
    walk_to(h, "SPECIFYING", "PLANNED")
    path = tdir(repo, task) / "task.yaml"
    honest = path.read_bytes()
    forged = honest.replace(b"state: PLANNED", b"state: BLOCKED")  # as many bytes, other content
    assert forged != honest and len(forged) == len(honest)
    path.write_bytes(forged)
    assert h("replay").code != 0
    h.ok("replay", "--write")
    assert path.read_bytes() == honest
