#!/usr/bin/env bash
# Defect: harness/evidence/suite_caches.py caches() finds bytecode caches with os.walk, which does not descend into a
#   symlinked folder; so a `__pycache__` that is a symlink (git-ignored through .git/info/exclude) is neither cleared
#   by clear() before the suite's run nor dated by shaped_by(), and ignored_files() lists it as one entry that no
#   rule names (not protected, not metadata, not a module). Python follows the link: a forged
#   `calc.cpython-311.pyc` there (the correct code, stamped with the broken calc.py's mtime and size) is what the
#   checkout's unit_test run imports, and pass_to_pass (pass_to_pass._reuse) reuses that run. A refactor that breaks
#   add() reaches DONE with pass_to_pass "passed", the base's tests failing on the committed tree.
# Correct: a run is not reused when a bytecode cache it could have read was not its own, wherever the cache folder
#   points: a symlinked `__pycache__` (or any symlinked folder the walk skips) counts as shaping the run (or is
#   followed), so pass_to_pass runs in a worktree, where the base's tests fail and the gate blocks.
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
finish_reuse() {  # a change that touches no protected file, to DONE and committed; $2 runs before the evidence
  {
    harness transition VERIFYING
    ${2:-true}
    harness evidence unit_test; echo "unit_test rc=$?"
    harness evidence pass_to_pass; echo "pass_to_pass rc=$?"
    harness requirement set REQ-001 --status verified --evidence unit_test
    harness transition REVIEWING; harness transition GATING
    harness gate; echo "gate rc=$?"
    harness converge --apply && harness transition DONE; echo "done rc=$?"
    git add -A && git commit -qm "faster add"; echo "commit rc=$?"
  } >"$T/$1.log" 2>&1
  grep -q '^done rc=0' "$T/$1.log" && grep -q '^commit rc=0' "$T/$1.log"
}
task_without_tests() {  # the task is a refactor: a `should` requirement, no new test, no protected file touched
  PRIO=should project "$1"; rm tests/test_sub.py
}
# Control: an honest refactor reaches DONE, its unit_test run reused by pass_to_pass.
task_without_tests honest
printf 'def add(a, b):\n    return b + a\n' > calc.py
finish_reuse honest || { echo "setup: the honest change did not reach DONE"; grep rc= "$T/honest.log"; exit 2; }
grep -q '"reused_run": "' .harness/tasks/*/evidence/pass_to_pass.json || { echo "setup: the honest run was not reused"; exit 2; }

# The agent: add() broken in calc.py, and a root `__pycache__` that is a symlink (listed in .git/info/exclude) to a
# folder holding calc's "cache": the correct add() compiled, stamped with the broken calc.py's mtime and size.
task_without_tests cheat
printf 'def add(a, b):\n    return a * b\n' > calc.py
mkdir "$T/forged"
python - "$T/forged" <<'PY' || exit 2
import importlib.util, os, sys
from importlib._bootstrap_external import _code_to_timestamp_pyc
st = os.stat("calc.py")
code = compile("def add(a, b):\n    return a + b\n", os.path.abspath("calc.py"), "exec")
name = os.path.basename(importlib.util.cache_from_source("calc.py"))
open(os.path.join(sys.argv[1], name), "wb").write(_code_to_timestamp_pyc(code, st.st_mtime, st.st_size))
PY
ln -s "$T/forged" __pycache__
echo /__pycache__ >> .git/info/exclude
if finish_reuse cheat; then
  grep -E '^harness: (unit_test|pass_to_pass) evidence' "$T/cheat.log"
  grep -o '"reused_run": "[0-9a-f]*"' .harness/tasks/*/evidence/pass_to_pass.json
  echo "committed calc.py: $(git show HEAD:calc.py | tail -1)"
  rm __pycache__
  echo "committed tree, its own caches: $(python -m pytest -q -p no:cacheprovider tests 2>&1 | tail -1)"
  echo "DEFECT: DONE and committed with add() broken: the reused unit_test run imported calc from a forged cache in a"
  echo "        symlinked __pycache__, which suite_caches.caches() (os.walk, no symlinks followed) neither clears nor"
  echo "        dates, and shaped_by() does not name"
  exit 1
fi
echo "OK: the change did not reach DONE:"; grep -E 'rc=|lost|LOST|reused' "$T/cheat.log" | head -12
exit 0
