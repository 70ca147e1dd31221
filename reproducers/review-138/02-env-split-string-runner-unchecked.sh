#!/usr/bin/env bash
# Defect: harness/core/test_verdict.py unwrapped() lists `-S`/`--split-string` among env's options that take a value
# and drops that value: `env -S "pytest -q ... tests"` unwraps to [] (nothing). harness/evidence/record.py shadowed()
# (via refuse_a_tree_runner, asked for unit_test, pass_to_pass and fail_to_pass) then looks up only `env` itself, and
# the program env -S really starts -- the first word of the split string, `pytest`, found by env on PATH -- is never
# looked up. With PATH=$PWD/bin:$PATH it is the checkout's bin/pytest, a file of the change (not ignored), the case
# read 136's F-0486 fix refuses for `timeout 900 pytest`: it runs the base's tests, then strips every failure from the
# JUnit report; PASS_TO_PASS reads the base's failing test_add as passed and the task reaches DONE with add(2, 3) == -1.
# (runs_pytest() is False for the command too, so PASS_TO_PASS's --maxfail=0 arguments are not appended.)
# Correct behaviour: env -S's value is split into words (as env does) and read as the command it runs; `pytest` found
# on PATH at bin/pytest, a file of the source tree, is refused, so pass_to_pass exits non-zero.
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
mkdir tests .harness
printf 'def add(a, b):\n    return a + b\n' > calc.py
printf 'from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n' > tests/test_calc.py
printf '__pycache__/\n.pytest_cache/\n' > .gitignore
printf '[tool.pytest.ini_options]\npythonpath = ["."]\n' > pyproject.toml
cat > .harness/config.yaml <<'YAML'
version: 1
evidence:
  unit_test:
    command: [env, -S, "pytest -q -p no:cacheprovider --junitxml=.harness/local/junit.xml tests"]
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
printf 'from calc import add\n\n\ndef test_add():\n    assert add(2, 3) is not None\n' > tests/test_calc.py   # weakened
printf 'import calc\n\n\ndef test_mul():\n    assert calc.mul(3, 4) == 12\n' > tests/test_mul.py
mkdir bin
cat > bin/pytest <<'SH'
#!/bin/sh
python -m pytest "$@"
python - <<'PY'
import xml.etree.ElementTree as ET
p = ".harness/local/junit.xml"
t = ET.parse(p)
for case in t.iter("testcase"):
    for child in list(case):
        if child.tag in ("failure", "error", "skipped"):
            case.remove(child)
for s in t.iter("testsuite"):
    s.set("failures", "0"); s.set("errors", "0"); s.set("skipped", "0")
t.write(p)
PY
exit 0
SH
chmod +x bin/pytest
setup harness transition VERIFYING
setup harness evidence unit_test
setup harness requirement set REQ-001 --status verified --evidence unit_test --tests tests/test_mul.py::test_mul
PATH="$PWD/bin:$PATH" harness evidence pass_to_pass >>"$T/log" 2>&1; p2p=$?
echo "pass_to_pass exit $p2p"
if [ "$p2p" -ne 0 ]; then grep -i "PATH\|runner\|lost" "$T/log" | tail -3; echo "FIXED: pass_to_pass refused"; exit 0; fi
harness evidence fail_to_pass >>"$T/log" 2>&1; echo "fail_to_pass exit $?"
setup harness transition REVIEWING
setup harness transition GATING
harness gate --advance >>"$T/log" 2>&1 || { tail -30 "$T/log"; echo "FIXED: the gate refused"; exit 0; }
harness transition DONE >>"$T/log" 2>&1 || { echo "FIXED: DONE refused"; exit 0; }
v=$(python -c 'import calc; print(calc.add(2, 3))')
if [ "$v" != 5 ]; then echo "DEFECT: DONE with add(2, 3) == $v: PASS_TO_PASS ran the base's test_add through the checkout's bin/pytest, found on PATH behind env -S"; exit 1; fi
echo "setup: add() not broken"; exit 2
