#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# pytest resolves a relative cache_dir against its ROOTDIR (cacheprovider: resolve_from_str(getini("cache_dir"),
# config.rootpath)), not against the folder it runs in. The judge (bypass_files._emptied, fed by
# pytest_writes._valued) joins the value with the cwd, and ignores `--rootdir` entirely (it is not even in
# quick_allow's WRITING_OPTIONS). `pytest --rootdir=.harness/tasks/T -o cache_dir=x` is allowed (x is judged
# as ./x) while `pytest -o cache_dir=.harness/tasks/T/x` is refused: pytest writes its cache (v/cache/nodeids,
# README.md, .gitignore, CACHEDIR.TAG) into the task's record folder. (Same for an ini's relative cache_dir:
# it is relative to the ini's folder.) The ledger file itself is not overwritten (pytest only writes under
# v/ and d/), so this writes INTO .harness/ rather than over the record.
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
control "pytest -q -o cache_dir=.harness/tasks/$TID/x"
mkdir -p tests && printf 'def test_a():\n    pass\n' > tests/test_x.py
before=$(find .harness | sort)
c="pytest -q --rootdir=.harness/tasks/$TID -o cache_dir=x tests"
a=$(hk "$c"); echo "guard: $a : $c"
( timeout 20 bash -c "$c" ) >/dev/null 2>&1 </dev/null
new=$(comm -13 <(echo "$before") <(find .harness | sort))
echo "new under .harness/:"; echo "$new" | head
[ "$a" = allow ] && [ -n "$new" ] && { fail=1; echo "DEFECT: --rootdir moves a relative cache_dir into .harness/ unjudged"; }
exit $fail
