#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# The implementer's own read of the F-0137 fix: a shell write of pytest's configuration is refused only
# inside the repository. pytest finds its configuration in the folder it runs in and above it, so a
# pytest.ini written outside the repository (`/tmp/x/pytest.ini`, holding an absolute log_file or --debug
# path into the repository's record) and a pytest run there overwrite the ledger, unjudged.
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
out="$T/elsewhere"; mkdir -p "$out" || exit 2
printf 'def test_t():\n    pass\n' > "$out/test_t.py"
ledger_case "printf '[pytest]\\naddopts = --debug=$R/$L\\n' > $out/pytest.ini && cd $out && pytest -q -p no:cacheprovider"
[ $fail = 1 ] && echo "DEFECT: a pytest.ini written outside the repository reaches the ledger"
exit $fail
