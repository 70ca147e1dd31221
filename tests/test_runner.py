"""harness.runner against real subprocesses (``sys.executable -c ...``)."""

from __future__ import annotations

import contextlib
import os
import random
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from harness import runner
from harness.errors import HarnessError
from harness.runner import Capture, run_command

from support.processes import children_of, gone, group_gone, writer_read_apart

PY = sys.executable


def py(code: str) -> list[str]:
    return [PY, "-c", textwrap.dedent(code)]


def pids(result) -> list[int]:
    return [int(x) for x in result.stdout.head.split()]


# Prints its own pid and a grandchild's pid, then sleeps; MARKER (argv[1]) says "ready".
FAMILY = """
    import os, subprocess, sys, time
    gc = subprocess.Popen(["sleep", "60"])
    print(os.getpid(), gc.pid, flush=True)
    if len(sys.argv) > 1:
        open(sys.argv[1], "w").close()
    time.sleep(60)
"""


def test_exit_zero_passes():
    r = run_command(py("print('hi')"), echo=False)
    assert (r.outcome, r.exit_code, r.error) == ("passed", 0, None)
    assert r.stdout == Capture(b"hi\n", b"", 3) and not r.stdout.truncated
    assert r.finished_at >= r.started_at and r.duration_s >= 0


@pytest.mark.parametrize("code", [1, 3, 255])
def test_nonzero_exit_fails_and_keeps_code(code):
    r = run_command(py(f"import sys; sys.exit({code})"), echo=False)
    assert (r.outcome, r.exit_code, r.error) == ("failed", code, None)


def test_streams_separate_and_interleaved_in_combined(tmp_path):
    (tmp_path / "parts.json").write_text('[[0, "o1 "], [1, "e1 "], [0, "o2 "], [1, "e2"]]')
    r = run_command(writer_read_apart(tmp_path / "parts.json"), echo=False)
    assert r.stdout.head == b"o1 o2 "
    assert r.stderr.head == b"e1 e2"
    assert r.combined.head == b"o1 e1 o2 e2"
    assert r.combined.total_bytes == r.stdout.total_bytes + r.stderr.total_bytes


def test_50mb_output_is_capped_to_a_head_and_a_tail_and_counted_whole():
    # How long this takes, against piping the same output to /dev/null: `bash bench/run --only output`.
    r = run_command(py("import sys; sys.stdout.buffer.write(b'x' * 50_000_000)"), echo=False)
    assert r.outcome == "passed"
    assert len(r.stdout.head) == 4 * 1024 * 1024
    assert len(r.stdout.tail) == 256 * 1024
    assert r.stdout.total_bytes == 50_000_000
    assert r.stdout.truncated
    assert r.combined.total_bytes == 50_000_000 and r.combined.truncated
    assert r.stderr == Capture(b"", b"", 0)


def test_head_and_tail_hold_the_right_bytes():
    # Many small writes exercise the ring buffer across chunk boundaries.
    r = run_command(py("""
        import sys
        for i in range(20000):
            sys.stdout.buffer.write(b"%06d\\n" % i); sys.stdout.flush()
    """), head_cap=1000, tail_cap=777, echo=False)
    data = b"".join(b"%06d\n" % i for i in range(20000))
    assert r.stdout.head == data[:1000]
    assert r.stdout.tail == data[-777:]
    assert r.stdout.total_bytes == len(data) and r.stdout.truncated


@pytest.mark.parametrize("head_cap, tail_cap", [(0, 0), (0, 5), (5, 0), (7, 3), (3, 64), (100, 100)])
def test_bounded_buffer_matches_reference_for_any_chunking(head_cap, tail_cap):
    rng = random.Random(head_cap * 1000 + tail_cap)
    buf, data = runner._Bounded(head_cap, tail_cap), b""
    for _ in range(300):
        chunk = bytes(rng.randrange(256) for _ in range(rng.choice([0, 1, 2, 5, 50, 200])))
        buf.add(chunk)
        data += chunk
        assert len(buf.head) <= head_cap and len(buf.ring) <= tail_cap + runner.TAIL_LEAD
        cap = buf.freeze()
        assert cap.head == data[:head_cap]
        rest = data[len(cap.head):]
        assert cap.tail == (rest[-tail_cap:] if tail_cap else b"")
        # the bytes just before the tail that neither part kept (F-0123): read with the tail's first words only
        gap = rest[:len(rest) - len(cap.tail)]
        assert cap.before_tail == (gap[-runner.TAIL_LEAD:] if tail_cap else b"")
        assert cap.total_bytes == len(data)
        assert cap.truncated == (len(data) > head_cap + tail_cap)


