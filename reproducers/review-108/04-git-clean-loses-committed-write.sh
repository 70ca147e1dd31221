#!/usr/bin/env bash
# Defect: a harness write of several files (TaskStore.append -> fsio.commit_files) writes its temps, then the
#   redo log .harness/local/journal (the commit point), then re-reads that log in roll_forward to do the renames.
#   71bbab9 (F-0368/F-0370) considered `git clean -fdX` under a running writer removing the temps (_put_back
#   writes them again) and the lock file (the .harness folder is locked too), but not the redo log itself, which
#   lives in the ignored .harness/local/: removed between its write and roll_forward, roll_forward finds no log
#   (`raw is None: return False`) and renames nothing. The command exits 0 and prints its result (REQ-00N) while
#   the ledger never got the event: the write is silently lost (its temps are left for a later sweep).
# Correct: a write past its commit point is finished whole (renamed from the entries in hand, or the log written
#   again), or the command fails; never exit 0 with nothing recorded.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; CL=""
trap 'touch "$T/stop"; [ -n "$CL" ] && wait "$CL" 2>/dev/null; rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q -b main && harness init && harness install && echo a > a.txt && git add -A && git commit -qm base \
  && harness task new Work && harness transition SPECIFYING ) >/dev/null 2>&1 || exit 2
count() { grep -c '"requirement.added"' .harness/tasks/*/events.jsonl; }
# Control: ten adds, ten events.
for i in $(seq 1 10); do harness requirement add "control $i" --priority should >/dev/null 2>&1 || exit 2; done
[ "$(count)" -eq 10 ] || { echo "setup: the control adds were not all recorded"; exit 2; }
# A user (or an IDE task) cleaning ignored files while the agent works.
( while [ ! -e "$T/stop" ]; do git clean -fdXq .harness/local 2>/dev/null; done ) & CL=$!
ok=0
for i in $(seq 1 80); do   # a race: stop at the first write reported done that the ledger lacks
  harness requirement add "req $i" --priority should >/dev/null 2>&1 && ok=$((ok+1))
  [ $(( $(count) - 10 )) -lt "$ok" ] && break
done
touch "$T/stop"; wait "$CL"; CL=""
recorded=$(( $(count) - 10 ))
echo "requirement add exited 0 $ok times; the ledger recorded $recorded of them"
if [ "$recorded" -lt "$ok" ]; then
  echo "DEFECT: $((ok - recorded)) write(s) reported done were lost: git clean removed the redo log before its renames"
  exit 1
fi
echo "OK: every write reported done is in the ledger"; exit 0
