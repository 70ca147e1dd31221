#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# The pytest rule (bypass._check_pytest) only recognises pytest when bypass_files.as_program recognises it,
# and as_program only knows `python -m pytest` with `-m` as the very FIRST argument. Any interpreter flag
# before it (`python3 -I -m pytest`, `python -B -m pytest`), the joined form `python3 -mpytest`, or a
# runner such as `coverage run -m pytest` makes `named != "pytest"`, so no pytest option is judged at all
# (the old check_files path no longer knows pytest's options either: OUTPUT_OPTIONS lost its pytest entry).
# `--debug=LEDGER` then overwrites the task ledger with pytest's debug trace.
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
control "pytest --debug=$L" "python3 -m pytest --debug=$L"
ledger_case "python3 -I -m pytest -q -p no:cacheprovider --debug=$L"
ledger_case "python3 -mpytest -q -p no:cacheprovider --debug=$L"
ledger_case "python -B -m pytest -q -p no:cacheprovider --debug=$L"
hkc "coverage run -m pytest -q --debug=$L"   # same gap (coverage is not installed in the venv: guard answer only)
[ $fail = 1 ] && echo "DEFECT: pytest behind an interpreter flag / -mpytest writes the ledger unjudged"
exit $fail
