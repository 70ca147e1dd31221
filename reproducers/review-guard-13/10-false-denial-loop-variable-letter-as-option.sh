#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# FALSE DENIAL. cd_targets.loop_words (line 41) counts every bare occurrence of the loop variable's NAME on the line
# as a place that may set it (`d=…`, `read d`); a name that is one letter also occurs in any option of that
# letter: `[ -d .git ]`, `ls -d`, `rm -f`, `test -f`. The loop's variable is then "set elsewhere", its cd
# is unknown, and the line is refused:
#   for d in */; do (cd "$d" && [ -d .git ] && git pull); done      (denied; the same without [ -d .git ] is allowed)
#   for f in src tests; do (cd "$f" && rm -f out.log); done
# Exit 1 while any is denied, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
mkdir -p src tests
control "for d in .harness; do (cd \"\$d\" && sed -i 1d tasks/$TID/events.jsonl); done"
for c in "for d in */; do (cd \"\$d\" && [ -d .git ] && git pull); done" \
         "for d in src tests; do (cd \"\$d\" && ls -d build); done" \
         "for f in src tests; do (cd \"\$f\" && rm -f out.log); done"; do
  a=$(hk "$c"); echo "guard: $a : $c"; [ "$a" = deny ] && fail=1
done
c="for d in */; do (cd \"\$d\" && git pull); done"; echo "guard: $(hk "$c") : $c   (for comparison)"
[ $fail = 1 ] && echo "DEFECT: a loop whose body uses an option letter equal to the loop variable's name is refused"
exit $fail
