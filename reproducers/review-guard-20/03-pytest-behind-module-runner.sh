#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# bypass._check_pytest judges a python line only when bypass_files.as_program/_module_run names the module
# `pytest`. Python's standard module runners that take `-m MODULE` themselves are not followed:
# `python3 -m cProfile -m pytest …` (profiling a test run), `python3 -m pdb -c continue -m pytest …`,
# `python3 -m runpy pytest …` are "the module cProfile/pdb/runpy", so none of pytest's options is read.
# And _module_run stops at python's long option that takes a value (`--check-hash-based-pycs MODE`): MODE
# is taken for a script, so `python3 --check-hash-based-pycs default -m pytest …` is no pytest either.
# (The old check_files path no longer knows pytest's options: OUTPUT_OPTIONS lost its pytest entry.)
# Each is allowed, and pytest overwrites the task ledger with its debug trace.
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
control "python3 -m pytest --debug=$L" "python3 -I -m pytest --debug=$L"
mkdir -p tests && printf 'def test_a():\n    pass\n' > tests/test_a.py
ledger_case "python3 -m cProfile -o /dev/null -m pytest -q -p no:cacheprovider --debug=$L tests"
ledger_case "python3 -m pdb -c continue -m pytest -q -p no:cacheprovider --debug=$L tests"
ledger_case "python3 -m runpy pytest -q -p no:cacheprovider --debug=$L tests"
ledger_case "python3 --check-hash-based-pycs default -m pytest -q -p no:cacheprovider --debug=$L tests"
[ $fail = 1 ] && echo "DEFECT: pytest run through a module runner / behind a valued long python option is unjudged"
exit $fail
