#!/usr/bin/env bash
# Found while fixing F-0085: a token written half to stdout, then half to stderr (F-0154) reaches the evidence's
# tails when the capturing process is not scheduled while the command writes (here stopped for 0.3 s, as a busy
# machine does): both pipes are then read in either order, the combined capture holds the halves swapped, and the
# redactor sees no whole token. Runs tests/test_secrets_split_over_streams.py::
# test_a_token_written_half_to_each_stream_is_in_neither_tail 5 times so; exit 1 if any fails, 0 once the token is
# redacted whatever the scheduling, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
cd "$here" || exit 2
python3 - <<'PY'
import os, signal, subprocess, sys, time
test = "tests/test_secrets_split_over_streams.py::test_a_token_written_half_to_each_stream_is_in_neither_tail"

def writer_started(parent: int) -> bool:
    for pid in os.listdir("/proc"):
        try:
            if pid.isdigit() and b"out.flush(); time.sleep(0.05)" in open(f"/proc/{pid}/cmdline", "rb").read():
                return True
        except OSError:
            pass
    return False

failed = 0
for _ in range(5):
    p = subprocess.Popen([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "0", test],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    deadline = time.monotonic() + 60
    while not writer_started(p.pid) and p.poll() is None and time.monotonic() < deadline:
        time.sleep(0.002)
    if p.poll() is None:
        os.kill(p.pid, signal.SIGSTOP); time.sleep(0.3); os.kill(p.pid, signal.SIGCONT)
    out, _ = p.communicate()
    failed += p.returncode != 0
    print("failed" if p.returncode else "passed", out.strip().splitlines()[-1] if out.strip() else "")
sys.exit(1 if failed else 0)
PY
