#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# find's `{}` now stands for "each guarded file the find may reach" — but judged by SAMPLE paths
# (shell_folders.FOUND_SAMPLES: `.harness/tasks/TASK/events.jsonl`, `…/evidence/EVIDENCE.json`) tested against
# the find's -name/-path tests. A test that names the real task folder (`-path '*/TASK-*/events.jsonl'`,
# `-path "*/$TID/*"`) fails on the sample, so `{}` stays a literal word and `-exec tee -a {} +` / `sed -i`
# on the ledger is ALLOWED. And the standard `-exec sh -c '… "$0"' {} \;` / `sh -c '… "$@"' sh {} +` form
# hands the file to the shell's positional parameters, which the nested line reads as unknown `$0`/`$@`.
# And found_files takes the words after `find` up to the first `-…` as its start folders, so find's own leading
# options (`-L`, `-H`, `-O3`) or `-files0-from LIST` hide the real ones: run from a subfolder (the session's
# cwd), `find -L .. -name events.jsonl -exec sed -i 1d {} +` is judged as a find of `.` (src/) only.
# Each writes the ledger (`find . -name events.jsonl -exec tee -a {} +`, `find .. -name …` from src/ are refused).
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
control "find . -name events.jsonl -exec sed -i 1d {} +" "find . -path '*/tasks/*/events.jsonl' -exec sed -i 1d {} +"
for c in "find . -path './.harness/tasks/TASK-*/events.jsonl' -exec sed -i 1d {} +" \
         "find . -path \"*/$TID/*\" -name events.jsonl -exec sed -i 1d {} +" \
         "echo x | find . -path '*/TASK-*' -name '*.jsonl' -exec tee -a {} +" \
         "find . -name events.jsonl -exec sh -c 'echo x >> \"\$0\"' {} \\;" \
         "find . -name events.jsonl -exec sh -c 'for f; do echo x >> \"\$f\"; done' sh {} +" \
         "find . -name events.jsonl -execdir bash -c 'sed -i 1d \"\$@\"' _ {} +"; do
  ledger_case "$c"
done
mkdir -p src && printf '../%s\0' "$L" > src/list || exit 2
[ "$(hk "find .. -name events.jsonl -exec sed -i 1d {} +" "$R/src")" = deny ] || { echo "setup: control not denied" >&2; exit 2; }
for c in "find -L .. -name events.jsonl -exec sed -i 1d {} +" "find -O3 .. -name events.jsonl -exec sed -i 1d {} +" \
         "find -files0-from list -exec sed -i 1d {} +"; do  # judged and run in src/
  git checkout -q HEAD -- "$L"; before=$(git hash-object "$L")
  a=$(hk "$c" "$R/src"); ( cd src && bash -c "$c" ) >/dev/null 2>&1; after=$(git hash-object "$L")
  echo "guard: $a  ledger changed: $([ "$before" != "$after" ] && echo yes || echo no) : (in src/) $c"
  [ "$a" = allow ] && [ "$before" != "$after" ] && fail=1
done
git checkout -q HEAD -- "$L"
[ $fail = 1 ] && echo "DEFECT: a find -exec reaches the ledger past the guard's samples; the guard allows it"
exit $fail
