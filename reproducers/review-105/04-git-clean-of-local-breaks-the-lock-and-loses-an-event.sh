#!/usr/bin/env bash
# Defect: the store lock is a flock on the file .harness/local/lock (harness/store/fsio.py locked/_open_lock),
#   inside the git-ignored per-clone folder that `git clean -fdX` / `git clean -fdx` (or `rm -rf .harness/local`,
#   "caches") deletes. A writer that holds the lock keeps a lock on an unlinked inode; the next harness process
#   creates a fresh lock file, takes it at once and writes concurrently. When the first writer goes on, its rename
#   of the ledger it read before replaces the one the second wrote: the second command's event is lost, though it
#   printed its id and exited 0 -- and the files no longer agree with the ledger. DESIGN.md: concurrent harness
#   processes "serialize on a lock and never lose an event".
# Correct: the lock lives where cleaning the work tree cannot remove it (e.g. the `.harness` folder itself, or
#   under .git/ as the install lock does), or a lock whose path no longer names the locked file is not trusted;
#   the second writer waits and both events are kept.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
command -v strace >/dev/null || { echo "setup: strace is needed to pause a writer at a fixed syscall"; exit 2; }
T=$(mktemp -d) || exit 2
SP=""; HP=""; BP=""
cleanup() { for p in $BP $HP $SP; do kill -9 "$p" 2>/dev/null; done; [ -n "$SP" ] && pkill -9 -P "$SP" 2>/dev/null
            rm -rf "$T"; }; trap cleanup EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q -b main && harness init && harness install && harness task new t && echo a > a.txt && git add -A \
  && git commit -qm init && harness requirement add "r1" --priority must ) >/dev/null 2>&1 || exit 2
L=$(ls .harness/tasks/*/events.jsonl) || exit 2

# Writer A pauses (SIGSTOP) at its first fsync: under the exclusive lock, its ledger already read.
strace -f -qq -o /dev/null -e trace=fsync -e inject=fsync:signal=STOP:when=1 \
  harness requirement add "from A" --priority must >"$T/a.out" 2>&1 &
SP=$!; disown "$SP"
for _ in $(seq 100); do
  HP=$(pgrep -P "$SP" | head -1)
  [ -n "$HP" ] && [ "$(ps -o stat= -p "$HP" | cut -c1)" = t ] && grep -q "\"pid\": $HP," .harness/local/lock.holder 2>/dev/null && break
  sleep 0.1
done
[ -n "$HP" ] && [ "$(ps -o stat= -p "$HP" | cut -c1)" = t ] || { echo "setup: writer A did not pause holding the lock"; exit 2; }

git clean -fdXq     # a routine "clean the build": removes the ignored .harness/local/, the lock file with it
[ -e .harness/local/lock ] && { echo "setup: git clean left the lock file"; exit 2; }

# Writer B: must wait for A. Resume A after a moment; B then has to finish after A.
harness requirement add "from B" --priority must >"$T/b.out" 2>&1 &
BP=$!
sleep 3
b_done_early=no; kill -0 "$BP" 2>/dev/null || b_done_early=yes
kill -CONT "$HP" 2>/dev/null
for _ in $(seq 300); do kill -0 "$HP" 2>/dev/null || break; sleep 0.1; done
wait "$BP"; brc=$?; BP=""
echo "A said: $(tr '\n' ' ' < "$T/a.out")   B said: $(tr '\n' ' ' < "$T/b.out") (exit $brc; finished while A held the lock: $b_done_early)"
stmts=$(grep -o '"statement":"[^"]*"' "$L" | tr '\n' ' ')
echo "ledger statements: $stmts"
if [ $brc = 0 ] && ! grep -q '"statement":"from B"' "$L"; then
  echo "DEFECT: B reported success but its event is gone: A's rename replaced the ledger B wrote (lock broken by git clean)"
  echo "        harness replay: $(harness replay 2>&1 | head -1)"
  exit 1
fi
grep -q '"statement":"from A"' "$L" || { echo "DEFECT: A's event is lost"; exit 1; }
echo "OK: both events kept"
exit 0
