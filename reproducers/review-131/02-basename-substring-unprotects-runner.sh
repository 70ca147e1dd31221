#!/usr/bin/env bash
# Defect: harness/evidence/pass_to_pass.py _Tested.reaches() takes a file as code under test (never protected, so the
# change's copy runs in PASS_TO_PASS) when its base name occurs as a SUBSTRING anywhere in any base test file's text
# (`any(name in text for text in self.texts)`): no word boundary, no path, comments and docstrings included. The base's
# test command is `python scripts/test.py` (a runner script: runs pytest, writes the JUnit report); the base's
# tests/conftest.py only says in its docstring that "a folder's own conftest.py adds its fixtures" - and "conftest.py"
# contains "test.py". So run_by_runners() drops scripts/test.py, the very script config.yaml names, from the protected
# files. The change breaks add() and rewrites scripts/test.py to strip every <failure> from the report; PASS_TO_PASS
# runs the change's runner and reads the base's failing test_add as passed: pass_to_pass, gate --advance, DONE, the
# commit hook, the push guard and `harness audit` all accept. (A docstring or comment that merely mentions
# "run_tests.py" does the same to scripts/run_tests.py.)
# Correct behaviour: a test "names" a file only where a word of its text is that file's name or path (and arguably
# only where it runs it); scripts/test.py stays protected, test_add is lost and the gate refuses DONE.
# Exit 1 while the defect is present, 0 when fixed, 2 on a setup failure.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 HOME=$T/home
export GIT_AUTHOR_NAME=D GIT_AUTHOR_EMAIL=d@example.com GIT_COMMITTER_NAME=D GIT_COMMITTER_EMAIL=d@example.com
mkdir -p "$HOME"
setup() { "$@" >>"$T/log" 2>&1 || { echo "setup failed: $*"; tail -20 "$T/log"; exit 2; }; }
cd "$T" && setup git init -q --bare remote.git && setup git clone -q remote.git app && cd app
setup git checkout -q -b main
mkdir tests scripts .harness
printf 'def add(a, b):\n    return a + b\n' > calc.py
printf 'from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n' > tests/test_calc.py
cat > scripts/test.py <<'PY'
import subprocess
import sys

sys.exit(subprocess.call([sys.executable, "-m", "pytest", "-q", "--junitxml=.harness/local/junit.xml", "tests"]))
PY
printf '"""Fixtures shared by every test; a folder\x27s own conftest.py adds its fixtures."""\n' > tests/conftest.py
printf '__pycache__/\n.pytest_cache/\n' > .gitignore
cat > .harness/config.yaml <<'YAML'
version: 1
evidence:
  unit_test:
    command: ["python", "scripts/test.py"]
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
# The weakening: the script the protected runner starts launders the report.
cat > scripts/test.py <<'PY'
import subprocess
import sys
import xml.etree.ElementTree as ET

subprocess.call([sys.executable, "-m", "pytest", "-q", "--junitxml=.harness/local/junit.xml", "tests"])
t = ET.parse(".harness/local/junit.xml")
for case in t.iter("testcase"):
    for child in list(case):
        if child.tag in ("failure", "error", "skipped"):
            case.remove(child)
for s in t.iter("testsuite"):
    s.set("failures", "0"); s.set("errors", "0"); s.set("skipped", "0")
t.write(".harness/local/junit.xml")
sys.exit(0)
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
if [ "$v" != 5 ]; then echo "DEFECT: DONE, committed, pushed and audited with add(2, 3) == $v: scripts/test.py, the runner config.yaml names, was the change's in PASS_TO_PASS (its name is a substring of \"conftest.py\" in a base docstring)"; exit 1; fi
echo "setup: add() not broken"; exit 2
