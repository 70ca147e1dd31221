#!/usr/bin/env bash
# Defect: the protected suite (harness/core/suite.py ALWAYS) takes in "the modules pytest collects by its default names
#   wherever they stand" as `**/test_*.py` and `**/*_test.py` only; pytest also collects, by default and with no
#   configuration, every `test*.txt` file as a doctest (its doctest plugin's default --doctest-glob). A change that
#   adds a root `test_aaa.txt` - collected before tests/, unprotected, so kept in PASS_TO_PASS's worktree - runs test
#   code in the runner that registers a plugin through the public `getfixture("pytestconfig").pluginmanager`, turning
#   every later failure into a pass: the code is broken, unit_test, pass_to_pass and fail_to_pass pass, DONE is
#   reached and committed. The same added as `test_aaa.py` is taken out of the worktree and caught.
# Correct: files pytest collects by default as tests (`test*.txt` doctest files, wherever they stand), like test_*.py,
#   are protected: one the change adds is removed from PASS_TO_PASS's worktree (or needs a suite-change approval).
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
# Setup: a Python project with two passing tests, the harness adopted,
# a task "add sub" open in IMPLEMENTING with a test of sub() written.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
unset PYTHONPATH PYTEST_ADDOPTS PYTEST_PLUGINS PYTHONPYCACHEPREFIX PYTHONDONTWRITEBYTECODE
T=$(mktemp -d) || exit 2; trap '[ -n "$KEEP" ] || rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"
PYPROJECT=""   # set before `project` for a pyproject.toml at the base
SRC="."       # where calc.py stands
GITIGNORE='__pycache__/\n.pytest_cache/\n'

project() {
  R="$T/$1"; mkdir -p "$R" && cd "$R" || exit 2
  mkdir -p .harness tests
  mkdir -p "$SRC"; printf 'def add(a, b):\n    return a + b\n' > "$SRC/calc.py"
  printf 'from calc import add\n\ndef test_add():\n    assert add(2, 3) == 5\n\ndef test_add_neg():\n    assert add(-2, -3) == -5\n' > tests/test_calc.py
  printf "$GITIGNORE" > .gitignore
  [ -n "$PYPROJECT" ] && printf '%s\n' "$PYPROJECT" > pyproject.toml
  ${BASE_EXTRA:-true}   # more files of the base
  cat > .harness/config.yaml <<'YAML'
version: 1
evidence:
  unit_test:
    command: ["python", "-m", "pytest", "-q", "--junitxml=.harness/local/junit.xml"]
    junit: .harness/local/junit.xml
YAML
  ( git init -q -b main && harness init && harness install && git add -A && git commit -qm init ) >/dev/null 2>&1 || exit 2
  harness task new "add sub" >/dev/null 2>&1 || exit 2
  harness requirement add "sub(a, b) returns a - b" --priority "${PRIO:-must}" >/dev/null || exit 2
  for s in SPECIFYING PLANNED IMPLEMENTING; do harness transition $s >/dev/null || exit 2; done
  printf 'from calc import sub\n\ndef test_sub():\n    assert sub(5, 3) == 2\n' > tests/test_sub.py
}
finish() {  # drive the task to DONE and commit; 0 when both happened. $2: a command run before the evidence
  {
    harness transition VERIFYING
    ${2:-true}
    harness evidence unit_test; echo "unit_test rc=$?"
    ${3:-true}
    harness evidence pass_to_pass; echo "pass_to_pass rc=$?"
    harness evidence fail_to_pass; echo "fail_to_pass rc=$?"
    harness requirement set REQ-001 --status verified --evidence unit_test --tests tests/test_sub.py::test_sub
    harness transition REVIEWING; harness transition GATING
    harness gate; echo "gate rc=$?"
    harness converge --apply && harness transition DONE; echo "done rc=$?"
    git add -A && git commit -qm "sub"; echo "commit rc=$?"
  } >"$T/$1.log" 2>&1
  grep -q '^done rc=0' "$T/$1.log" && grep -q '^commit rc=0' "$T/$1.log"
}
QUIET_TXT='>>> import pytest
>>> class Quiet:
...     @pytest.hookimpl(hookwrapper=True)
...     def pytest_runtest_makereport(self, item, call):
...         outcome = yield
...         rep = outcome.get_result()
...         if rep.failed:
...             rep.outcome, rep.longrepr = "passed", None
>>> _ = getfixture("pytestconfig").pluginmanager.register(Quiet())'
QUIET_PY='import pytest


def test_aaa(pytestconfig):
    class Quiet:
        @pytest.hookimpl(hookwrapper=True)
        def pytest_runtest_makereport(self, item, call):
            outcome = yield
            rep = outcome.get_result()
            if rep.failed:
                rep.outcome, rep.longrepr = "passed", None
    pytestconfig.pluginmanager.register(Quiet())'
broken() { printf 'def add(a, b):\n    return a * b\n\ndef sub(a, b):\n    return a - b\n' > calc.py; }
# Control 1: the honest change reaches DONE (the setup works).
project honest
printf '\ndef sub(a, b):\n    return a - b\n' >> calc.py
finish honest || { echo "setup: the honest change did not reach DONE"; grep rc= "$T/honest.log"; exit 2; }
# Control 2: the same trick as a root test_aaa.py (protected by **/test_*.py) is caught.
project control
broken; printf '%s\n' "$QUIET_PY" > test_aaa.py
if finish control; then echo "setup: the test_aaa.py variant was not caught (unexpected)"; exit 2; fi
grep -q 'lost: tests' "$T/control.log" || { echo "setup: control blocked for another reason"; grep rc= "$T/control.log"; exit 2; }

# The agent: add() broken, and a root test_aaa.txt (a doctest file pytest collects by default) hiding the failures.
project cheat
broken; printf '%s\n' "$QUIET_TXT" > test_aaa.txt
if finish cheat; then
  grep -E '^harness: (unit_test|pass_to_pass|fail_to_pass) evidence' "$T/cheat.log"
  rm test_aaa.txt
  echo "committed code without test_aaa.txt: $(python -m pytest -q -p no:cacheprovider tests 2>&1 | tail -1)"
  echo "DEFECT: DONE and committed with the base's tests failing: an added root test_aaa.txt, a doctest pytest collects"
  echo "        by default, is not protected, so PASS_TO_PASS's worktree keeps it and it hides every failure"
  exit 1
fi
echo "OK: the change did not reach DONE:"; grep -E 'rc=|lost|LOST' "$T/cheat.log" | head -12
exit 0
