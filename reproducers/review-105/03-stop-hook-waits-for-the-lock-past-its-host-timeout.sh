#!/usr/bin/env bash
# Defect: the agent stop hook (harness/agent/run.py _stop -> hook_facts.load_facts -> TaskStore.reading ->
#   fsio.locked/_acquire) waits for the store lock with no bound while the host kills it after the timeout the
#   harness itself installs (hook_settings.TIMEOUT_SECONDS: stop 60 s, session-start 30 s). With a harness writer
#   stopped while holding the lock (a Ctrl-Z'd or hung `harness` command in another terminal -- or an agent's
#   `flock .harness/local/lock sleep 600 &`, which the pre-tool-use guard allows), the hook prints only "waiting for
#   the lock" and never answers; the host cancels it, and a cancelled hook lets the agent stop. docs/agents.md
#   promises that an error "still answers in the host's shape: ... one block of the stop".
# Correct: inside an agent hook the lock wait is bounded below the host's timeout, and running out of it answers
#   like any other error of the stop hook: a block naming the holder (pid, command) and what to do.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.  (Takes ~60 s: the hook's own budget.)
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
command -v strace >/dev/null || { echo "setup: strace is needed to stop a writer at a fixed syscall"; exit 2; }
T=$(mktemp -d) || exit 2
SP=""; cleanup() { [ -n "$SP" ] && { kill -9 "$SP" 2>/dev/null; pkill -9 -P "$SP" 2>/dev/null; }
                   [ -n "$HP" ] && kill -9 "$HP" 2>/dev/null; rm -rf "$T"; }; trap cleanup EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q -b main && harness init && harness install && harness task new t && echo a > a.txt && git add -A \
  && git commit -qm init ) >/dev/null 2>&1 || exit 2
( harness requirement add r1 --priority must && harness transition SPECIFYING && harness transition PLANNED \
  && harness transition IMPLEMENTING && harness evidence unit_test -- true ) >/dev/null 2>&1 || exit 2
echo b > a.txt   # the code changed since the required evidence ran: the stop hook must block
payload='{"session_id":"s1","cwd":"'"$R"'","hook_event_name":"Stop","stop_hook_active":false}'
HOOK_BUDGET=60   # harness/agent/hook_settings.py TIMEOUT_SECONDS["stop"], the timeout `harness agent install` writes

# Control: with the lock free the hook answers at once, with a block.
echo "$payload" | timeout "$HOOK_BUDGET" harness hook agent claude stop 2>/dev/null | grep -q '"block"' \
  || { echo "setup: the stop hook does not block even with the lock free"; exit 2; }

# A harness writer stopped (SIGSTOP) at its first fsync, i.e. while it holds the store lock exclusively.
strace -f -qq -o /dev/null -e trace=fsync -e inject=fsync:signal=STOP:when=1 \
  harness requirement add r2 --priority must >/dev/null 2>&1 &
SP=$!; disown "$SP"
HP=""
for _ in $(seq 100); do
  HP=$(pgrep -P "$SP" | head -1)
  [ -n "$HP" ] && [ "$(ps -o stat= -p "$HP" | cut -c1)" = t ] && grep -q "\"pid\": $HP," .harness/local/lock.holder 2>/dev/null && break
  sleep 0.1
done
[ -n "$HP" ] && [ "$(ps -o stat= -p "$HP" | cut -c1)" = t ] || { echo "setup: the writer did not stop holding the lock"; exit 2; }

start=$(date +%s)
out=$(echo "$payload" | timeout "$HOOK_BUDGET" harness hook agent claude stop 2>"$T/err"); rc=$?
took=$(( $(date +%s) - start ))
echo "stop hook with the lock held by stopped pid $HP: exit $rc after ${took}s, stdout: ${out:-<nothing>}"
echo "  stderr: $(head -c 300 "$T/err")"
if [ $rc = 124 ] || ! echo "$out" | grep -q '"block"'; then
  echo "DEFECT: the stop hook gave no answer within the ${HOOK_BUDGET}s its host allows: the host cancels it and the agent stops"
  exit 1
fi
echo "OK: the hook answered (a block) within its budget"
exit 0
