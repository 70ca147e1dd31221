#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# The judge reads PYTEST_ADDOPTS only from `PYTEST_ADDOPTS=… pytest` and `export PYTEST_ADDOPTS=…`
# (ctx.exported + cmd.assignments in bypass._check_pytest). A plain shell assignment that is exported
# afterwards by NAME (`PYTEST_ADDOPTS=…; export PYTEST_ADDOPTS`) or by `set -a` reaches pytest's
# environment just the same, but the guard never sees the value: pytest is judged without it and allowed.
# `--debug=LEDGER` (or --log-file, --junitxml) then overwrites the task ledger.
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
control "PYTEST_ADDOPTS=--debug=$L pytest -q" "export PYTEST_ADDOPTS=--debug=$L; pytest -q"
ledger_case "PYTEST_ADDOPTS=--debug=$L; export PYTEST_ADDOPTS; pytest -q -p no:cacheprovider"
ledger_case "set -a; PYTEST_ADDOPTS=--debug=$L; pytest -q -p no:cacheprovider"
[ $fail = 1 ] && echo "DEFECT: PYTEST_ADDOPTS exported by name / set -a reaches pytest unjudged"
exit $fail
