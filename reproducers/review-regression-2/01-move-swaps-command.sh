#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
D=$(cd "$(dirname "$0")" && pwd)  # this folder: common.inc, its helpers
# A regression test file "moved unchanged" (git mv, bytes equal HEAD's at the old path) is taken without a
# failing run, but the COMMAND given with the move is not compared with the old one: any command that
# names the new path and exits 0 replaces it. An agent moves a real regression test and passes a no-op
# (`python -c pass tests/test_moved.py`): finding.regression_moved is recorded, the finding keeps its
# regression test (regression capture) and reaches VERIFIED with a test command that tests nothing —
# with the bug put back, the recorded regression command still passes.
source "$D"/common.inc
source "$D"/flow.inc
printf 'import app\n\ndef test_double_negative():\n    assert app.double(-3) == -6\n' > tests/test_double.py
git add -A && git commit -qm test || exit 2
harness finding regression F-0001 tests/test_double.py -- "$PY" -m pytest -q -p no:cacheprovider tests/test_double.py >/dev/null 2>&1 || exit 2
[ "$(status F-0001)" = FIXING ] || { echo "setup: not FIXING" >&2; exit 2; }
git mv tests/test_double.py tests/test_moved.py || exit 2
# the finding is FIXED (fix claimed), not yet verified: the move comes with another command
printf 'def double(x):\n    return x + x\n' > app.py
harness finding fixed F-0001 >/dev/null 2>&1 || exit 2
harness finding regression F-0001 tests/test_moved.py -- "$PY" -c pass tests/test_moved.py; echo "move rc=$?"
rec=$(python -c 'import sys,yaml; print(yaml.safe_load(open(sys.argv[1]))["regression_test"]["command"])' ".harness/tasks/$TID/findings/F-0001.yaml")
echo "recorded regression command: $rec"
harness evidence build -- "$PY" -m py_compile app.py >/dev/null 2>&1
harness evidence unit_test -- "$PY" -m pytest -q -p no:cacheprovider tests >/dev/null 2>&1
harness finding verify F-0001 >/dev/null 2>&1; echo "status: $(status F-0001)"
# put the bug back: the recorded regression command still passes
printf 'def double(x):\n    return x + x if x > 0 else 0\n' > app.py
bash -c "$rec" >/dev/null 2>&1 && echo "recorded regression command passes on the buggy code"
case "$rec" in *pytest*) exit 0;; *) exit 1;; esac
