#!/usr/bin/env bash
# Defect (harness/core/suite.py lost_cases; harness/evidence/pass_to_pass.py run/assess): PASS_TO_PASS compares only
# the case ids that passed at the base. A base test parametrized over the code's own registry
# (`@pytest.mark.parametrize("name", sorted(calc.OPS))`, checking every operation against the `operator` module)
# makes a NEW case in the PASS_TO_PASS run when the change registers a new operation: `test_matches_operator[mul]`.
# That case is the base's own protected test run against the change's code, and it FAILS there (the change's mul
# adds) -- yet since the base never had that id, PASS_TO_PASS ignores it and passes, though pytest exited 1. In the
# checkout the agent narrowed the test (`sorted(set(calc.OPS) - {"mul"})`), the very "weakened test" PASS_TO_PASS is
# documented to undo ("the base's own test runs against the new code"); here the base's test does run, fails, and
# nothing reads the failure. The requirement's own new test is weak (mul(2, 2) == 4 holds for addition), so
# fail_to_pass proves it too, and the gate passes with calc's mul returning a + b.
# Correct behaviour: a case of the PASS_TO_PASS run that fails or errors, collected from the base's protected tests,
# blocks even when the base had no case of that id (a new parameter of a base test is the base's test judging the
# new code) -- named as lost/failed, excusable only by `harness approve suite-change`; pass_to_pass then fails
# naming test_matches_operator[mul].
# Exit 1 while the defect is present, 0 when fixed, 2 on a setup failure.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 HOME=$T/home
export GIT_AUTHOR_NAME=D GIT_AUTHOR_EMAIL=d@example.com GIT_COMMITTER_NAME=D GIT_COMMITTER_EMAIL=d@example.com
mkdir -p "$HOME"
command -v harness >/dev/null || { echo "setup failed: no harness in $here/.venv"; exit 2; }
D=$T/w; mkdir -p "$D"
setup() { "$@" >>"$D/log" 2>&1 || { echo "setup failed: $*"; tail -20 "$D/log"; exit 2; }; }
cd "$D"; setup git init -q --bare remote.git
setup git init -q -b main app; cd app; setup git remote add origin ../remote.git
mkdir -p tests .harness
cat > calc.py <<'PY'
def add(a, b):
    return a + b


def sub(a, b):
    return a - b


OPS = {"add": add, "sub": sub}
PY
cat > tests/test_calc.py <<'PY'
import operator

import pytest

import calc


@pytest.mark.parametrize("name", sorted(calc.OPS))
def test_matches_operator(name):
    # every registered operation computes what Python's operator of its name computes
    assert calc.OPS[name](7, 3) == getattr(operator, name)(7, 3)
PY
printf '__pycache__/\n.pytest_cache/\n' > .gitignore
cat > .harness/config.yaml <<'YAML'
version: 1
evidence:
  unit_test:
    command: ["python", "-m", "pytest", "-q", "tests", "--junitxml=.harness/local/junit.xml"]
    junit: .harness/local/junit.xml
YAML
setup harness init; setup harness install; setup git add -A; setup git commit -qm init
setup git push -q origin main; setup git remote set-head origin main
grep -q '^ *suite:' .harness/gate.yaml || { echo "setup failed: gate.yaml has no suite section"; exit 2; }
setup harness task new "Add mul"
setup harness requirement add "calc registers mul, the product of two numbers" --priority must
for s in SPECIFYING PLANNED IMPLEMENTING; do setup harness transition $s; done
# the change: a WRONG mul registered, the base's generic test narrowed in the checkout, a weak new test
cat > calc.py <<'PY'
def add(a, b):
    return a + b


def sub(a, b):
    return a - b


def mul(a, b):
    return a + b


OPS = {"add": add, "sub": sub, "mul": mul}
PY
sed -i 's/sorted(calc.OPS)/sorted(set(calc.OPS) - {"mul"})/' tests/test_calc.py
printf 'import calc\n\n\ndef test_mul():\n    assert calc.OPS["mul"](2, 2) == 4\n' > tests/test_mul.py
setup harness transition VERIFYING
setup harness evidence unit_test
setup harness requirement set REQ-001 --status verified --evidence unit_test --tests tests/test_mul.py::test_mul
# the base's own test, run as it was committed, fails on the change's code
mkdir -p "$D/basetests"; git show main:tests/test_calc.py > "$D/basetests/test_calc_base.py"
if python -m pytest -q -p no:cacheprovider "$D/basetests/test_calc_base.py" >>"$D/log" 2>&1; then
  echo "setup failed: the base's test passes on the change's code"; exit 2
fi
if harness evidence pass_to_pass >>"$D/log" 2>&1; then
  setup harness evidence fail_to_pass
  setup harness transition REVIEWING; setup harness transition GATING
  gate=refused; harness gate --advance >>"$D/log" 2>&1 && gate=passed
  echo "DEFECT: pass_to_pass passed (gate: $gate) though the base's own test_matches_operator[mul], run in its"
  echo "        worktree against the change's code, failed (mul(7, 3) returned 10): a case id the base did not have"
  echo "        is never judged"
  exit 1
fi
grep -q "test_matches_operator\[mul\]" "$D/log" && { echo "fixed: pass_to_pass failed naming test_matches_operator[mul]"; exit 0; }
echo "setup failed: pass_to_pass failed for another reason"; tail -15 "$D/log"; exit 2
