"""F-0370: `git clean -fdX` (or `rm -rf .harness/local`) under a running writer must not let a second writer
in: the store's lock is held on what cleaning cannot remove (the `.harness` folder itself) as well as on its
lock file, and a lock file replaced while a process waited for it is not trusted: it takes the new one."""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys

import pytest

from harness.errors import HarnessError
from harness.store import fsio

from support.gitrepo import git
from support.records import events

# Writer A: a real `requirement add`, paused under the store's lock with its ledger read, just before it writes.
PAUSED_WRITER = """
import sys
from harness.store import fsio
from harness.cli.main import main
real = fsio.commit_files
def paused(journal, files):
    print("held", flush=True)
    sys.stdin.readline()
    return real(journal, files)
fsio.commit_files = paused
sys.exit(main(["requirement", "add", "from A", "--priority", "must"]))
"""


def statements(repo, task) -> list[str]:
    return [e["data"]["statement"] for e in events(repo, task) if e["type"] == "requirement.added"]


@pytest.mark.parametrize("clean", ["git clean -fdX", "rm -rf .harness/local"])
def test_cleaning_local_under_a_writer_lets_no_second_writer_in(h, repo, task, clean):
    h.ok("requirement", "add", "r1", "--priority", "must")
    a = subprocess.Popen([sys.executable, "-c", PAUSED_WRITER], cwd=repo, stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    b = None
    try:
        assert a.stdout.readline().strip() == "held"
        if clean.startswith("git"):
            git(repo, "clean", "-fdXq")
        else:
            shutil.rmtree(repo / ".harness" / "local")
        assert not (repo / ".harness" / "local" / "lock").exists()
        b = subprocess.Popen([sys.executable, "-m", "harness", "requirement", "add", "from B", "--priority", "must"],
                             cwd=repo, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        notice = b.stderr.readline()  # B says it waits (after 2 s), or ends having written beside A
        a.stdin.write("go\n")
        a.stdin.flush()
        a_out, a_err = a.communicate(timeout=120)
        b_out, b_err = b.communicate(timeout=120)
    finally:
        for p in (a, b):
            if p is not None and p.poll() is None:
                p.kill()
                p.wait(10)
    assert a.returncode == 0 and b.returncode == 0, (a_err, notice + b_err)
    assert sorted(statements(repo, task)) == ["from A", "from B", "r1"], (a_out, b_out)
    assert "waiting for the lock" in notice, notice + b_err
    h.ok("replay")


def test_a_writer_still_works_after_local_was_removed(h, repo, task):
    # The neighbour: with nobody holding the lock, cleaning costs nothing but the caches.
    shutil.rmtree(repo / ".harness" / "local")
    h.ok("requirement", "add", "after the clean", "--priority", "must")
    h.ok("status")
    assert statements(repo, task) == ["after the clean"]


def test_a_lock_file_replaced_while_waited_for_is_not_trusted(tmp_path, monkeypatch):
    lock = tmp_path / "local" / "lock"
    lock.parent.mkdir()
    real, taken = fsio._open_lock, []

    def opened_then_replaced(path, *args):
        fd = real(path, *args)
        if not taken:  # the file this process opened is removed; another makes a new one and takes it
            path.unlink()
            other = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
            fcntl.flock(other, fcntl.LOCK_EX)
            taken.append(other)
        return fd

    monkeypatch.setattr(fsio, "_open_lock", opened_then_replaced)
    monkeypatch.setenv("HARNESS_LOCK_TIMEOUT", "0.2")
    try:
        with pytest.raises(HarnessError, match=r"gave up after 0\.2s waiting for the harness lock"), fsio.locked(lock):
            pass
    finally:
        for fd in taken:
            os.close(fd)
    with fsio.locked(lock):  # once the new file's holder is gone, it is taken at once
        pass
