#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
D=$(cd "$(dirname "$0")" && pwd)  # this folder: common.inc, its helpers
# A regression test whose test never ran its body is attached: a plain `python -m pytest FILE` run in
# which the only test ERRORS at setup (it asks for a fixture that does not exist) exits 1, the same code
# as a failing assertion, and `finding regression` takes it for "fails now". No line of the test ran, so
# nothing about the defect was shown; #28's F-0052 refused exactly this for exit 2-5 ("no test ran to a
# verdict") but an error at setup, in a fixture or in conftest is exit 1. The fixture is added later and
# any body carries the finding to VERIFIED (here `assert True`), counted as regression capture.
# Exit 1 while the setup-error run attaches (FIXING); 0 when it is refused; 2 on setup failure.
source "$D"/common.inc
source "$D"/flow.inc
printf 'import app\n\ndef test_double_negative(no_such_fixture):\n    assert app.double(-3) == -6\n' > tests/test_reg.py
git add -A; git commit -qm 'regression test' >/dev/null 2>&1 || exit 2
out=$(cd "$R" && "$PY" -m pytest -q -p no:cacheprovider tests/test_reg.py 2>&1); prc=$?
grep -q "fixture 'no_such_fixture' not found" <<<"$out" && grep -q "1 error" <<<"$out" && ! grep -q failed <<<"$out" \
  || { echo "setup: the run is not a setup error" >&2; exit 2; }
echo "pytest alone: exit $prc, $(tail -1 <<<"$out")"
harness finding regression F-0001 tests/test_reg.py -- "$PY" -m pytest -q -p no:cacheprovider tests/test_reg.py >/dev/null 2>&1
echo "finding regression rc=$? F-0001 $(status F-0001)"
[ "$(status F-0001)" = FIXING ] || exit 0
printf 'import pytest\n\n@pytest.fixture\ndef no_such_fixture():\n    return None\n\ndef test_double_negative(no_such_fixture):\n    assert True\n' > tests/test_reg.py
to_verified >/dev/null 2>&1; echo "after fix + fixture + 'assert True': F-0001 $(status F-0001)"
exit 1
