#!/usr/bin/env bash
# Defect: 71bbab9 (F-0369) bounds the stop hook's wait for the store's lock and answers a wait that runs out
#   as an internal error (harness/agent/run.py _stop -> _stop_error -> agent_policy.error_verdict): blocked
#   ONCE PER SESSION, then "failed again; not blocking twice" for the rest of the session. An agent that holds
#   .harness/local/lock on purpose (`flock .harness/local/lock sleep 999 &`) spends that one block and then
#   stops freely on every later source tree, while without the lock each new tree whose required evidence is
#   stale is blocked stop_block_limit (3) times. A lock an agent can hold is no internal error.
# Correct: a lock that cannot be had within the hook's budget still blocks the stop under the normal cap
#   (consecutive blocks per session and source tree, the tree read from git without the store's lock), so a
#   new tree with stale evidence is blocked again.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; HOLD=""
trap '[ -n "$HOLD" ] && kill "$HOLD" 2>/dev/null; rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
PY="$here"/.venv/bin/python
command -v flock >/dev/null || exit 2
( git init -q -b main && harness init && $PY - <<'PYEOF'
import yaml
p = ".harness/config.yaml"; d = yaml.safe_load(open(p))
d["evidence"] = {"build": {"command": [__import__("sys").executable, "-c", "pass"]},
                 "unit_test": {"command": [__import__("sys").executable, "-c", "pass"]}}
yaml.safe_dump(d, open(p, "w"), sort_keys=False)
PYEOF
) >/dev/null 2>&1 || exit 2
( rm .harness/gate.yaml && harness init && harness install && echo a > a.txt && git add -A && git commit -qm base \
  && harness task new Work && harness requirement add "It works" --priority must \
  && for s in SPECIFYING PLANNED IMPLEMENTING VERIFYING; do harness transition $s || exit 1; done \
  && harness evidence build && harness evidence unit_test ) >/dev/null 2>&1 || exit 2
stop() {  # $1 session: "block" or "allow", as the Claude Code stop hook answers
  local out; out=$(echo '{"session_id":"'$1'","cwd":"'$R'","hook_event_name":"Stop","stop_hook_active":false}' \
    | HARNESS_HOOK_LOCK_WAIT=0.5 harness hook agent claude stop 2>/dev/null)
  case "$out" in *'"decision": "block"'*) echo block ;; *) echo allow ;; esac
}
# Control: no lock held; a new tree with stale evidence is blocked (session ctl).
echo b >> a.txt
[ "$(stop ctl)" = block ] || { echo "setup: a stale VERIFYING task's stop is not blocked"; exit 2; }
echo c >> a.txt
[ "$(stop ctl)" = block ] || { echo "setup: a new stale tree is not blocked"; exit 2; }
# The agent holds the store's lock (session agent).
flock .harness/local/lock sleep 120 & HOLD=$!
sleep 0.5
first=$(stop agent); second=$(stop agent)
echo d >> a.txt                       # new work, evidence stale again
third=$(stop agent)
echo e >> a.txt
fourth=$(stop agent)
echo "lock held: stop 1: $first, stop 2 (same tree): $second, new tree: $third, another new tree: $fourth"
if [ "$third" = allow ] && [ "$fourth" = allow ]; then
  echo "DEFECT: holding the lock spent the session's one error block; every later tree stops unchecked"
  exit 1
fi
echo "OK: a held lock still blocks a new stale tree"; exit 0
