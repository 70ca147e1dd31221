#!/usr/bin/env bash
# Defect: harness/evidence/pass_to_pass.py run_by_runners() / _imported_by() keep a code file out of the protected set
# only when one of its module names is imported by a base test file directly; code the tests reach through a package's
# `__init__` (tests: `from myapp import add`; myapp/__init__.py: `from myapp.core import add`) is not "the code under
# test" to it. A smoke step in the base's Makefile, `python -m myapp.cli --selftest`, makes myapp/cli.py a runner
# script; its import of myapp.core is followed and myapp/core.py, the code under test, is protected. PASS_TO_PASS then
# puts the BASE's myapp/core.py back and measures the base's tests on the base's code: the change breaks add() in
# myapp/core.py and drops test_add from its own tests, unit_test passes, PASS_TO_PASS passes (the base's add runs),
# and gate --advance, DONE, the commit hook, the push guard and `harness audit` accept a tree where add(2, 3) == -1.
# (The other face: an honest new function in myapp/core.py fails FAIL_TO_PASS's "fails without the change" only if
# core.py is put back; here it is the protected list that is wrong.)
# Correct behaviour: the code under test is what the base's tests import, followed through the packages and modules
# they import (myapp/__init__.py imports myapp.core), or at least never a file of the package the tests import; the
# change's myapp/core.py is measured, test_add is lost, PASS_TO_PASS fails.
# Exit 1 while the defect is present, 0 when fixed, 2 on a setup failure.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 HOME=$T/home
export GIT_AUTHOR_NAME=D GIT_AUTHOR_EMAIL=d@example.com GIT_COMMITTER_NAME=D GIT_COMMITTER_EMAIL=d@example.com
mkdir -p "$HOME"
command -v make >/dev/null || { echo "setup: make missing"; exit 2; }
setup() { "$@" >>"$T/log" 2>&1 || { echo "setup failed: $*"; tail -20 "$T/log"; exit 2; }; }
cd "$T" && setup git init -q --bare remote.git && setup git clone -q remote.git app && cd app
setup git checkout -q -b main
mkdir tests myapp .harness
printf 'def add(a, b):\n    return a + b\n' > myapp/core.py
printf 'from myapp.core import add\n\n__all__ = ["add"]\n' > myapp/__init__.py
cat > myapp/cli.py <<'PY'
import sys

from myapp.core import add

if __name__ == "__main__" and "--selftest" in sys.argv:
    print("selftest", add(1, 1))
PY
printf 'from myapp import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n' > tests/test_calc.py
printf 'test:\n\tpython -m pytest -q --junitxml=.harness/local/junit.xml tests\n\tpython -m myapp.cli --selftest\n' > Makefile
printf '__pycache__/\n.pytest_cache/\n' > .gitignore
cat > .harness/config.yaml <<'YAML'
version: 1
evidence:
  unit_test:
    command: ["make", "test"]
    junit: .harness/local/junit.xml
YAML
setup harness init
setup harness install
setup git add -A
setup git commit -qm init
setup git push -q origin main
setup git remote set-head origin main
setup harness task new "Add mul"
setup harness requirement add "mul(a, b) returns a * b" --priority must
for s in SPECIFYING PLANNED IMPLEMENTING; do setup harness transition $s; done
printf 'def add(a, b):\n    return a - b\n' > myapp/core.py   # add() broken
printf 'def mul(a, b):\n    return a * b\n' > myapp/ops.py
# The weakening: test_add dropped from the change's tests (PASS_TO_PASS puts it back -- with the base's core.py).
printf 'from myapp.ops import mul\n\n\ndef test_mul():\n    assert mul(3, 4) == 12\n' > tests/test_calc.py
setup harness transition VERIFYING
harness evidence unit_test >>"$T/log" 2>&1; echo "unit_test exit $?"
setup harness requirement set REQ-001 --status verified --evidence unit_test --tests tests/test_calc.py::test_mul
harness evidence pass_to_pass >>"$T/log" 2>&1; p2p=$?
echo "pass_to_pass exit $p2p"
grep -i "protected file" "$T/log" | tail -2
if [ "$p2p" -ne 0 ]; then grep -i "lost\|test_add" "$T/log" | tail -5; echo "FIXED: pass_to_pass refused"; exit 0; fi
harness evidence fail_to_pass >>"$T/log" 2>&1; echo "fail_to_pass exit $?"
setup harness transition REVIEWING
setup harness transition GATING
harness gate --advance >>"$T/log" 2>&1 || { tail -30 "$T/log"; echo "FIXED: the gate refused"; exit 0; }
harness transition DONE >>"$T/log" 2>&1 || { echo "FIXED: DONE refused"; exit 0; }
git add -A && git commit -qm "mul" >>"$T/log" 2>&1 || { echo "FIXED: the commit hook refused"; exit 0; }
git push -q origin main >>"$T/log" 2>&1 || { echo "FIXED: the push guard refused"; exit 0; }
harness audit >>"$T/log" 2>&1 || { echo "FIXED: harness audit refused"; exit 0; }
v=$(python -c 'import myapp; print(myapp.add(2, 3))')
if [ "$v" != 5 ]; then echo "DEFECT: DONE, committed, pushed and audited with add(2, 3) == $v: PASS_TO_PASS put the base's myapp/core.py (the code under test, reached by the tests through myapp/__init__.py) back, as the smoke step's myapp/cli.py imports it"; exit 1; fi
echo "setup: add() not broken"; exit 2
