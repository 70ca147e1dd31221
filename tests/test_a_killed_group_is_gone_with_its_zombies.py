"""The suite's check that a killed command's process group is gone (support.processes.group_gone) counts a zombie
awaiting its reaper as gone and a running process as not: `os.killpg(pgid, 0)` reaches zombies too, and a test
that asked it failed whenever the reaper was slow (F-0113)."""

from __future__ import annotations

import signal
import subprocess
import time

from support import processes


def test_a_group_whose_only_process_is_a_zombie_is_gone() -> None:
    proc = subprocess.Popen(["sh", "-c", "exit 0"], start_new_session=True)
    try:
        while not processes.gone(proc.pid):  # exited, and not waited for: a zombie leading its group
            time.sleep(0.02)
        assert processes.group_gone(proc.pid)
    finally:
        proc.wait()


def test_a_group_with_a_running_process_is_not_gone() -> None:
    proc = subprocess.Popen(["sleep", "30"], start_new_session=True)
    try:
        assert not processes.group_gone(proc.pid, within=0.2)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
