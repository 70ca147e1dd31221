#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# False denials of everyday find lines:
# - shell_folders.found_files stops narrowing by -name/-path as soon as the expression holds ANY of `!`, -not, -o,
#   -prune, `(`: `find . -name '*.py' ! -path './.venv/*' -exec sed -i … {} +`, `find . -path ./.git -prune -o
#   -name '*.py' -exec sed -i …`, `find . \( -name '*.py' -o -name '*.pyi' \) -exec …` and the usual
#   `find . -type d -name __pycache__ -prune -exec rm -rf {} +` are refused as writing the ledger sample, though
#   the -exec's own branch requires `-name '*.py'` (or __pycache__), which no .harness file passes (regressions: allowed before
#   e0dad9e; `find . -name '*.py' -exec sed -i …` alone is allowed);
# - (older) bypass_files._check_deletion treats ANY `find START -exec` as deleting START: reading the record with
#   `find .harness/tasks -name events.jsonl -exec tail -n 3 {} \;` or `find .harness -type f -exec wc -l {} +`
#   is refused as "deleting .harness/tasks would erase the harness's record".
# Each is run afterwards to show it leaves .harness/ alone.
# Exit 1 while any is refused, 0 when all are allowed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
mkdir -p src/__pycache__ .venv && echo 'x = 1' > src/m.py && echo 'x = 1' > .venv/v.py && echo > src/__pycache__/m.pyc || exit 2
[ "$(hk "find . -name '*.py' -exec sed -i 's/x/y/' {} +")" = allow ] || { echo "setup: plain find refused" >&2; exit 2; }
for c in "find . -name '*.py' ! -path './.venv/*' -exec sed -i 's/x/y/' {} +" \
         "find . -path ./.git -prune -o -name '*.py' -exec sed -i 's/x/y/' {} +" \
         "find . \\( -name '*.py' -o -name '*.pyi' \\) -exec sed -i 's/y/z/' {} +" \
         "find . -type d -name __pycache__ -prune -exec rm -rf {} +" \
         "find .harness/tasks -name events.jsonl -exec tail -n 3 {} \\;" \
         "find .harness -type f -exec wc -l {} +"; do
  a=$(hk "$c"); echo "guard: $a : $c"; [ "$a" = deny ] && fail=1
  ( bash -c "$c" ) >/dev/null 2>&1
done
git diff --quiet HEAD -- .harness && [ ! -d src/__pycache__ ] && echo "(run: .py files edited, __pycache__ removed; .harness/ unchanged)"
[ $fail = 1 ] && echo "DEFECT: ordinary find lines refused"
exit $fail
