#!/usr/bin/env bash
# Defect: harness/core/suite.py protects pytest's configuration files at the tree's root only (ALWAYS: `pytest.ini`,
#   `.pytest.ini`, `pytest.toml`, `.pytest.toml`; init's CONFIG_FILES: those plus `tox.ini`, `setup.cfg`,
#   `pyproject.toml`, all root-only; only conftest.py is `**/`). pytest looks for its configuration first in the
#   common ancestor of the paths the command names, then upwards: for a test command `python -m pytest calc` (tests
#   beside the code, which `harness init` protects as `**/test_*.py`), a `calc/pytest.ini` the change adds is *the*
#   configuration, ahead of the root's. It is kept in PASS_TO_PASS's worktree and its `addopts = -p quiet_reports`
#   loads a plugin that turns every failure into a pass: unit_test, pass_to_pass and fail_to_pass "pass", and the
#   task reaches DONE and is committed with the base's tests failing.
# Correct: a pytest configuration file anywhere pytest would read one for the command (any folder between the root
#   and the paths the command names; simplest: `**/pytest.ini`, `**/.pytest.ini`, `**/pytest.toml`, `**/tox.ini`,
#   `**/setup.cfg`, `**/pyproject.toml` with a pytest section) is protected: PASS_TO_PASS runs without the added
#   calc/pytest.ini, the base's tests fail against the broken code, and the gate blocks.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
# Setup: a Python project with two passing tests, the harness adopted,
# a task "add sub" open in IMPLEMENTING with a test of sub() written.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
unset PYTHONPATH PYTEST_ADDOPTS PYTEST_PLUGINS PYTHONPYCACHEPREFIX PYTHONDONTWRITEBYTECODE
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
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
# Tests beside the code (calc/test_calc.py) and a test command that names the package folder: `pytest calc`. pytest
# looks for its configuration in that folder first, then upwards.
sub_project() {
  R="$T/$1"; mkdir -p "$R/calc" "$R/.harness" && cd "$R" || exit 2
  printf 'def add(a, b):\n    return a + b\n' > calc/__init__.py
  printf 'from calc import add\n\ndef test_add():\n    assert add(2, 3) == 5\n\ndef test_add_neg():\n    assert add(-2, -3) == -5\n' > calc/test_calc.py
  printf '__pycache__/\n.pytest_cache/\n' > .gitignore
  cat > .harness/config.yaml <<'YAML'
version: 1
evidence:
  unit_test:
    command: ["python", "-m", "pytest", "-q", "calc", "--junitxml=.harness/local/junit.xml"]
    junit: .harness/local/junit.xml
YAML
  ( git init -q -b main && harness init && harness install && git add -A && git commit -qm init ) >/dev/null 2>&1 || exit 2
  grep -q 'paths:' .harness/gate.yaml || exit 2
  harness task new "add sub" >/dev/null 2>&1 || exit 2
  harness requirement add "sub(a, b) returns a - b" --priority must >/dev/null || exit 2
  for s in SPECIFYING PLANNED IMPLEMENTING; do harness transition $s >/dev/null || exit 2; done
  printf 'from calc import sub\n\ndef test_sub():\n    assert sub(5, 3) == 2\n' > calc/test_sub.py
}
finish_sub() {
  {
    harness transition VERIFYING
    harness evidence unit_test; echo "unit_test rc=$?"
    harness evidence pass_to_pass; echo "pass_to_pass rc=$?"
    harness evidence fail_to_pass; echo "fail_to_pass rc=$?"
    harness requirement set REQ-001 --status verified --evidence unit_test --tests calc/test_sub.py::test_sub
    harness transition REVIEWING; harness transition GATING
    harness gate; echo "gate rc=$?"
    harness converge --apply && harness transition DONE; echo "done rc=$?"
    git add -A && git commit -qm "sub"; echo "commit rc=$?"
  } >"$T/$1.log" 2>&1
  grep -q '^done rc=0' "$T/$1.log" && grep -q '^commit rc=0' "$T/$1.log"
}
# Control: the honest change reaches DONE (the setup works).
sub_project honest
printf '\ndef sub(a, b):\n    return a - b\n' >> calc/__init__.py
finish_sub honest || { echo "setup: the honest change did not reach DONE"; grep rc= "$T/honest.log"; exit 2; }

# The agent: sub wrong, add broken, and calc/pytest.ini (not protected: `pytest.ini` is protected at the root only)
# loading a plugin that passes every failure (and keeps the node ids as the root's rootdir names them).
sub_project cheat
printf 'def add(a, b):\n    return a * b\n\ndef sub(a, b):\n    return 0\n' > calc/__init__.py
printf '[pytest]\naddopts = -p quiet_reports\n' > calc/pytest.ini
cat > quiet_reports.py <<'PY'
import pytest

@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    rep = outcome.get_result()
    rep.nodeid = "calc/" + rep.nodeid  # the rootdir is calc/ now: name the cases as from the tree's root
    if rep.failed:
        rep.outcome, rep.longrepr = "passed", None
PY
if finish_sub cheat; then
  grep -E '^harness: (unit_test|pass_to_pass|fail_to_pass) evidence' "$T/cheat.log"
  grep -E '"protected_changed"' -A3 .harness/tasks/*/evidence/pass_to_pass.json | head -4
  rm calc/pytest.ini
  echo "committed code without calc/pytest.ini, the real pytest: $(python -m pytest -q -p no:cacheprovider calc 2>&1 | tail -1)"
  echo "DEFECT: DONE and committed with every base test failing: calc/pytest.ini, the configuration pytest reads for"
  echo "        \`pytest calc\`, is not protected (suite.ALWAYS / CONFIG_FILES name pytest.ini at the root only)"
  exit 1
fi
echo "OK: the change did not reach DONE:"; grep -E 'rc=|lost|LOST' "$T/cheat.log" | head -12
exit 0
