#!/usr/bin/env bash
# Defect: harness/core/runner_texts.py TreeFiles.named() (used by harness/evidence/pass_to_pass.py run_by_runners())
# finds the file a runner names only by the path as git lists it. A folder the base holds as a symlink (`scripts ->
# tools`, mode 120000) is one blob, not a folder: the base's Makefile recipe `python scripts/post_report.py ...` names
# `scripts/post_report.py`, which git lists as `tools/post_report.py`, so nothing is protected. The change breaks
# add() and rewrites tools/post_report.py to strip every <failure> from the JUnit report; PASS_TO_PASS puts the base's
# Makefile back, which runs the change's script through the symlink, reads the base's failing test_add as passed, and
# pass_to_pass, gate --advance, DONE, the commit hook, the push guard and `harness audit` accept.
# Correct behaviour: a runner's word is resolved through the base's symlinks (scripts/post_report.py -> the file
# tools/post_report.py), so that file is protected: test_add is lost and the gate refuses DONE.
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
mkdir tests tools .harness && ln -s tools scripts
printf 'def add(a, b):\n    return a + b\n' > calc.py
printf 'from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n' > tests/test_calc.py
cat > tools/post_report.py <<'PY'
import sys
import xml.etree.ElementTree as ET

bad = sum(1 for c in ET.parse(sys.argv[1]).iter("testcase") for ch in c if ch.tag in ("failure", "error"))
print(f"{bad} failing case(s) in {sys.argv[1]}")
sys.exit(1 if bad else 0)
PY
printf '__pycache__/\n.pytest_cache/\n' > .gitignore
printf 'test:\n\tpython -m pytest -q --junitxml=.harness/local/junit.xml tests; python scripts/post_report.py .harness/local/junit.xml\n' > Makefile
cat > .harness/config.yaml <<'YAML'
version: 1
evidence:
  unit_test:
    command: [make, test]
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
cat > tools/post_report.py <<'PY'
import sys
import xml.etree.ElementTree as ET

t = ET.parse(sys.argv[1])
for case in t.iter("testcase"):
    for child in list(case):
        if child.tag in ("failure", "error", "skipped"):
            case.remove(child)
for s in t.iter("testsuite"):
    s.set("failures", "0"); s.set("errors", "0"); s.set("skipped", "0")
t.write(sys.argv[1])
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
if [ "$v" != 5 ]; then echo "DEFECT: DONE, committed, pushed and audited with add(2, 3) == $v: scripts/post_report.py, which the base's Makefile runs through the symlinked folder, was the change's in PASS_TO_PASS"; exit 1; fi
echo "setup: add() not broken"; exit 2
