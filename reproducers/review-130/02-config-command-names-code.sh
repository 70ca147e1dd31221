#!/usr/bin/env bash
# Defect: harness/evidence/pass_to_pass.py protected_changes() protects every file a configured command names
# (suite.named_files) whole, before run_by_runners() judges whether the base's tests reach it: the F-0453 rule ("code
# the base's tests reach is never protected") is applied only to what a runner TEXT names, not to what config.yaml's
# own commands name. A project whose config.yaml has a smoke step running the code under test (`custom.smoke: {command:
# [python, calc.py]}`, or a `typecheck: [mypy, calc.py]`) makes calc.py - the module tests/test_calc.py imports - a
# protected file: PASS_TO_PASS puts the BASE's calc.py back and measures the base's tests on it. The change breaks add()
# in calc.py and deletes the base's test_add (so the checkout's own unit_test run passes); the new mul() lives in
# ops.py. PASS_TO_PASS restores test_add AND the base's calc.py, so test_add passes; pass_to_pass, gate --advance,
# DONE, the commit hook, the push guard and `harness audit` all accept a tree whose add(2, 3) is -1.
# (The reverse hurts an honest change: mul() added to calc.py with its test is refused by FAIL_TO_PASS, which runs the
# change's "protected" calc.py as the base's source.)
# Correct behaviour: the code under test stays the change's in PASS_TO_PASS whoever names it, a configured command
# included, so the restored test_add fails on the broken add(): the gate refuses DONE.
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
printf 'def add(a, b):\n    return a + b\n\n\nif __name__ == "__main__":\n    print(add(2, 3))\n' > calc.py
printf 'from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n' > tests/test_calc.py
printf '__pycache__/\n.pytest_cache/\n' > .gitignore
cat > .harness/config.yaml <<'YAML'
version: 1
evidence:
  unit_test:
    command: ["python", "-m", "pytest", "-q", "--junitxml=.harness/local/junit.xml", "tests"]
    junit: .harness/local/junit.xml
  custom.smoke:
    command: ["python", "calc.py"]
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
printf 'def add(a, b):\n    return a - b\n\n\nif __name__ == "__main__":\n    print(add(2, 3))\n' > calc.py   # add() broken
printf 'def mul(a, b):\n    return a * b\n' > ops.py
printf 'from ops import mul\n\n\ndef test_mul():\n    assert mul(3, 4) == 12\n' > tests/test_mul.py
git rm -q tests/test_calc.py   # the base's test of add() deleted, so the checkout's run passes
setup harness transition VERIFYING
harness evidence unit_test >>"$T/log" 2>&1; echo "unit_test exit $?"
harness evidence custom.smoke >>"$T/log" 2>&1; echo "custom.smoke exit $?"
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
if [ "$v" != 5 ]; then echo "DEFECT: DONE, committed, pushed and audited with add(2, 3) == $v and test_add deleted: calc.py, the code the base's tests import, is protected because config.yaml's smoke command names it"; exit 1; fi
echo "setup: add() not broken"; exit 2
