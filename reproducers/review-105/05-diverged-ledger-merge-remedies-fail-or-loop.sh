#!/usr/bin/env bash
# Defect: when the same task gained events on two branches, merging them leaves events.jsonl in conflict. Every
#   harness command then refuses (exit 2) with the ledger's generic hint (harness/store/reader.py _validated:
#   "restore it from git (`git checkout -- FILE`)"), which git refuses for an unmerged path ("path ... is
#   unmerged"). Choosing a side by hand does not help either: the commit check (harness/history/change_rules.py
#   _check_task, ledger-append-only) requires the merged ledger to extend EVERY parent's, and names as remedy
#   `git checkout <other parent> -- LEDGER`, which the next commit refuses naming the first parent: a loop.
#   Nothing names the only way out (abort the merge; redo one side's changes with harness commands on the other).
# Correct: each refusal names a remedy that works when followed: for a conflicted / diverged ledger, say the two
#   branches both advanced the task and how to proceed (e.g. `git merge --abort`, or take one side with
#   `git checkout --ours -- FILE` + `harness replay --write` and re-record the other side's events).
# The script follows every command the refusals put in backticks, literally (FILE = the ledger), for 6 rounds.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q -b main && harness init && harness install && harness task new t && echo a > a.txt && git add -A \
  && git commit -qm init ) >/dev/null 2>&1 || exit 2
L=$(ls .harness/tasks/*/events.jsonl) || exit 2
( git checkout -qb side && harness requirement add "side req" --priority must && git add -A && git commit -qm side \
  && git checkout -q main && harness requirement add "main req" --priority must && git add -A && git commit -qm main ) \
  >/dev/null 2>&1 || exit 2
git merge -q side -m merge >/dev/null 2>&1 && { echo "setup: the merge did not conflict"; exit 2; }
git ls-files -u -- "$L" | grep -q . || { echo "setup: the ledger is not in conflict"; exit 2; }

follow() {  # run every backticked command of the refusal text in $1 (FILE -> the ledger); 1 when one fails
  local cmd failed=0
  while IFS= read -r cmd; do
    cmd=$(printf '%s' "$cmd" | sed -e 's/ (.*)$//' -e "s#FILE#$L#g")
    case "$cmd" in harness\ *|git\ *) ;; *) continue ;; esac
    echo "   following: $cmd"
    if ! out=$(eval "$cmd" 2>&1); then echo "   -> fails: $(echo "$out" | head -1)"; failed=1; fi
  done < <(grep -o '`[^`]*`' "$1" | tr -d '`' | awk '!seen[$0]++')
  return $failed
}

for round in 1 2 3 4 5 6; do
  if ! harness status >/dev/null 2>"$T/msg"; then
    echo "round $round: harness status refuses: $(head -1 "$T/msg")"
    grep -q '`' "$T/msg" || { echo "DEFECT: a refusal with no remedy"; exit 1; }
    follow "$T/msg" || { echo "DEFECT: the remedy harness names does not work during the merge"; exit 1; }
    continue
  fi
  if [ ! -e .git/MERGE_HEAD ]; then echo "OK: the remedies led out (merge aborted or done), status works"; exit 0; fi
  git add -A >/dev/null 2>&1
  if git commit -q --no-edit >"$T/msg" 2>&1; then echo "OK: the merge was committed after following the remedies"; exit 0; fi
  echo "round $round: the merge commit is refused: $(grep -m1 'ledger-append-only\|projection' "$T/msg" | cut -c1-150)"
  follow "$T/msg" || { echo "DEFECT: the remedy the commit check names does not work"; exit 1; }
done
echo "DEFECT: after 6 rounds of doing exactly what the refusals say, the merge is still neither committed nor undone"
echo "        (each refusal names the other parent's ledger: a loop)"
exit 1
