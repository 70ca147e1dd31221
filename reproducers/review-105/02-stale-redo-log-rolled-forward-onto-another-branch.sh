#!/usr/bin/env bash
# Defect: the redo log (.harness/local/journal, harness/store/fsio.py commit_files/roll_forward) names only
#   (temp, destination) pairs. A harness command killed just after its commit point (the log renamed in, no file
#   renamed yet) leaves a clean work tree, so git lets the user switch branches (or pull, reset...). The next
#   harness command (TaskStore.recover / append) then renames the stale temps over whatever the destinations now
#   hold: the ledger computed on branch `main` replaces the ledger committed on branch `newer`, dropping its
#   committed events. `harness status` shows the other branch's state and `harness replay` says "ledger OK":
#   state silently changed, nothing warns until a commit is refused.
# Correct: a write is rolled forward only onto the files it was computed from (the log keeps each destination's
#   prior digest, or the ledger's prefix); when they changed meanwhile the log is dropped (or the command refuses
#   naming the remedy) and the committed ledger of the checked-out branch stays as it is.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
command -v strace >/dev/null || { echo "setup: strace is needed to kill at a fixed syscall"; exit 2; }
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q -b main && harness init && harness install && harness task new t && echo a > a.txt && git add -A \
  && git commit -qm init ) >/dev/null 2>&1 || exit 2
L=$(ls .harness/tasks/*/events.jsonl) || exit 2

# Branch `newer` carries two more committed requirements of the same task.
( git checkout -qb newer && harness requirement add "r1" --priority must && harness requirement add "r2" --priority must \
  && git add -A && git commit -qm newer && git checkout -q main ) >/dev/null 2>&1 || exit 2

# On main, a write killed right after its commit point: the 1st rename is the redo log's, the 2nd would be a file's.
( strace -f -qq -o /dev/null -e trace=rename,renameat,renameat2 \
    -e inject=rename,renameat,renameat2:signal=KILL:when=2 harness requirement add "main-only" --priority must \
    >/dev/null 2>&1; true ) 2>/dev/null
[ -e .harness/local/journal ] || { echo "setup: no redo log left (kill point moved?)"; exit 2; }
[ -z "$(git status --porcelain)" ] || { echo "setup: the killed write changed files already"; exit 2; }

git checkout -q newer || exit 2        # allowed: the work tree is clean
harness status >"$T/status" 2>&1
echo "harness status on newer: $(grep Requirements "$T/status")"
git show "HEAD:$L" > "$T/committed" || exit 2
if [ "$(head -c "$(wc -c < "$T/committed")" "$L" | cmp - "$T/committed" >/dev/null 2>&1; echo $?)" != 0 ]; then
  echo "DEFECT: the stale redo log from main was rolled forward onto branch newer: its committed ledger"
  echo "        ($(wc -l < "$T/committed") events) is now main's + 1 ($(wc -l < "$L") events); r1, r2 are gone:"
  grep -o '"statement":"[^"]*"' "$L" | sed 's/^/          /'
  echo "        harness replay says: $(harness replay 2>&1 | head -1)"
  exit 1
fi
echo "OK: the committed ledger of the checked-out branch was kept"
exit 0
