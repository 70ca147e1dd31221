#!/usr/bin/env bash
# Defect: F-0228's fix protects every root module whose name is a standard-library one
#   (harness/core/suite.py protected() -> shadows_standard_library(): `statistics.py`, `profile.py`, `secrets.py`,
#   `test.py`, `graphlib.py`, `sched.py`, ... and `NAME/__init__.py`), even when it is the project's own code under
#   test, which nothing imports in the standard module's place. Protected files are the *tests* side of the split:
#   `harness evidence fail_to_pass` runs the base's source with the change's protected files
#   (pass_to_pass.run_fail_to_pass(): overlay_commit(base_tree, current files, changed)), so the change's new
#   statistics.py is carried onto the base, the requirement's new test passes there, and the gate refuses the
#   requirement ("passes without the change"); PASS_TO_PASS meanwhile judges the base's tests on the base's
#   statistics.py, not on the change. An honest task that edits such a module can no longer reach DONE; no approval
#   excuses it. The same project with the module named `stats.py` reaches DONE.
# Correct: a root module that is the project's code (present at the base, or imported by nothing in the test runner's
#   start-up) stays on the source side: fail_to_pass runs the base's statistics.py, the new test fails there, and the
#   honest change reaches DONE (or at least: a shadowing module is protected only when it could take a standard
#   module's place for the runner, as F-0228 intends, not for being the code the task edits).
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"
unset PYTHONDONTWRITEBYTECODE PYTHONPYCACHEPREFIX PYTHONPATH PYTEST_ADDOPTS PYTEST_PLUGINS

project() {  # $1: folder, $2: the module's name. base: mean() tested; the task adds median()
  R="$T/$1"; M=$2; mkdir -p "$R" && cd "$R" || exit 2
  mkdir -p .harness tests
  printf 'def mean(xs):\n    return sum(xs) / len(xs)\n' > "$M.py"
  printf 'from %s import mean\n\ndef test_mean():\n    assert mean([1, 2, 3]) == 2\n' "$M" > tests/test_mean.py
  printf '__pycache__/\n.pytest_cache/\n' > .gitignore
  cat > .harness/config.yaml <<'YAML'
version: 1
evidence:
  unit_test:
    command: ["python", "-m", "pytest", "-q", "--junitxml=.harness/local/junit.xml"]
    junit: .harness/local/junit.xml
YAML
  ( git init -q -b main && harness init && harness install && git add -A && git commit -qm init ) >/dev/null 2>&1 || exit 2
  harness task new "add median" >/dev/null 2>&1 || exit 2
  harness requirement add "median(xs) returns the middle value" --priority must >/dev/null || exit 2
  for s in SPECIFYING PLANNED IMPLEMENTING; do harness transition $s >/dev/null || exit 2; done
  # the honest change: median() and its test
  printf '\ndef median(xs):\n    s = sorted(xs)\n    n = len(s)\n    return s[n // 2] if n %% 2 else (s[n // 2 - 1] + s[n // 2]) / 2\n' >> "$M.py"
  printf 'from %s import median\n\ndef test_median():\n    assert median([3, 1, 2]) == 2\n    assert median([4, 1, 3, 2]) == 2.5\n' "$M" > tests/test_median.py
}
finish() {  # drive the task to DONE and commit; 0 when both happened
  {
    harness transition VERIFYING
    harness evidence unit_test; echo "unit_test rc=$?"
    harness evidence pass_to_pass; echo "pass_to_pass rc=$?"
    harness evidence fail_to_pass; echo "fail_to_pass rc=$?"
    harness requirement set REQ-001 --status verified --evidence unit_test --tests tests/test_median.py::test_median
    harness transition REVIEWING; harness transition GATING
    harness gate; echo "gate rc=$?"
    harness converge --apply && harness transition DONE; echo "done rc=$?"
    git add -A && git commit -qm "median"; echo "commit rc=$?"
  } >"$T/$1.log" 2>&1
  grep -q '^done rc=0' "$T/$1.log" && grep -q '^commit rc=0' "$T/$1.log"
}

# Control: the same honest change to a module named stats.py reaches DONE.
project control stats
finish control || { echo "setup: the honest change to stats.py did not reach DONE"; grep rc= "$T/control.log"; exit 2; }

# The same honest change, the module named statistics.py (nothing in the run imports the standard one).
project named statistics
python -m pytest -q -p no:cacheprovider 2>&1 | tail -1 | grep -q '2 passed' || { echo "setup: tests do not pass"; exit 2; }
if finish named; then
  echo "OK: the honest change to statistics.py reached DONE"
  exit 0
fi
grep -E '^(unit_test|pass_to_pass|fail_to_pass|gate|done) rc=' "$T/named.log" | tr '\n' ' '; echo
grep -iE 'protected file|passes? (on|without)|passed on the base|REQ-001' "$T/named.log" | grep -v '^Next\|^ *harness' | head -5
echo "DEFECT: an honest change to the project's own root statistics.py cannot reach DONE: the module is protected as"
echo "        if it shadowed a standard one, so fail_to_pass carries the new code onto the base and the new test passes there"
exit 1
