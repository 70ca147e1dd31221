#!/usr/bin/env bash
# HEAD carries `.HARNESS/` beside `.harness/` (committed without hooks). For a code-only commit on top the
# commit hook's fast path said "nothing to judge" while the hook's full checks refuse the same index
# (fsck-clean-tree). Exit 1 while they disagree, 0 when they agree, 2 on setup failure.
. "$(dirname "$0")/common.inc"
{ git read-tree --prefix=.HARNESS/ "$(git rev-parse HEAD:.harness)" && git commit -qm B --no-verify &&
  echo y >> app.py && git add app.py; } >/dev/null 2>&1 || exit 2
fast=$(python -c 'from harness.gitio.fast_path import staged_nothing_to_judge as s; print(s())') || exit 2
full=$(python -c '
from harness.history.hook_checks import hook_git, staged_problems
print(len(staged_problems(hook_git())))') || exit 2
echo "fast path: nothing to judge = $fast; full checks: $full problem(s)"
if [ "$fast" = True ] && [ "$full" != 0 ]; then exit 1; fi
exit 0
