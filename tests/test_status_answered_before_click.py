"""`harness status` is answered by the launcher before click loads (harness.cli.status_fast): each
case runs `harness status` as a process both ways — through the entry point (the fast path) and
through the click command alone (harness.cli.main.main, which the fast path must not differ from)
— and compares stdout, stderr and the exit code byte for byte."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from support.paths import PY

FAST = [PY, "-m", "harness"]  # the console script's entry(): the launcher answers first
FULL = [PY, "-c", "import sys; from harness.cli.main import main; sys.exit(main())"]  # click, no launcher
FORMS = [["status"], ["status", "--json"]]


def both(cwd: Path, args: list[str], **env: str) -> tuple[tuple[int, bytes, bytes], tuple[int, bytes, bytes]]:
    def run(prefix: list[str]) -> tuple[int, bytes, bytes]:
        p = subprocess.run([*prefix, *args], cwd=cwd, capture_output=True, env={**os.environ, **env}, timeout=120)
        return p.returncode, p.stdout, p.stderr

    return run(FAST), run(FULL)


def assert_same(cwd: Path, args: list[str], **env: str) -> tuple[int, bytes, bytes]:
    fast, full = both(cwd, args, **env)
    assert fast == full, f"harness {' '.join(args)}:\nfast path {fast!r}\nclick     {full!r}"
    return fast


@pytest.mark.parametrize("args", FORMS, ids=" ".join)
def test_status_without_harness_folder_is_refused_alike(repo, args):
    code, _, err = assert_same(repo, args)
    assert code != 0 and err.startswith(b"harness: ")


def test_status_outside_a_git_repository_is_refused_alike(tmp_path):
    code, _, err = assert_same(tmp_path, ["status"])
    assert code != 0 and err.startswith(b"harness: ")


@pytest.mark.parametrize("args", FORMS, ids=" ".join)
def test_status_with_no_task_yet_prints_alike(h, repo, args):
    code, out, _ = assert_same(repo, args)
    assert code == 0 and out


@pytest.mark.parametrize("args", FORMS, ids=" ".join)
def test_status_of_the_current_task_prints_alike(h, repo, task, args):
    code, out, _ = assert_same(repo, args)
    assert code == 0 and task.encode() in out


def test_status_of_fifty_tasks_prints_alike(h, repo):
    for i in range(50):
        h.ok("task", "new", f"task {i}")
    for args in FORMS:
        assert_same(repo, args)
    (repo / ".harness" / "local" / "current").unlink()  # open tasks, none chosen: a refusal
    for args in FORMS:
        code, _, err = assert_same(repo, args)
        assert code != 0 and err


def test_status_of_a_named_task_and_of_an_unknown_one_prints_alike(h, repo, task):
    h.ok("task", "new", "Another task")  # now the current one: --task names the other
    for args in (["status", "--task", task], ["status", f"--task={task}", "--json"]):
        code, out, _ = assert_same(repo, args)
        assert code == 0 and task.encode() in out
    for args in (["status", "--task", "TASK-20200101-abcdef"], ["status", "--json", "--task", "TASK-20200101-abcdef"]):
        code, _, err = assert_same(repo, args)
        assert code != 0 and b"TASK-20200101-abcdef" in err


def test_status_with_evidence_fresh_then_stale_prints_alike(h, repo, task):
    h.ok("evidence", "custom", "--", "true")
    assert b"FRESH" in assert_same(repo, ["status"])[1]
    (repo / "README.md").write_text("changed\n")
    code, out, _ = assert_same(repo, ["status"])
    assert b"STALE" in out and b"README.md" in out
    assert_same(repo, ["status", "--json"])


def test_status_of_a_hand_edited_task_file_warns_alike(h, repo, task):
    path = repo / ".harness" / "tasks" / task / "task.yaml"
    path.write_text(path.read_text().replace("state: CREATED", "state: VERIFYING"))
    code, _, err = assert_same(repo, ["status"])
    assert code == 0 and err.startswith(b"WARNING: ") and b"VERIFYING" in err


def test_status_of_a_title_with_an_escape_code_prints_alike(h, repo):
    h.ok("task", "new", "red \x1b[31mtitle\x1b[0m")
    code, out, _ = assert_same(repo, ["status"])
    assert code == 0 and b"\x1b" not in out  # click strips escape codes from what is no terminal


@pytest.mark.parametrize("encoding", ["ascii", "latin-1"])
def test_status_under_a_narrow_encoding_prints_alike(h, repo, task, encoding):
    code, out, _ = assert_same(repo, ["status"], PYTHONIOENCODING=encoding)
    assert code == 0 and "—".encode() not in out


def test_status_forms_the_fast_path_leaves_to_click_print_alike(h, repo, task):
    for args in (["status", "--help"], ["status", "--bogus"], ["status", "--task"], ["status", "--task", "--json"],
                 ["status", "--json", "--json"], ["status", "extra"]):
        assert_same(repo, args)


def test_status_in_a_subfolder_prints_alike(h, repo, task):
    sub = repo / "src" / "deep"
    sub.mkdir(parents=True)
    code, out, _ = assert_same(sub, ["status"])
    assert code == 0 and task.encode() in out