def test_small_output_not_truncated_with_tiny_caps():
    r = run_command(py("import sys; sys.stdout.write('abcdef')"), head_cap=4, tail_cap=10, echo=False)
    assert (r.stdout.head, r.stdout.tail, r.stdout.truncated) == (b"abcd", b"ef", False)


def test_binary_output_is_byte_exact():
    payload = bytes(range(256)) + b"\xff\xfe\xc3\x28"
    r = run_command(py(f"import sys; sys.stdout.buffer.write({payload!r})"), echo=False)
    assert r.stdout.head == payload


def test_timeout_kills_child_and_grandchild():
    r = run_command(py(FAMILY), timeout=0.5, kill_grace=1.0, echo=False)
    assert r.outcome == "timeout"
    assert "timed out" in r.error
    assert r.exit_code == 128 + signal.SIGTERM  # killed, not left to finish its 60 s sleep
    child, grandchild = pids(r)
    assert gone(child) and gone(grandchild)


def test_timeout_escalates_to_sigkill_when_sigterm_ignored():
    # A shell ignores SIGTERM within milliseconds of starting (a Python child needs its
    # interpreter first), and `sleep` inherits the ignored signal through exec.
    r = run_command(["/bin/sh", "-c", "trap '' TERM; echo ready; exec sleep 60"], timeout=0.3, kill_grace=0.3,
                    echo=False)
    assert r.stdout.head == b"ready\n"  # SIGTERM came after it was ignored
    assert r.outcome == "timeout"
    assert r.exit_code == 128 + signal.SIGKILL


def test_timeout_sigkills_grandchild_that_ignores_sigterm():
    # The leader dies on SIGTERM; its grandchild ignores it and keeps stderr open,
    # so it must get the grace period and then SIGKILL.
    # (The grandchild is a shell, ready in milliseconds: the timeout leaves the child's Python
    # ample time to start it and print both pids.)
    r = run_command(py("""
        import os, subprocess, sys, time
        gc = subprocess.Popen(["/bin/sh", "-c", "trap '' TERM; echo ready; exec sleep 60"],
                              stdout=subprocess.PIPE)
        gc.stdout.readline()
        print(os.getpid(), gc.pid, flush=True)
        time.sleep(60)
    """), timeout=0.6, kill_grace=0.4, echo=False)
    assert r.outcome == "timeout"
    assert r.exit_code == 128 + signal.SIGTERM
    assert r.duration_s > 0.9  # the timeout and the whole grace, then SIGKILL
    child, grandchild = pids(r)
    assert gone(child) and gone(grandchild)


def test_shell_timeout_kills_the_shell_and_its_children():
    r = run_command("sleep 60; echo never", shell=True, timeout=0.3, kill_grace=1.0, echo=False)
    assert r.outcome == "timeout" and r.exit_code == 128 + signal.SIGTERM
    assert r.stdout.total_bytes == 0  # the shell never reached its echo


def test_escaped_grandchild_holding_pipe_does_not_hang():
    # The grandchild leaves our process group (setsid) but inherits stdout.
    r = run_command(py("""
        import subprocess
        p = subprocess.Popen(["sleep", "30"], start_new_session=True)
        print(p.pid, flush=True)
    """), kill_grace=0.3, echo=False)
    try:
        assert r.outcome == "passed"
        # The run came back while the grandchild still held the pipe: it did not wait for it to close.
        assert not gone(pids(r)[0], within=0)
    finally:
        os.kill(pids(r)[0], signal.SIGKILL)


def test_interrupt_kills_group_and_returns_result(tmp_path, monkeypatch):
    marker = tmp_path / "ready"

    def interrupted_wait(proc, timeout):
        deadline = time.monotonic() + 10
        while not marker.exists() and time.monotonic() < deadline:
            time.sleep(0.02)
        raise KeyboardInterrupt

    monkeypatch.setattr(runner, "_wait", interrupted_wait)
    r = run_command(py(FAMILY) + [str(marker)], kill_grace=1.0, echo=False)
    assert r.outcome == "interrupted"
    assert r.error
    assert r.exit_code == 128 + signal.SIGTERM
    child, grandchild = pids(r)
    assert gone(child) and gone(grandchild)


