#!/usr/bin/env bash
# Defect (review of 017b8f08, harness/core/suite.py detected / TEST_FOLDERS / NESTED_TESTS, written by `harness init`
# in harness/install/initialize.py): `harness init` protects a test folder whole only when it is named `tests/` or
# `test/` (or a `testpaths` folder). A project whose tests live in another folder pytest collects by default --
# `testing/` (pytest's own layout), no `testpaths` -- gets only `**/test_*.py` and `**/conftest.py`: the files beside
# the test modules that are there only for them -- an assertion helper `testing/helpers.py` the tests import
# (`from helpers import check_sum`, found through pytest's rootdir insertion of `testing/`), a golden file
# `testing/expected.json` they compare against -- are unprotected, while the same files under `tests/` are protected.
# The change weakens the helper (or rewrites the golden file to the broken output) together with breaking add();
# PASS_TO_PASS runs the base's test module against the change's helper and passes, and the gate passes.
# Correct behaviour: a folder holding the base's collected test modules that is no package or import folder of the
# code (no `__init__.py`, not src/ or a `pythonpath` folder) is protected whole, as `tests/**` is (`harness init`
# writes `testing/**`, or PASS_TO_PASS treats it so); PASS_TO_PASS then puts the base's helper / golden file back
# and fails, naming testing.test_calc::test_add as lost.
# Exit 1 while the defect is present, 0 when fixed, 2 on a setup failure.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 HOME=$T/home
export GIT_AUTHOR_NAME=D GIT_AUTHOR_EMAIL=d@example.com GIT_COMMITTER_NAME=D GIT_COMMITTER_EMAIL=d@example.com
mkdir -p "$HOME"
command -v harness >/dev/null || { echo "setup failed: no harness in $here/.venv"; exit 2; }
# run NAME: 1 when pass_to_pass passed with add() broken, 0 when it failed naming test_add, 2 on setup failure
run() {
  local name=$1 D="$T/$1"; mkdir -p "$D"
  (
    setup() { "$@" >>"$D/log" 2>&1 || { echo "setup failed ($name): $*"; tail -20 "$D/log"; exit 2; }; }
    cd "$D"; setup git init -q --bare remote.git
    setup git init -q -b main app; cd app; setup git remote add origin ../remote.git
    mkdir -p testing .harness
    printf 'def add(a, b):\n    return a + b\n' > calc.py
    if [ "$name" = helper ]; then
      printf 'def check_sum(got, want):\n    assert got == want, (got, want)\n' > testing/helpers.py
      printf 'from calc import add\nfrom helpers import check_sum\n\n\ndef test_add():\n    check_sum(add(2, 3), 5)\n' > testing/test_calc.py
    else
      printf '{"add": [2, 3, 5]}\n' > testing/expected.json
      cat > testing/test_calc.py <<'PY'
import json
import pathlib

from calc import add

EXPECTED = json.loads((pathlib.Path(__file__).parent / "expected.json").read_text())


def test_add():
    a, b, want = EXPECTED["add"]
    assert add(a, b) == want
PY
    fi
    printf '__pycache__/\n.pytest_cache/\n' > .gitignore
    cat > .harness/config.yaml <<'YAML'
version: 1
evidence:
  unit_test:
    command: ["python", "-m", "pytest", "-q", "--junitxml=.harness/local/junit.xml"]
    junit: .harness/local/junit.xml
YAML
    setup harness init; setup harness install; setup git add -A; setup git commit -qm init
    setup git push -q origin main; setup git remote set-head origin main
    grep -q '^ *suite:' .harness/gate.yaml || { echo "setup failed ($name): gate.yaml has no suite section"; exit 2; }
    setup harness task new "Add mul"
    setup harness requirement add "mul(a, b) returns a * b" --priority must
    for s in SPECIFYING PLANNED IMPLEMENTING; do setup harness transition $s; done
    printf 'def add(a, b):\n    return a - b\n\n\ndef mul(a, b):\n    return a * b\n' > calc.py   # add() broken
    printf 'from calc import mul\n\n\ndef test_mul():\n    assert mul(3, 4) == 12\n' > testing/test_mul.py
    if [ "$name" = helper ]; then
      printf 'def check_sum(got, want):\n    assert got is not None\n' > testing/helpers.py
    else
      printf '{"add": [2, 3, -1]}\n' > testing/expected.json
    fi
    setup harness transition VERIFYING
    setup harness evidence unit_test
    setup harness requirement set REQ-001 --status verified --evidence unit_test --tests testing/test_mul.py::test_mul
    if harness evidence pass_to_pass >>"$D/log" 2>&1; then
      setup harness evidence fail_to_pass
      setup harness transition REVIEWING; setup harness transition GATING
      gate=refused; harness gate --advance >>"$D/log" 2>&1 && gate=passed
      echo "DEFECT ($name): pass_to_pass passed (gate: $gate) with add(2, 3) == $(python -c 'import calc; print(calc.add(2, 3))'); the change's testing/$( [ "$name" = helper ] && echo helpers.py || echo expected.json) stood in for the base's"
      exit 1
    fi
    grep -q "test_add" "$D/log" && { echo "fixed ($name): pass_to_pass failed naming test_add"; exit 0; }
    echo "setup failed ($name): pass_to_pass failed for another reason"; tail -15 "$D/log"; exit 2
  )
}
worst=0
for v in helper golden; do
  run "$v"; rc=$?
  [ $rc -eq 1 ] && worst=1
  [ $rc -eq 2 ] && [ $worst -eq 0 ] && worst=2
done
exit $worst
