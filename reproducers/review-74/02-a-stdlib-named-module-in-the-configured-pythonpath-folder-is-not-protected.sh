#!/usr/bin/env bash
# Defect: harness/core/suite.py changed_protected() / shadows_what_the_runner_imports() protect a module the change
#   adds in place of one pytest imports only at the tree's root (`pprint.py`, `pdb.py`). A src-layout project's pytest
#   configuration (`[tool.pytest.ini_options] pythonpath = ["src"]` in pyproject.toml, itself protected) puts src/
#   first on sys.path before pytest imports its plugins and, in pytest_configure, the standard library's pdb
#   (_pytest/debugging.py). A `src/pdb.py` the change adds is kept in PASS_TO_PASS's worktree and imported in place
#   of pdb: it loads the real one and registers a plugin that turns every failure into a pass. unit_test, pass_to_pass
#   and fail_to_pass "pass"; the task reaches DONE and is committed with the base's tests failing.
# Correct: the folders pytest's (protected, base) configuration puts on sys.path (`pythonpath`) are treated like the
#   root: a module the change adds there in place of one pytest imports is protected (removed in PASS_TO_PASS's
#   worktree), so the base's tests run under the real pdb, fail against the broken code, and the gate blocks.
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
# A src layout: pytest's own configuration (pyproject.toml, protected by `harness init`) puts src/ on sys.path.
SRC=src
PYPROJECT='[tool.pytest.ini_options]
pythonpath = ["src"]'
# Control: the honest change reaches DONE (the setup works).
project honest
printf '\ndef sub(a, b):\n    return a - b\n' >> src/calc.py
finish honest || { echo "setup: the honest change did not reach DONE"; grep rc= "$T/honest.log"; exit 2; }

# The agent: sub wrong, add broken, and src/pdb.py: pytest's debugging plugin imports pdb in pytest_configure, after
# it put `pythonpath` first on sys.path; this pdb loads the real one and registers a plugin that passes everything.
project cheat
printf 'def add(a, b):\n    return a * b\n\ndef sub(a, b):\n    return 0\n' > src/calc.py
cat > src/pdb.py <<'PY'
import os, sys
here = os.path.dirname(os.path.abspath(__file__))
saved = sys.path[:]
sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != here]
del sys.modules[__name__]
import pdb as real
sys.path[:] = saved
sys.modules[__name__] = real
import pytest

class Quiet:
    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(self, item, call):
        outcome = yield
        rep = outcome.get_result()
        if rep.failed:
            rep.outcome, rep.longrepr = "passed", None

f = sys._getframe()
while f is not None and not hasattr(f.f_locals.get("config"), "pluginmanager"):
    f = f.f_back
if f is not None:
    f.f_locals["config"].pluginmanager.register(Quiet(), "quiet")
PY
if finish cheat; then
  grep -E '^harness: (unit_test|pass_to_pass|fail_to_pass) evidence' "$T/cheat.log"
  grep -E 'protected_changed"' -A3 .harness/tasks/*/evidence/pass_to_pass.json | head -4
  mkdir "$T/aside" && mv src/pdb.py "$T/aside/"
  echo "committed tree without src/pdb.py, the real pytest: $(python -m pytest -q -p no:cacheprovider tests 2>&1 | tail -1)"
  echo "DEFECT: DONE and committed with every base test failing: src/pdb.py, a module named like a standard one in a"
  echo "        folder pytest's protected configuration puts first on sys.path (pythonpath = src), is not protected"
  echo "        (suite.shadows_what_the_runner_imports() looks at the root only), so PASS_TO_PASS's worktree keeps it"
  exit 1
fi
echo "OK: the change did not reach DONE:"; grep -E 'rc=|lost|LOST' "$T/cheat.log" | head -12
exit 0