def test_real_sigint_to_us_interrupts_and_kills_group(tmp_path):
    # End to end: a real SIGINT to the process calling run_command (the child is in
    # its own session, so only the caller gets it, as with Ctrl-C at a terminal).
    marker = tmp_path / "ready"
    driver = textwrap.dedent(f"""
        import sys
        from harness.runner import run_command
        r = run_command({py(FAMILY) + [str(marker)]!r}, kill_grace=1.0, echo=False)
        print(r.outcome, r.exit_code, r.stdout.head.decode().strip(), flush=True)
    """)
    root = os.path.dirname(os.path.dirname(os.path.abspath(runner.__file__)))
    env = dict(os.environ, PYTHONPATH=root)
    # SIGINT as at a terminal: a background job (`pytest ... &` from a script) inherits it ignored.
    caller = subprocess.Popen([PY, "-c", driver], stdout=subprocess.PIPE, env=env,
                              preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        deadline = time.monotonic() + 10
        while not marker.exists() and time.monotonic() < deadline:
            time.sleep(0.02)
        caller.send_signal(signal.SIGINT)
        out, _ = caller.communicate(timeout=10)
    finally:
        if caller.poll() is None:  # a failed run must not leave the caller and its command behind
            for leader in children_of(caller.pid):  # the command leads its own process group
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(leader, signal.SIGKILL)
            caller.kill()
            caller.wait()
    outcome, code, child, grandchild = out.split()
    assert (outcome, code) == (b"interrupted", b"143")
    assert gone(int(child)) and gone(int(grandchild))


@pytest.mark.parametrize("step", ["_widen_pipes", "_Drain"])
def test_a_ctrl_c_before_the_wait_stops_the_command_not_the_caller(monkeypatch, step):
    """A Ctrl-C that lands after the command started and before the wait (a busy machine widens that window: `.ci/run`
    beside a second suite met it) interrupts the run like one during the wait: the command's group is killed and
    the run is recorded as interrupted, where the caller used to die of it and leave the command running."""
    started: list[int] = []
    real = getattr(runner, step)

    def then_ctrl_c(proc, *args):
        started.append(proc.pid)
        out = real(proc, *args)
        os.kill(os.getpid(), signal.SIGINT)  # delivered here, between the start and the wait
        return out

    monkeypatch.setattr(runner, step, then_ctrl_c)
    old = signal.signal(signal.SIGINT, signal.default_int_handler)  # as an interactive caller has it
    try:
        r = run_command(py(FAMILY), kill_grace=1.0, echo=False)
    except KeyboardInterrupt:
        for pid in started:  # the command leads its own group: what the caller dying left behind
            with contextlib.suppress(ProcessLookupError):
                os.killpg(pid, signal.SIGKILL)
        pytest.fail("the caller died of the Ctrl-C and left the command running")
    finally:
        signal.signal(signal.SIGINT, old)
    assert (r.outcome, r.error) == ("interrupted", "interrupted by user")
    assert len(started) == 1 and group_gone(started[0])  # nothing of the command's group runs (it may not have forked)


def test_a_ctrl_c_before_the_wait_keeps_what_the_command_printed(monkeypatch, tmp_path):
    """F-0112: the run taken as interrupted before the wait still reads what the command wrote (the pipe holds it):
    the readers start before the signals are armed, so a kept Ctrl-C stops the command with its output read."""
    marker = tmp_path / "ready"
    real = runner._Drain

    def printed_then_ctrl_c(proc, *args):
        drain = real(proc, *args)
        deadline = time.monotonic() + 10
        while not marker.exists() and time.monotonic() < deadline:  # the command printed its pids, then this
            time.sleep(0.02)
        os.kill(os.getpid(), signal.SIGINT)
        return drain

    monkeypatch.setattr(runner, "_Drain", printed_then_ctrl_c)
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        r = run_command(py(FAMILY) + [str(marker)], kill_grace=1.0, echo=False)
    finally:
        signal.signal(signal.SIGINT, old)
    assert r.outcome == "interrupted" and marker.exists()
    child, grandchild = map(int, r.stdout.head.decode().split())
    assert gone(child) and gone(grandchild)


def test_a_ctrl_c_during_the_cleanup_is_the_caller_s_once_the_cleanup_is_done(monkeypatch):
    """Not dropped as a late SIGTERM is: the caller gets its KeyboardInterrupt, after the pipes are read and closed."""
    real, joined = runner._join, []

    def join_then_ctrl_c(readers, timeout):
        if not joined:
            os.kill(os.getpid(), signal.SIGINT)
        joined.append(timeout)
        return real(readers, timeout)

    monkeypatch.setattr(runner, "_join", join_then_ctrl_c)
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt):
            run_command(py("print('done')"), echo=False)
    finally:
        signal.signal(signal.SIGINT, old)
    assert len(joined) == 2  # both joins ran: the cleanup was not cut short


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP])
def test_real_sigterm_or_sighup_to_us_interrupts_and_kills_group(tmp_path, sig):
    # `kill` or a closed terminal reaches only the caller (the child has its own session):
    # it must stop the command as Ctrl-C does, not orphan it by dying at once.
    marker = tmp_path / "ready"
    driver = textwrap.dedent(f"""
        import signal, sys
        from harness.runner import run_command
        r = run_command({py(FAMILY) + [str(marker)]!r}, kill_grace=1.0, echo=False)
        restored = signal.getsignal({int(sig)}) is signal.SIG_DFL
        print(r.outcome, r.exit_code, r.error.replace(" ", "_"), restored, r.stdout.head.decode().strip(), flush=True)
    """)
    root = os.path.dirname(os.path.dirname(os.path.abspath(runner.__file__)))
    env = dict(os.environ, PYTHONPATH=root)
    caller = subprocess.Popen([PY, "-c", driver], stdout=subprocess.PIPE, env=env)
    deadline = time.monotonic() + 10
    while not marker.exists() and time.monotonic() < deadline:
        time.sleep(0.02)
    caller.send_signal(sig)
    out, _ = caller.communicate(timeout=10)
    assert caller.returncode == 0, out
    outcome, code, error, restored, child, grandchild = out.split()
    assert (outcome, code, restored) == (b"interrupted", b"143", b"True")
    assert error == f"interrupted_by_{sig.name}".encode()
    assert gone(int(child)) and gone(int(grandchild))


