#!/usr/bin/env bash
# Defect: `harness status` answered before click (harness/cli/status_fast.py, answer) says a wait for
# the store's lock on stderr (plain_echo.report_lock_waits) and then, when the wait runs out
# (HARNESS_LOCK_TIMEOUT: LockWaitRanOut raised inside _render), returns None so that the click path runs
# the whole command again: it waits a second time and says the wait a second time. The fast path prints
# "harness: waiting for the lock ..." twice and takes twice HARNESS_LOCK_TIMEOUT, where the full path
# (harness.cli.main.main) says it once — contrary to "the fast paths return exactly the answers of the
# full paths" (#28) and to status_fast's own docstring ("whatever fails before a line is printed").
# Correct: `harness status` prints the same stderr bytes and exit code as the click command: one wait
# message, one "gave up" refusal, exit 2.
# Exit 1 while the defect is present, 0 when fixed, 2 on a setup failure.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
T=$(mktemp -d); holder=""
cleanup() { [ -n "$holder" ] && kill "$holder" 2>/dev/null; rm -rf "$T"; }
trap cleanup EXIT
mkdir -p "$T/home"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 HOME=$T/home
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@example.com GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@example.com
unset HARNESS_LOCK_TIMEOUT
cd "$T" && git init -q repo && cd repo || exit 2
echo x > a && git add a && git commit -qm init || exit 2
harness init >/dev/null 2>&1 || exit 2
harness task new "one" >/dev/null 2>&1 || exit 2
[ -f .harness/local/lock ] || exit 2
# Another process holds the store's lock exclusively.
python -c 'import fcntl, os, sys, time
fd = os.open(".harness/local/lock", os.O_RDWR)
fcntl.flock(fd, fcntl.LOCK_EX); print("held", flush=True); time.sleep(60)' > "$T/held" &
holder=$!
for _ in $(seq 50); do grep -q held "$T/held" 2>/dev/null && break; sleep 0.1; done
grep -q held "$T/held" || exit 2
export HARNESS_LOCK_TIMEOUT=2.5
harness status >"$T/fast.out" 2>"$T/fast.err"; fast=$?
python -c 'import sys; from harness.cli.main import main; sys.exit(main())' status >"$T/full.out" 2>"$T/full.err"; full=$?
[ "$full" = 2 ] || { echo "setup: the click path did not refuse the held lock (exit $full)"; exit 2; }
echo "fast path: exit $fast, $(grep -c 'waiting for the lock' "$T/fast.err") wait message(s)"
echo "full path: exit $full, $(grep -c 'waiting for the lock' "$T/full.err") wait message(s)"
if [ "$fast" = "$full" ] && cmp -s "$T/fast.out" "$T/full.out" && cmp -s "$T/fast.err" "$T/full.err"; then
  echo "OK: same answer"; exit 0
fi
echo "DEFECT: the fast path's answer differs from click's:"; diff "$T/fast.err" "$T/full.err"
exit 1
