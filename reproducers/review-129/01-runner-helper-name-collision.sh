#!/usr/bin/env bash
# Defect: harness/evidence/pass_to_pass.py run_by_runners() drops a code file a runner names whenever ANY name
# runner_texts.module_names() gives it (every tail of its dotted path: scripts/helpers.py is `scripts.helpers` and
# `helpers`) is among the names the base's tests import (_imported_by). Tests that import their own test helper
# (`from helpers import ...`, tests/helpers.py found through pytest's rootdir insertion) put `helpers` in that set, so a
# runner's own helper of the same short name elsewhere (scripts/helpers.py, imported by the protected runner
# scripts/run_tests.py) is taken for "the code under test" and left unprotected, though no test imports it.
# The base's Makefile runs `python scripts/run_tests.py`, which runs pytest and hands the JUnit report to
# scripts/helpers.py tidy(). The change breaks add() and rewrites scripts/helpers.py to strip every <failure>;
# PASS_TO_PASS puts the base's Makefile and run_tests.py back, runs the change's scripts/helpers.py, and reads the
# base's failing test_add as passed: pass_to_pass, gate --advance, DONE, the commit hook, the push guard and
# `harness audit` all accept.
# Correct behaviour: a module is the code under test only when the base's tests import THAT file (its name resolved
# against the folders it is imported from), not when some test imports another file of the same short name;
# scripts/helpers.py stays protected, test_add is lost, the gate refuses DONE.
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
mkdir tests scripts .harness
printf 'def add(a, b):\n    return a + b\n' > calc.py
# The tests' own helper module, imported by its short name (pytest's rootdir insertion puts tests/ on sys.path).
printf 'def pair():\n    return 2, 3\n' > tests/helpers.py
printf 'from calc import add\nfrom helpers import pair\n\n\ndef test_add():\n    assert add(*pair()) == 5\n' > tests/test_calc.py
printf 'test:\n\tpython scripts/run_tests.py\n' > Makefile
cat > scripts/run_tests.py <<'PY'
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import helpers  # noqa: E402  (scripts/helpers.py: the runner's own helper)

rc = subprocess.call([sys.executable, "-m", "pytest", "-q", "--junitxml=.harness/local/junit.xml", "tests"])
sys.exit(helpers.tidy(".harness/local/junit.xml", rc))
PY
printf 'def tidy(path, rc):\n    return rc  # normalises the report: a no-op here\n' > scripts/helpers.py
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
printf 'def add(a, b):\n    return a - b\n\n\ndef mul(a, b):\n    return a * b\n' > calc.py   # add() broken
printf 'from calc import mul\n\n\ndef test_mul():\n    assert mul(3, 4) == 12\n' > tests/test_mul.py
# The weakening: the runner's helper, named like the tests' helper, launders the report.
cat > scripts/helpers.py <<'PY'
import xml.etree.ElementTree as ET


def tidy(path, rc):
    t = ET.parse(path)
    for case in t.iter("testcase"):
        for child in list(case):
            if child.tag in ("failure", "error", "skipped"):
                case.remove(child)
    for s in t.iter("testsuite"):
        s.set("failures", "0"); s.set("errors", "0"); s.set("skipped", "0")
    t.write(path)
    return 0
PY
setup harness transition VERIFYING
harness evidence unit_test >>"$T/log" 2>&1; echo "unit_test exit $?"
setup harness requirement set REQ-001 --status verified --evidence unit_test --tests tests/test_mul.py::test_mul
harness evidence pass_to_pass >>"$T/log" 2>&1; p2p=$?
echo "pass_to_pass exit $p2p"
if [ "$p2p" -ne 0 ]; then grep -i "lost\|protected\|test_add" "$T/log" | tail -5; echo "FIXED: pass_to_pass refused"; exit 0; fi
harness evidence fail_to_pass >>"$T/log" 2>&1; echo "fail_to_pass exit $?"
setup harness transition REVIEWING
setup harness transition GATING
harness gate --advance >>"$T/log" 2>&1 || { tail -30 "$T/log"; echo "FIXED: the gate refused"; exit 0; }
harness transition DONE >>"$T/log" 2>&1 || { echo "FIXED: DONE refused"; exit 0; }
git add -A && git commit -qm "mul" >>"$T/log" 2>&1 || { echo "FIXED: the commit hook refused"; exit 0; }
git push -q origin main >>"$T/log" 2>&1 || { echo "FIXED: the push guard refused"; exit 0; }
harness audit >>"$T/log" 2>&1 || { echo "FIXED: harness audit refused"; exit 0; }
v=$(python -c 'import calc; print(calc.add(2, 3))')
if [ "$v" != 5 ]; then echo "DEFECT: DONE, committed, pushed and audited with add(2, 3) == $v: scripts/helpers.py, the protected runner's helper, was taken for code under test because the tests import their own tests/helpers.py as 'helpers'"; exit 1; fi
echo "setup: add() not broken"; exit 2