def test_signal_handlers_are_left_as_they_were_when_the_run_ends():
    def mine(*_):
        pass

    old, hup = signal.signal(signal.SIGTERM, mine), signal.getsignal(signal.SIGHUP)
    try:
        assert run_command(py("pass"), echo=False).outcome == "passed"
        assert signal.getsignal(signal.SIGTERM) is mine
        assert signal.getsignal(signal.SIGHUP) == hup
    finally:
        signal.signal(signal.SIGTERM, old)


def test_run_from_another_thread_still_works_without_signal_handlers():
    import threading

    results = []
    t = threading.Thread(target=lambda: results.append(run_command(py("print(1)"), echo=False)))
    t.start()
    t.join(30)
    assert results and results[0].outcome == "passed"


def test_signal_death_reported_like_a_shell():
    r = run_command(py("import os, signal; os.kill(os.getpid(), signal.SIGKILL)"), echo=False)
    assert (r.outcome, r.exit_code) == ("failed", 137)


def test_not_found():
    r = run_command(["harness-no-such-command-xyz", "--flag"], echo=False)
    assert (r.outcome, r.exit_code) == ("not_found", None)
    assert r.error == "command not found: harness-no-such-command-xyz"
    assert r.stdout.total_bytes == 0


def test_not_executable(tmp_path):
    script = tmp_path / "script.sh"
    script.write_text("#!/bin/sh\necho hi\n")
    script.chmod(0o644)
    r = run_command([str(script)], echo=False)
    assert (r.outcome, r.exit_code) == ("not_executable", None)
    assert str(script) in r.error


def test_shell_pipeline():
    r = run_command("printf 'a\\nb\\nc\\n' | grep -c .", shell=True, echo=False)
    assert r.outcome == "passed" and r.stdout.head.strip() == b"3"


def test_shell_with_list_is_joined_safely():
    r = run_command(["echo", "a  b; echo injected"], shell=True, echo=False)
    assert r.stdout.head == b"a  b; echo injected\n"


def test_shell_exit_code_preserved():
    r = run_command("exit 7", shell=True, echo=False)
    assert (r.outcome, r.exit_code) == ("failed", 7)


def test_list_without_shell_does_not_interpret_metacharacters():
    args = ["a;b", "$HOME", "x | y", "`id`", "*"]
    r = run_command(py("import sys; print(repr(sys.argv[1:]))") + args, echo=False)
    assert r.stdout.head.decode().strip() == repr(args)


def test_cwd_env_and_stdin_devnull(tmp_path):
    r = run_command(py("import os, sys; print(os.getcwd(), os.environ.get('HX'), repr(sys.stdin.read()))"),
                    cwd=tmp_path, env={"HX": "42"}, echo=False)
    assert r.stdout.head.decode().split() == [str(tmp_path.resolve()), "42", "''"]


def test_child_runs_in_its_own_session():
    r = run_command(py("import os; print(os.getsid(0) == os.getpid())"), echo=False)
    assert r.stdout.head == b"True\n"


@pytest.mark.parametrize("command, shell", [([], False), ([""], False), ("echo hi", False),
                                            ("", True), ("   ", True)])
