#!/usr/bin/env bash
# Defect: `harness task new` killed before its commit point (temps written, redo log not yet renamed in)
#   leaves .harness/tasks/<ID>/ holding only git-ignored `.*.tmp` files. reader.is_task() (harness/store/reader.py)
#   counts any entry besides findings/ and evidence/ as making a task, and fsio.sweep_temps() is only run for the
#   folder a later append writes (TaskStore.append), so the ghost is never swept: from then on it is a task
#   "with no ledger". In a repository whose first task was being created, every command (status, requirement add,
#   gate) exits 2 with "events.jsonl: missing — task … has no ledger" and no hint; `harness task list` shows it
#   INVALID and `harness replay --all` exits 2 forever, even after another task is created. The docs' remedy
#   ("restore the files from git") cannot apply: the folder holds only ignored temp files.
# Correct: a crash before the commit point leaves the old state (no task): the leftover temps are swept or
#   ignored (a folder of temps is not a task), or at least the refusal names the remedy (remove the folder).
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q -b main && harness init && harness install && echo a > a.txt && git add -A \
  && git commit -qm init ) >/dev/null 2>&1 || exit 2

# The harness's own crash hook (harness/store/crashpoint.py): SIGKILL at the first step(), which in
# commit_files is the redo log's atomic_write -- after every temp is written, before the commit point.
( HARNESS_KILL_AT_STEP=1 harness task new first >/dev/null 2>&1; true ) 2>/dev/null
ghost=$(ls .harness/tasks 2>/dev/null | head -1)
[ -n "$ghost" ] || { echo "setup: the killed command left no folder (kill point moved?)"; exit 2; }
[ -e ".harness/tasks/$ghost/events.jsonl" ] && { echo "setup: the kill came after the commit point"; exit 2; }
ls -A ".harness/tasks/$ghost" | grep -q '\.tmp$' || exit 2
echo "left by the killed 'task new': $(ls -A .harness/tasks/$ghost | tr '\n' ' ')"

out=$(harness status 2>&1); rc=$?
echo "harness status -> exit $rc: $(echo "$out" | head -2 | tr '\n' ' ')"
bad=0
if [ $rc = 2 ] && ! echo "$out" | grep -q -i -E 'no current task|hint|remove|rm '; then
  echo "DEFECT: the next command refuses (exit 2) with no remedy, after a crash that should have left 'no task'"; bad=1
fi
harness task new second >/dev/null 2>&1 || { echo "setup: a plain task new failed"; exit 2; }   # control: works
harness status >/dev/null 2>&1 || { echo "setup: status of the new task failed"; exit 2; }
if harness task list 2>&1 | grep -q INVALID; then
  echo "DEFECT: 'harness task list' still shows the ghost: $(harness task list 2>&1 | grep INVALID)"; bad=1
fi
harness replay --all >/dev/null 2>&1; rrc=$?
if [ $rrc != 0 ]; then echo "DEFECT: 'harness replay --all' exits $rrc for ever (the ghost has no ledger; git has nothing to restore)"; bad=1; fi
[ $bad = 0 ] && echo "OK: the interrupted task new left no trace"
exit $bad
