#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# In a nested repository without a harness (vendor/lib with its own .git), bypass_git.check_git (line 65-68)
# returns after judging only _check_git_files and _check_older_state: expand_alias / _check_alias, which judge
# the shell line a `!` alias runs, are skipped. So an alias set for this one run (`git -c alias.x='!…' x`), or one
# written into the nested repository's config (`git config alias.x '!…'` then `git x`, also exempt), runs any
# shell line unjudged. `!` aliases run from the nested work tree's top, and `../../.harness/...` reaches the
# outer ledger, which the same `sed` written plainly is denied for.
#   cwd vendor/lib:  git -c alias.x='!sed -i 1d ../../.harness/tasks/T/events.jsonl' x
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
mkdir -p vendor/lib && (cd vendor/lib && git init -q && git commit -q --allow-empty -m i) || exit 2
N=$R/vendor/lib
[ "$(hk "sed -i 1d ../../.harness/tasks/$TID/events.jsonl" "$N")" = deny ] || { echo "setup: control" >&2; exit 2; }
control "git -c alias.x='!sed -i 1d .harness/tasks/$TID/events.jsonl' x"
case_in() { # CMD CWD: like ledger_case, with the session's cwd CWD
  local a before after
  git -C "$R" checkout -q HEAD -- "$L"; before=$(git -C "$R" hash-object "$L")
  a=$(hk "$1" "$2"); ( cd "$2" && timeout 20 bash -c "$1" ) >/dev/null 2>&1 </dev/null
  after=$(git -C "$R" hash-object "$L" 2>/dev/null)
  echo "guard: $a  ledger changed: $([ "$before" != "$after" ] && echo yes || echo no) : (in ${2#$R/}) $1"
  [ "$a" = allow ] && [ "$before" != "$after" ] && fail=1; git -C "$R" checkout -q HEAD -- "$L"; return 0
}
case_in "git -c alias.x='!sed -i 1d ../../.harness/tasks/$TID/events.jsonl' x" "$N"
echo "$(hk "git config alias.y '!sed -i 1d ../../.harness/tasks/$TID/events.jsonl'" "$N") : git config alias.y '!sed …' (in vendor/lib)"
( cd "$N" && git config alias.y "!sed -i 1d ../../.harness/tasks/$TID/events.jsonl" )
case_in "git y" "$N"
[ $fail = 1 ] && echo "DEFECT: a ! alias run in a nested repository runs its shell line unjudged"
exit $fail