def test_empty_or_malformed_command_raises(command, shell):
    with pytest.raises(HarnessError):
        run_command(command, shell=shell, echo=False)


@pytest.mark.parametrize("command, shell", [([""], False), ("  ", True)])
def test_checked_argv_refuses_what_run_command_refuses(command, shell, tmp_path):
    # Callers check before they record that a run began (see harness.evidence.record.collect).
    with pytest.raises(HarnessError, match="empty or malformed"):
        runner.checked_argv(command, shell)
    with pytest.raises(HarnessError, match="working directory"):
        runner.checked_argv(["true"], False, tmp_path / "nope")
    assert runner.checked_argv(["true"], False, tmp_path) == ["true"]
    assert runner.checked_argv("echo hi", True) == ["/bin/sh", "-c", "echo hi"]


def test_missing_cwd_raises(tmp_path):
    with pytest.raises(HarnessError, match="working directory"):
        run_command(py("pass"), cwd=tmp_path / "nope", echo=False)


def test_echo_streams_to_our_stdout_and_stderr(capfdbinary):
    r = run_command(py("""
        import sys
        sys.stdout.write("live-out\\n"); sys.stdout.flush()
        sys.stderr.write("live-err\\n")
    """))
    out, err = capfdbinary.readouterr()
    assert b"live-out\n" in out and b"live-err\n" in err
    assert r.stdout.head == b"live-out\n" and r.stderr.head == b"live-err\n"


def test_echo_survives_broken_stdout(monkeypatch):
    class Broken:
        calls = 0

        def write(self, data):
            Broken.calls += 1
            raise BrokenPipeError

        def flush(self):
            pass

    class Stream:
        buffer = Broken()

    monkeypatch.setattr(sys, "stdout", Stream())
    r = run_command(py("""
        import sys
        for i in range(5):
            print(i, flush=True)
    """))
    assert r.outcome == "passed"
    assert r.stdout.head == b"0\n1\n2\n3\n4\n"
    assert Broken.calls == 1  # echo stopped after the first failure


def test_a_quick_command_is_seen_done_when_it_exits_not_at_the_next_poll():
    # Popen.wait(timeout) sleeps 0.5, 1, 2 ... 50 ms between looks: a command done in 20 ms was seen
    # done at 31.5 ms, one done in 70 ms at 113.5 ms. With a pidfd the wait wakes as the process
    # exits, and the process is then reaped by a wait that blocks (no timed looks at all).
    if not hasattr(os, "pidfd_open"):
        pytest.skip("no pidfd on this system: Popen's own wait is used")
    proc = subprocess.Popen(["sleep", "0.1"])
    waits = []
    real_wait = proc.wait
    proc.wait = lambda timeout=None: waits.append(timeout) or real_wait(timeout)  # type: ignore[method-assign]
    assert runner._wait(proc, timeout=30) is True and proc.returncode == 0
    assert waits == [None]


def test_without_a_pidfd_the_run_still_waits_and_times_out(monkeypatch):
    monkeypatch.delattr(os, "pidfd_open", raising=False)
    assert runner._exited_within(os.getpid(), 1) is None
    assert run_command(py("print('ok')"), timeout=30, echo=False).outcome == "passed"
    r = run_command(["sleep", "30"], timeout=0.3, echo=False, kill_grace=0.5)
    assert r.outcome == "timeout" and r.exit_code == 128 + signal.SIGTERM


@pytest.mark.parametrize("timeout", [0, 0.2])
def test_the_pidfd_wait_says_false_when_the_time_is_up_and_true_for_a_process_already_done(timeout):
    if not hasattr(os, "pidfd_open"):
        pytest.skip("no pidfd on this system: Popen's own wait is used")
    running = subprocess.Popen(["sleep", "30"])
    try:
        assert runner._exited_within(running.pid, timeout) is False
    finally:
        running.kill()
        running.wait()
    done = subprocess.Popen(["true"])
    stat = Path(f"/proc/{done.pid}/stat")
    while stat.read_text().split()[2] != "Z":
        time.sleep(0.01)  # a zombie, not yet reaped: exited
    assert runner._exited_within(done.pid, timeout) is True
    done.wait()


@pytest.mark.parametrize("timeout", [float("inf"), float("nan"), 1e306])
def test_a_timeout_with_no_end_waits_for_the_command_as_none_does(timeout):
    # click's FloatRange and the config schema both let these through: Popen.wait waited forever.
    r = run_command(py("import time; time.sleep(0.2)"), timeout=timeout, echo=False)
    assert r.outcome == "passed" and r.exit_code == 0
