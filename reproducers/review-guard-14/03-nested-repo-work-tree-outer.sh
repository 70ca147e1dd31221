#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# In a nested repository, check_git (bypass_git.py:65-68) still judges what git writes into the work tree, but
# _check_git_files resolves paths against Where (the nested folder): `--work-tree=../..` or GIT_WORK_TREE=../..
# makes git use the OUTER repository's top as the nested repository's work tree, and neither is looked at
# (_global_options only follows -C; _repository_named only --git-dir/GIT_DIR/GIT_COMMON_DIR). In vendor/lib the
# nested repository commits a file named `.harness/tasks/T/events.jsonl` (allowed: it is vendor/lib/.harness/…),
# then `git --work-tree=../.. checkout HEAD -- :/.harness/tasks/T/events.jsonl`, `git --work-tree=../.. reset
# --hard` or `GIT_WORK_TREE=../.. git checkout -f HEAD -- :/` writes it over the OUTER ledger. (`checkout-index -a`
# under --work-tree is denied; `clean` is harmless there, git skips the outer top as a repository.)
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
mkdir -p vendor/lib && (cd vendor/lib && git init -q && git commit -q --allow-empty -m i) || exit 2
N=$R/vendor/lib
control "git checkout HEAD~1 -- $L" "rm -rf .harness"
case_in() { # CMD CWD: like ledger_case, with the session's cwd CWD (a deleted ledger counts as changed)
  local a before after
  git -C "$R" checkout -q HEAD -- .harness; before=$(git -C "$R" hash-object "$L")
  a=$(hk "$1" "$2"); ( cd "$2" && timeout 20 bash -c "$1" ) >/dev/null 2>&1 </dev/null
  after=$(git -C "$R" hash-object "$L" 2>/dev/null)
  echo "guard: $a  ledger changed: $([ "$before" != "$after" ] && echo yes || echo no) : (in ${2#$R/}) $1"
  [ "$a" = allow ] && [ "$before" != "$after" ] && fail=1; git -C "$R" checkout -q HEAD -- .harness; return 0
}
prep="mkdir -p .harness/tasks/$TID && echo x > .harness/tasks/$TID/events.jsonl && git add .harness && git commit -qm v"
echo "$(hk "$prep" "$N") : (in vendor/lib) $prep"; ( cd "$N" && bash -c "$prep" ) || exit 2
case_in "git --work-tree=../.. checkout HEAD -- :/.harness/tasks/$TID/events.jsonl" "$N"
case_in "git --work-tree=../.. reset -q --hard" "$N"
case_in "GIT_WORK_TREE=../.. git checkout -f HEAD -- :/" "$N"
[ $fail = 1 ] && echo "DEFECT: --work-tree/GIT_WORK_TREE in a nested repository writes the outer work tree unjudged"
exit $fail
