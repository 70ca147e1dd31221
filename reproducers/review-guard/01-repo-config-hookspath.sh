#!/usr/bin/env bash
# Writing core.hooksPath into .git/config by shell, then 'git commit', both pass the guard: the commit runs no harness hook.
set -u
source "$(cd "$(dirname "$0")" && pwd)/lib.sh"
fail=0
w=$(verdict "printf '[core]\n\thooksPath = /dev/null\n' >> .git/config")
echo "write .git/config: $w"
# act as the agent whose write was allowed (the guard is what is under test, not git)
printf '[core]\n\thooksPath = /dev/null\n' >> .git/config
c=$(verdict "git commit -m 'wip'")
echo "git commit under hooksPath=/dev/null: $c"
# fixed when either step is denied
if [ "$w" = allow ] && [ "$c" = allow ]; then
  echo "DEFECT: core.hooksPath set through .git/config and a commit that runs no harness hook are both allowed"; exit 1
fi
exit 0
