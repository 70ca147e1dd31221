"""A malformed evidence command is refused before a run is prepared, and a signal to the harness ends the command with it and records the run as interrupted (a hangup ignored as under nohup stays ignored)."""

from __future__ import annotations

import os
import signal
import subprocess

import pytest

from support.cli import start_harness
from support.paths import PY
from support.processes import children_of, gone, wait_for
from support.records import events, record


@pytest.mark.parametrize("args", [("--", ""), ("--shell", "--", "  ")])
def test_malformed_command_is_refused_before_a_run_is_prepared(h, repo, task, args):
    before = events(repo, task)
    r = h("evidence", "build", *args)
    assert r.code == 2
    assert "empty or malformed command" in r.err
    assert events(repo, task) == before
    assert "UNKNOWN" not in h.ok("status").out


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP])
def test_sigterm_or_sighup_to_the_harness_kills_the_command_and_records_interrupted(h, repo, task, sig):
    proc = start_harness(repo, "evidence", "unit_test", "--", "sleep", "30")
    sleepers: list[int] = []
    try:
        wait_for(lambda: any(e["type"] == "evidence.prepared" for e in events(repo, task)),
                 what="evidence.prepared")
        sleepers = wait_for(lambda: children_of(proc.pid, "sleep"), what="the command to start")
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        leftover = [p for p in sleepers if not gone(p, within=0)]
        for pid in leftover:
            os.kill(pid, signal.SIGKILL)
    assert proc.returncode == 130, (out, err)
    assert leftover == [], "the command outlived the harness"
    for pgid in sleepers:  # the command led its own group (own session): all of it is gone
        with pytest.raises(ProcessLookupError):
            os.killpg(pgid, 0)
    rec = record(repo, task, "unit_test")
    assert rec["outcome"] == "interrupted" and rec["error"] == f"interrupted by {sig.name}"
    assert events(repo, task)[-1]["type"] == "evidence.collected"


def test_a_hangup_ignored_as_under_nohup_stays_ignored_and_the_run_completes(h, repo, task):
    proc = subprocess.Popen([PY, "-m", "harness", "evidence", "unit_test", "--", "sleep", "0.6"], cwd=repo,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=lambda: signal.signal(signal.SIGHUP, signal.SIG_IGN))
    try:
        wait_for(lambda: children_of(proc.pid, "sleep"), what="the command to start")
        proc.send_signal(signal.SIGHUP)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, (out, err)
    assert record(repo, task, "unit_test")["outcome"] == "passed"
