#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# Words that run a command the parser does not see as one: `coproc CMD` (bash's keyword: bashlex yields a command
# whose program is `coproc`) and `trap 'LINE' EXIT` (LINE is a command line, as eval's is). `coproc git commit -n …`
# and `trap 'git commit --no-verify …' EXIT` are ALLOWED and commit without the hooks; `git commit -n` is refused.
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
control "git commit -n -q --allow-empty -m skipped" "eval 'git commit -n -q --allow-empty -m skipped'"
for c in "coproc git commit -n -q --allow-empty -m skipped; wait" \
         "trap 'git commit --no-verify -q --allow-empty -m skipped' EXIT; true"; do
  git reset -q --hard HEAD; base=$(git rev-parse HEAD)
  a=$(hk "$c"); bash -c "$c" >/dev/null 2>&1
  w=$([ "$(git log -1 --format=%s)" = skipped ] && echo yes || echo no); git reset -q --hard "$base"
  echo "guard: $a  commit made with --no-verify: $w : $c"; [ "$a" = allow ] && [ "$w" = yes ] && fail=1
done
[ $fail = 1 ] && echo "DEFECT: a hook-skipping commit run by coproc or trap; the guard allows it"
exit $fail
