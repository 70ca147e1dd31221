#!/usr/bin/env bash
# Defect: harness/evidence/pass_to_pass.py (protected_changes/_startup) and harness/core/pytest_startup.py protect the
#   plugin modules a base pytest configuration loads with `-p NAME` (F-0264's fix), but not the ones the base's own
#   protected conftest.py loads with `pytest_plugins = ["NAME"]` - the other documented way a configuration makes
#   pytest import a module of the tree as a plugin at start-up (F-0264's own "Correct:" names it). A change that
#   rewrites the base's `calc_fixtures.py` (named by the base's root conftest.py `pytest_plugins`) into a
#   hookwrapper that turns every failure into a pass keeps it in PASS_TO_PASS's worktree as "source": unit_test,
#   pass_to_pass and fail_to_pass pass, and the task reaches DONE and is committed with the base's tests failing.
# Correct: a module a protected conftest.py / test module names in `pytest_plugins` (at the base) is protected like
#   a conftest.py: PASS_TO_PASS runs the base's version, the base's tests fail against the broken code, the gate
#   blocks (or the change needs `harness approve suite-change`).
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
# A pytest plugin that turns every failure into a pass.
QUIET='import pytest

@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    rep = outcome.get_result()
    if rep.failed:
        rep.outcome, rep.longrepr = "passed", None
'
# The base: the root conftest.py (protected: **/conftest.py) loads the project's fixtures module as a plugin.
base_plugin() {
  printf 'pytest_plugins = ["calc_fixtures"]\n' > conftest.py
  printf 'import pytest\n\n@pytest.fixture\ndef two():\n    return 2\n' > calc_fixtures.py
}
BASE_EXTRA=base_plugin
# Control: the honest change reaches DONE (the setup works).
project honest
printf '\ndef sub(a, b):\n    return a - b\n' >> calc.py
finish honest || { echo "setup: the honest change did not reach DONE"; grep rc= "$T/honest.log"; exit 2; }

# Control 2: the same cheat through conftest.py itself (protected) is caught - the guard works for conftest.
project control
printf 'def add(a, b):\n    return a * b\n\ndef sub(a, b):\n    return 0\n' > calc.py
printf 'pytest_plugins = ["calc_fixtures"]\n%s\n' "$QUIET" > conftest.py
if finish control; then echo "setup: the conftest.py variant was not caught either (unexpected)"; exit 2; fi

# The agent: sub wrong, add broken, and the plugin module the base's protected conftest.py names rewritten to pass
# every failure (conftest.py itself untouched).
project cheat
printf 'def add(a, b):\n    return a * b\n\ndef sub(a, b):\n    return 0\n' > calc.py
printf '%s\n\n@pytest.fixture\ndef two():\n    return 2\n' "$QUIET" > calc_fixtures.py
if finish cheat; then
  grep -E '^harness: (unit_test|pass_to_pass|fail_to_pass) evidence' "$T/cheat.log"
  base_plugin
  echo "committed code with the base's calc_fixtures.py: $(python -m pytest -q -p no:cacheprovider tests 2>&1 | tail -1)"
  echo "DEFECT: DONE and committed with every base test failing: calc_fixtures.py, the plugin the base's protected"
  echo "        conftest.py loads (pytest_plugins), is not protected, so PASS_TO_PASS's worktree runs the change's version"
  exit 1
fi
echo "OK: the change did not reach DONE:"; grep -E 'rc=|lost|LOST' "$T/cheat.log" | head -12
exit 0
