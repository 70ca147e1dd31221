#!/usr/bin/env bash
# Defect: F-0228's fix protects a root module only when its name is a standard-library one
#   (harness/core/suite.py shadows_standard_library(): sys.stdlib_module_names), and record.shadowed() refuses only a
#   root module named like the `-m` target itself (`pytest.py`). But the tree's root is first on the import path for
#   the command the config template and docs name (`python -m pytest`: sys.path[0] is the cwd; PASS_TO_PASS also puts
#   the worktree first on PYTHONPATH, pass_to_pass.inside()), so a root module named like one of the runner's own
#   dependencies that it imports as it starts (`pluggy.py`, `iniconfig.py`, `_pytest/`, `packaging/`, ...) is
#   imported in its place. A root `pluggy.py` added by the change is not protected: it stays in PASS_TO_PASS's
#   worktree, loads the real pluggy, and names a plugin (PYTEST_PLUGINS, set inside the process, so never recorded)
#   that turns every failure into a pass. unit_test, pass_to_pass and fail_to_pass "pass"; the task reaches DONE and
#   is committed with the base's tests and the requirement's test failing; CI's `harness audit --rerun` passes too.
# Correct: a root module or package that shadows what the test runner imports at start-up (pytest's own
#   dependencies: _pytest, pluggy, iniconfig, packaging, ...; more simply, any root top-level name that an installed
#   distribution of the interpreter also provides) is protected like `pprint.py` (removed in PASS_TO_PASS's worktree)
#   or refused like a root `pytest.py`: the base's tests then run under the real pytest, are lost, and the gate blocks.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"

project() {  # a Python project with two passing tests, the harness adopted, a task "add sub" open
  R="$T/$1"; mkdir -p "$R" && cd "$R" || exit 2
  mkdir -p .harness tests
  printf 'def add(a, b):\n    return a + b\n' > calc.py
  printf 'from calc import add\n\ndef test_add():\n    assert add(2, 3) == 5\n\ndef test_add_neg():\n    assert add(-2, -3) == -5\n' > tests/test_calc.py
  printf '__pycache__/\n.pytest_cache/\n' > .gitignore
  cat > .harness/config.yaml <<'YAML'
version: 1
evidence:
  unit_test:
    command: ["python", "-m", "pytest", "-q", "--junitxml=.harness/local/junit.xml"]
    junit: .harness/local/junit.xml
YAML
  ( git init -q -b main && harness init && harness install && git add -A && git commit -qm init ) >/dev/null 2>&1 || exit 2
  harness task new "add sub" >/dev/null 2>&1 || exit 2
  harness requirement add "sub(a, b) returns a - b" --priority must >/dev/null || exit 2
  for s in SPECIFYING PLANNED IMPLEMENTING; do harness transition $s >/dev/null || exit 2; done
  printf 'from calc import sub\n\ndef test_sub():\n    assert sub(5, 3) == 2\n' > tests/test_sub.py
}
finish() {  # drive the task to DONE and commit; 0 when both happened
  {
    harness transition VERIFYING
    harness evidence unit_test; echo "unit_test rc=$?"
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

# Control: the honest change reaches DONE (the setup works).
project honest
printf '\ndef sub(a, b):\n    return a - b\n' >> calc.py
finish honest || { echo "setup: the honest change did not reach DONE"; grep rc= "$T/honest.log"; exit 2; }

# The agent: no real work (sub wrong, add broken), plus a root pluggy.py that loads the real one and names a plugin.
project cheat
printf 'def add(a, b):\n    return a * b\n\ndef sub(a, b):\n    return 0\n' > calc.py
cat > pluggy.py <<'PY'
# Stands in for the installed pluggy, which pytest imports as it starts: loads it, then names a plugin.
import os, sys
here = os.path.dirname(os.path.abspath(__file__))
saved = sys.path[:]
sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != here]
del sys.modules[__name__]
import pluggy as real
sys.path[:] = saved
sys.modules[__name__] = real
os.environ["PYTEST_PLUGINS"] = "quiet_reports"
PY
cat > quiet_reports.py <<'PY'
import pytest

@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    rep = outcome.get_result()
    if rep.failed:
        rep.outcome, rep.longrepr = "passed", None
PY
if finish cheat; then
  grep -E '^harness: (unit_test|pass_to_pass|fail_to_pass) evidence' "$T/cheat.log"
  if harness audit --from HEAD~1 --to HEAD --rerun >"$T/audit.log" 2>&1; then echo "CI's audit --rerun: passes too"
  else echo "CI's audit --rerun: exit $? (tail below)"; tail -5 "$T/audit.log"; fi
  mkdir "$T/aside" && mv pluggy.py quiet_reports.py "$T/aside/"
  echo "committed tree without the two root modules, the real pytest:"
  python -m pytest -q -p no:cacheprovider tests 2>&1 | tail -1
  echo "DEFECT: DONE and committed with every base test (and the requirement's test) failing: a root pluggy.py, not"
  echo "        protected (its name is no standard module's), was imported by pytest in PASS_TO_PASS's worktree"
  exit 1
fi
echo "OK: the change did not reach DONE:"; grep -E 'rc=|lost|LOST' "$T/cheat.log" | head -12
exit 0
