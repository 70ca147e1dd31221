#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# An Edit/Write of pytest.ini/tox.ini/setup.cfg/pyproject.toml is judged for what it makes pytest write
# (run._pytest_config_edit -> check_pytest_config), but the same file written by a SHELL command is not:
# `printf '[pytest]\nlog_file = LEDGER\n' > pytest.ini` (or `cp other.ini pytest.ini`) is allowed, and the
# line may run plain `pytest` right after it. pytest finds pytest.ini on its own (no `-c`, no `@`), so the
# pytest rule has nothing to read, and pytest opens its log_file (mode "w") over the task ledger.
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
control "pytest -q -o log_file=$L" "printf '[pytest]\nlog_file = $L\n' > $L"
ledger_case "printf '[pytest]\nlog_file = $L\n' > pytest.ini && pytest -q -p no:cacheprovider"
rm -f pytest.ini
printf '[pytest]\naddopts = --debug=%s\n' "$L" > /tmp/rev18-04-$$.ini
ledger_case "cp /tmp/rev18-04-$$.ini pytest.ini; pytest -q -p no:cacheprovider"
rm -f pytest.ini /tmp/rev18-04-$$.ini
[ $fail = 1 ] && echo "DEFECT: a pytest.ini written by the shell makes the next plain pytest write the ledger"
exit $fail
