#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# Found while fixing 01/02 (the implementer's own read): pytest takes options from PYTEST_ADDOPTS as well as
# from its command line, and `-o cache_dir=DIR` (--override-ini) moves the folder pytest writes its cache into.
# The guard reads neither: `PYTEST_ADDOPTS=--basetemp=.harness pytest` and
# `pytest -o cache_dir=.harness` are allowed: the first deletes the whole .harness/ folder, the second writes
# pytest's cache files into the record's folder (.harness/v/cache/…; in a new folder, a `.gitignore` of `*` too).
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
control "pytest --basetemp=.harness"
printf 'def test_t(tmp_path):\n    pass\n' > test_t.py           # an ordinary test using tmp_path
ledger_case "PYTEST_ADDOPTS=--basetemp=.harness pytest -q -p no:cacheprovider test_t.py"
[ -f "$L" ] || git checkout -q HEAD -- .harness 2>/dev/null
ledger_case "export PYTEST_ADDOPTS='-q --basetemp .harness'; pytest -p no:cacheprovider test_t.py"
[ -f "$L" ] || git checkout -q HEAD -- .harness 2>/dev/null
a=$(hk "pytest -q -o cache_dir=.harness test_t.py"); echo "guard: $a : pytest -q -o cache_dir=.harness test_t.py"
[ "$a" = allow ] && ( timeout 30 pytest -q -o cache_dir=.harness test_t.py ) >/dev/null 2>&1
[ "$a" = allow ] && [ -d .harness/v ] && { echo "pytest wrote its cache into .harness/: $(ls .harness/v)"; fail=1; }
[ $fail = 1 ] && echo "DEFECT: pytest's options from PYTEST_ADDOPTS or -o cache_dir reach .harness/ unjudged"
exit $fail
