#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
D=$(cd "$(dirname "$0")" && pwd)  # this folder: common.inc, its helpers
# (4) A failing pytest run whose summary counts no failed test (`1 error`: a test erroring in its setup,
# e.g. a missing fixture) "decided nothing" and is refused as a regression test. But the check reads the
# summary line only when pytest printed one: with `-p no:terminal` (or any option/plugin that drops the
# terminal reporter) the same run exits 1 with no summary and is taken for a FAILED test. A regression test
# whose body never ran (its fixture does not exist) is attached and the finding moves to FIXING, exactly the
# case the change says it refuses (F-0005). The control (same test, without -p no:terminal) is refused.
source "$D"/common.inc
source "$D"/flow.inc
printf 'import app\n\ndef test_double_negative(no_such_fixture):\n    assert app.double(-3) == -6\n' > tests/test_double.py
git add -A && git commit -qm test || exit 2
# control: the summary `1 error` is read and the run refused
harness finding regression F-0001 tests/test_double.py -- "$PY" -m pytest -q -p no:cacheprovider tests/test_double.py >/dev/null 2>&1 \
  && { echo "setup: control attached" >&2; exit 2; }
[ "$(status F-0001)" = CONFIRMED ] || { echo "setup: control moved the finding" >&2; exit 2; }
"$PY" -m pytest -p no:cacheprovider -p no:terminal tests/test_double.py >/dev/null 2>&1; echo "pytest -p no:terminal exit: $?"
harness finding regression F-0001 tests/test_double.py -- "$PY" -m pytest -p no:cacheprovider -p no:terminal tests/test_double.py
echo "attach rc=$?; status: $(status F-0001)"
[ "$(status F-0001)" = FIXING ] && exit 1 || exit 0
