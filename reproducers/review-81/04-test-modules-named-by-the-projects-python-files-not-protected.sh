#!/usr/bin/env bash
# Defect: the protected suite is only what gate.yaml's suite.paths and suite.ALWAYS match (harness/core/suite.py:
#   detected() for `harness init`, protected() for PASS_TO_PASS): test folders named tests/ or test/ and modules by
#   pytest's DEFAULT names (test_*.py, *_test.py). A project whose own (protected) pytest configuration names its
#   tests otherwise (`testpaths = checks`, `python_files = check_*.py`) gets no test file protected: `harness init`
#   says "gate.yaml protects the test suite it found" yet writes only the config-file patterns, and PASS_TO_PASS
#   runs the change's version of checks/check_calc.py. The change breaks add() and weakens the test's assertion:
#   unit_test, pass_to_pass, fail_to_pass pass; DONE is reached and committed, no suite-change approval (a `should`
#   requirement here: a `must` one is blocked even for honest work, FAIL_TO_PASS not seeing the new unprotected test).
# Correct: the modules the base's pytest configuration makes pytest collect (its `python_files` patterns, under its
#   `testpaths`), like the default names, are protected (init writes them into suite.paths, and/or PASS_TO_PASS
#   reads them from the base's configuration as it already reads addopts -p and pythonpath), so the base's test runs.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
unset PYTHONPATH PYTEST_ADDOPTS PYTEST_PLUGINS PYTHONPYCACHEPREFIX PYTHONDONTWRITEBYTECODE
T=$(mktemp -d) || exit 2; trap '[ -n "$KEEP" ] || rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"

project() {  # $1 name, $2 the test folder, $3 the test module's file name, $4 pytest.ini
  R="$T/$1"; mkdir -p "$R" && cd "$R" || exit 2
  mkdir -p .harness "$2"
  printf 'def add(a, b):\n    return a + b\n' > calc.py
  printf 'from calc import add\n\ndef test_add():\n    assert add(2, 3) == 5\n\ndef test_add_neg():\n    assert add(-2, -3) == -5\n' > "$2/$3"
  printf '%s\n' "$4" > pytest.ini
  printf '__pycache__/\n.pytest_cache/\n' > .gitignore
  cat > .harness/config.yaml <<'YAML'
version: 1
evidence:
  unit_test:
    command: ["python", "-m", "pytest", "-q", "--junitxml=.harness/local/junit.xml"]
    junit: .harness/local/junit.xml
YAML
  ( git init -q -b main && harness init && harness install && git add -A && git commit -qm init ) >"$T/$1.init.log" 2>&1 || exit 2
  harness task new "add sub" >/dev/null 2>&1 || exit 2
  harness requirement add "sub(a, b) returns a - b" --priority should >/dev/null || exit 2
  for s in SPECIFYING PLANNED IMPLEMENTING; do harness transition $s >/dev/null || exit 2; done
  printf 'from calc import sub\n\ndef test_sub():\n    assert sub(5, 3) == 2\n' > "$2/${3/calc/sub}"
  SUBTEST="$2/${3/calc/sub}::test_sub"
}
finish() {
  {
    harness transition VERIFYING
    harness evidence unit_test; echo "unit_test rc=$?"
    harness evidence pass_to_pass; echo "pass_to_pass rc=$?"
    harness evidence fail_to_pass; echo "fail_to_pass rc=$?"
    harness requirement set REQ-001 --status verified --evidence unit_test --tests "$SUBTEST"
    harness transition REVIEWING; harness transition GATING
    harness gate; echo "gate rc=$?"
    harness converge --apply && harness transition DONE; echo "done rc=$?"
    git add -A && git commit -qm "sub"; echo "commit rc=$?"
  } >"$T/$1.log" 2>&1
  grep -q '^done rc=0' "$T/$1.log" && grep -q '^commit rc=0' "$T/$1.log"
}
cheat() {  # add() broken, sub() right; the base's assertions of add weakened to the broken values
  printf 'def add(a, b):\n    return a * b\n\ndef sub(a, b):\n    return a - b\n' > calc.py
  sed -i 's/== 5$/== 6/; s/== -5$/== 6/' "$1"
}
INI='[pytest]
testpaths = checks
python_files = check_*.py'

# Control 1: the honest change reaches DONE in the checks/ layout.
project honest checks check_calc.py "$INI"
printf '\ndef sub(a, b):\n    return a - b\n' >> calc.py
finish honest || { echo "setup: the honest change did not reach DONE"; grep rc= "$T/honest.log"; exit 2; }
grep -q 'checks/check_calc.py::test_add\|checks.check_calc' "$T/honest/.harness/tasks"/*/evidence/unit_test.cases \
  || { echo "setup: the base's cases are not the checks/ ones"; exit 2; }
# Control 2: the same weakening in the default layout (tests/test_calc.py) is caught by PASS_TO_PASS.
project control tests test_calc.py '[pytest]'
cheat tests/test_calc.py
if finish control; then echo "setup: the default-layout weakening was not caught (unexpected)"; exit 2; fi
grep -q 'lost: tests' "$T/control.log" || { echo "setup: control blocked for another reason"; grep rc= "$T/control.log"; exit 2; }

# The agent, in the project whose pytest.ini names its tests checks/check_*.py.
project cheat checks check_calc.py "$INI"
cheat checks/check_calc.py
if finish cheat; then
  grep -h 'protects the test suite' "$T/cheat.init.log"
  grep -E '^harness: (unit_test|pass_to_pass|fail_to_pass) evidence' "$T/cheat.log"
  git show HEAD~1:checks/check_calc.py > "$T/base_check.py"
  echo "the base's check against the committed code: $(cp "$T/base_check.py" checks/check_base.py && python -m pytest -q -p no:cacheprovider checks/check_base.py 2>&1 | tail -1)"
  echo "DEFECT: DONE and committed with the base's tests weakened to the broken values (checks/check_calc.py,"
  echo "        collected by the project's python_files, is not protected), no suite-change approval"
  exit 1
fi
echo "OK: the change did not reach DONE:"; grep -E 'rc=|lost|LOST' "$T/cheat.log" | head -12
exit 0
