#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# `-o NAME=VALUE` is read by pytest_writes._valued only for the keys log_file and cache_dir (INI_WRITTEN,
# INI_EMPTIED); any other key is dropped. But `addopts` is an ini key like any other: pytest (Config.parse)
# takes `self.getini("addopts")`, which honours -o, and prepends those words to its arguments. So
# `pytest -o addopts=--debug=LEDGER` (or `-o 'addopts=--basetemp=.harness'`, `-qoaddopts=…`) hides every
# writing option inside the -o value: the judge allows it, and pytest overwrites the task ledger with its
# debug trace / rm -rf's the whole .harness/ folder. A plain one-command pytest line: no file, no env needed.
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
control "pytest -q --debug=$L" "pytest -q -o log_file=$L" "pytest -q -o cache_dir=.harness"
mkdir -p tests && printf 'def test_a(tmp_path):\n    pass\n' > tests/test_a.py
ledger_case "pytest -q -p no:cacheprovider -o addopts=--debug=$L tests"
ledger_case "pytest -q -p no:cacheprovider -o 'addopts=--log-file $L' tests"
a=$(hk "pytest -q -p no:cacheprovider -o addopts=--basetemp=.harness tests")
echo "guard: $a : pytest -q -p no:cacheprovider -o addopts=--basetemp=.harness tests"
if [ "$a" = allow ]; then
  ( timeout 30 pytest -q -p no:cacheprovider -o addopts=--basetemp=.harness tests ) >/dev/null 2>&1
  [ -f "$L" ] || { echo "ledger gone: .harness holds: $(ls -A .harness | tr '\n' ' ')"; fail=1; }
fi
[ $fail = 1 ] && echo "DEFECT: -o addopts=… smuggles pytest's writing options past the guard"
exit $fail
