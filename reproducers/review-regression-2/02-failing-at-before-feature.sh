#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
D=$(cd "$(dirname "$0")" && pwd)  # this folder: common.inc, its helpers
# `finding regression F PATH --failing-at COMMIT` accepts any COMMIT in HEAD's history where the command
# fails, for any reason. For a VERIFIED finding an agent replaces its real regression test with one that
# asserts nothing about the bug (`import app` inside a test) and gives --failing-at the repository's first
# commit, before app.py existed: there the test fails with ModuleNotFoundError ("1 failed"), now it passes.
# finding.regression_replaced is recorded, the finding stays VERIFIED with regression capture kept, and
# the recorded regression test passes with the bug put back. Nothing checks that COMMIT has the bug (e.g.
# that the finding's confirming reproducer fails there) or that the failure is the bug's.
source "$D"/common.inc
source "$D"/flow.inc
FIRST=$(git rev-list --max-parents=0 HEAD) || exit 2
printf 'import app\n\ndef test_double_negative():\n    assert app.double(-3) == -6\n' > tests/test_double.py
git add -A && git commit -qm test || exit 2
harness finding regression F-0001 tests/test_double.py -- "$PY" -m pytest -q -p no:cacheprovider tests/test_double.py >/dev/null 2>&1 || exit 2
to_verified >/dev/null 2>&1 || exit 2
[ "$(status F-0001)" = VERIFIED ] || { echo "setup: not VERIFIED" >&2; exit 2; }
git add -A && git commit -qm fix || exit 2
printf 'def test_double_negative():\n    import app  # nothing about double(-3)\n' > tests/test_nothing.py
# control: on the buggy code this test passes — it cannot catch the bug
printf 'def double(x):\n    return x + x if x > 0 else 0\n' > app.py
"$PY" -m pytest -q -p no:cacheprovider tests/test_nothing.py >/dev/null 2>&1 || { echo "setup: control" >&2; exit 2; }
git checkout -q HEAD -- app.py || exit 2
harness finding regression F-0001 tests/test_nothing.py --failing-at "$FIRST" -- "$PY" -m pytest -q -p no:cacheprovider tests/test_nothing.py
echo "replace rc=$?"
reg=$(python -c 'import sys,yaml; r=yaml.safe_load(open(sys.argv[1]))["regression_test"]; print(r["path"], r.get("failing_at"))' ".harness/tasks/$TID/findings/F-0001.yaml")
echo "status: $(status F-0001); regression test now: $reg"
case "$reg" in tests/test_nothing.py*) exit 1;; *) exit 0;; esac
