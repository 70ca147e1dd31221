#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# Named by read 20 without a reproducer: PYTEST_DEBUG_TEMPROOT=.harness makes pytest keep its temp folders (and
# delete old ones) inside the record's folder; COVERAGE_FILE set as a shell variable on the line (not on the
# coverage command itself) names where coverage writes its data file. The guard judged neither.
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
printf 'def test_t(tmp_path):\n    pass\n' > test_t.py
a=$(hk "PYTEST_DEBUG_TEMPROOT=.harness pytest -q -p no:cacheprovider test_t.py"); echo "guard: $a : PYTEST_DEBUG_TEMPROOT=.harness pytest"
[ "$a" = allow ] && ( PYTEST_DEBUG_TEMPROOT=.harness timeout 30 pytest -q -p no:cacheprovider test_t.py ) >/dev/null 2>&1
[ "$a" = allow ] && ls -d .harness/pytest-of-* >/dev/null 2>&1 && { echo "pytest wrote into .harness/: $(ls -d .harness/pytest-of-*)"; fail=1; }
b=$(hk "COVERAGE_FILE=$L; export COVERAGE_FILE; coverage run -m pytest -q"); echo "guard: $b : COVERAGE_FILE=LEDGER; export COVERAGE_FILE; coverage run"
[ "$b" = allow ] && fail=1
exit $fail
