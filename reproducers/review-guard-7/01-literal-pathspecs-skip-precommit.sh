#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# The native pre-commit shim (and the launcher's staged_nothing_to_judge) decide "code-only commit, nothing to
# judge" by `git --no-replace-objects diff --cached --quiet ... -- ':(top).harness'`. That pathspec uses magic;
# with GIT_LITERAL_PATHSPECS=1 in the environment (set by `git --literal-pathspecs commit`, or a plain env prefix,
# both allowed by the agent guard), git reads ':(top).harness' as a literal file name, matches nothing, answers
# "no change", and the shim exits 0 without running any check: a commit that wipes a task's ledger is made
# (post-commit only warns). Same class as F-0029 (replace refs fooling the same check).
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
L=$(ls .harness/tasks/*/events.jsonl) || exit 2
: > "$L"; git add "$L" || exit 2                       # wipe the task's ledger, staged
git commit -q -m control >/dev/null 2>&1 && { echo "setup: control commit not refused" >&2; exit 2; }
fail=0
for c in "git --literal-pathspecs commit -q -m tidy" "GIT_LITERAL_PATHSPECS=1 git commit -q -m tidy"; do
  git reset -q --soft "$(git rev-list --max-parents=0 HEAD)"   # back to the init commit, the wipe still staged
  a=$(hk "$c")
  before=$(git rev-parse HEAD); ( eval "$c" ) >/dev/null 2>&1; after=$(git rev-parse HEAD)
  made=$([ "$before" != "$after" ] && echo yes || echo no)
  echo "guard: $a  commit with wiped ledger made: $made  : $c"
  [ "$a" = allow ] && [ "$made" = yes ] && fail=1
done
[ $fail = 1 ] && echo "DEFECT: GIT_LITERAL_PATHSPECS makes the pre-commit shim's code-only check skip every check"
exit $fail
