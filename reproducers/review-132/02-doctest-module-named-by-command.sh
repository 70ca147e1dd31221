#!/usr/bin/env bash
# Defect: harness/evidence/pass_to_pass.py protected_changes() builds the `tests` list _Tested judges the code under
# test by from suite.paths and pytest's collected patterns only. A module the base's configured test command hands
# pytest by name to collect (`python -m pytest --doctest-modules calc.py tests`: its doctests are base cases) is not
# among them, so when the base's tests do not import it, run_by_runners() keeps it as a file "the configured command
# names" and protects it, like a script. Protected and changed, it is put back as the base has it in PASS_TO_PASS, and
# doctests_rewritten() skips it (`p not in changed`). So the change breaks add() and rewrites its doctest to expect
# the broken value: unit_test passes (the change's doctest on the change's code), PASS_TO_PASS passes (the base's
# doctest on the base's code: the change's calc.py never runs), and gate --advance, DONE, the commit hook, the push
# guard and `harness audit` accept add(2, 3) == -1.
# Correct behaviour: a module the base's test command names for pytest to collect is a test of the base (its doctests
# are the base's cases) and the code under test: it stays the change's in PASS_TO_PASS, so the doctest rewrite is seen
# (`calc::calc.add`, "its doctest examples changed in calc.py") and the gate refuses DONE until a human approves it.
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
cat > calc.py <<'PY'
def add(a, b):
    """Add two numbers.

    >>> add(2, 3)
    5
    """
    return a + b
PY
printf 'def double(x):\n    return 2 * x\n' > util.py
printf 'from util import double\n\n\ndef test_double():\n    assert double(4) == 8\n' > tests/test_util.py
printf '__pycache__/\n.pytest_cache/\n' > .gitignore
cat > .harness/config.yaml <<'YAML'
version: 1
evidence:
  unit_test:
    command: [python, -m, pytest, -q, --doctest-modules, calc.py, tests, --junitxml=.harness/local/junit.xml]
    junit: .harness/local/junit.xml
YAML
setup harness init
setup harness install
setup git add -A
setup git commit -qm init
setup git push -q origin main
setup git remote set-head origin main
setup harness task new "Add triple"
setup harness requirement add "triple(x) returns 3 * x" --priority must
for s in SPECIFYING PLANNED IMPLEMENTING; do setup harness transition $s; done
printf 'def double(x):\n    return 2 * x\n\n\ndef triple(x):\n    return 3 * x\n' > util.py
printf 'from util import triple\n\n\ndef test_triple():\n    assert triple(2) == 6\n' > tests/test_triple.py
# The weakening: add() broken, and its doctest (a base case) rewritten to expect the broken value.
cat > calc.py <<'PY'
def add(a, b):
    """Add two numbers.

    >>> add(2, 3)
    -1
    """
    return a - b
PY
setup harness transition VERIFYING
harness evidence unit_test >>"$T/log" 2>&1; echo "unit_test exit $?"
setup harness requirement set REQ-001 --status verified --evidence unit_test --tests tests/test_triple.py::test_triple
harness evidence pass_to_pass >>"$T/log" 2>&1; p2p=$?
echo "pass_to_pass exit $p2p"
if [ "$p2p" -ne 0 ]; then grep -i "lost\|doctest" "$T/log" | tail -5; echo "FIXED: pass_to_pass refused"; exit 0; fi
grep -i "protected file" "$T/log" | tail -2
harness evidence fail_to_pass >>"$T/log" 2>&1; echo "fail_to_pass exit $?"
setup harness transition REVIEWING
setup harness transition GATING
harness gate --advance >>"$T/log" 2>&1 || { tail -30 "$T/log"; echo "FIXED: the gate refused"; exit 0; }
harness transition DONE >>"$T/log" 2>&1 || { echo "FIXED: DONE refused"; exit 0; }
git add -A && git commit -qm "triple" >>"$T/log" 2>&1 || { echo "FIXED: the commit hook refused"; exit 0; }
git push -q origin main >>"$T/log" 2>&1 || { echo "FIXED: the push guard refused"; exit 0; }
harness audit >>"$T/log" 2>&1 || { echo "FIXED: harness audit refused"; exit 0; }
v=$(python -c 'import calc; print(calc.add(2, 3))')
if [ "$v" != 5 ]; then echo "DEFECT: DONE, committed, pushed and audited with add(2, 3) == $v: calc.py, whose doctest the base's test command collects, was protected and put back, so its rewritten doctest and broken code were never measured"; exit 1; fi
echo "setup: add() not broken"; exit 2
