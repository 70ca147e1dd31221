#!/usr/bin/env bash
# Defect: harness/core/suite.py changed_protected() counts a module the change ADDS at the root (or in a pytest
#   `pythonpath` folder) as protected whenever its name is among the test interpreter's installed top-level names
#   (evidence/runner_names.py installed_names(): packages_distributions() of the test venv plus the harness's own).
#   The project's OWN distribution is installed in its venv (pip install -e .), so an honest task that adds a new
#   module of the project (`calc_stats.py`, listed in py-modules, re-installed) has it treated as a pytest start-up
#   hook: FAIL_TO_PASS (pass_to_pass.py run_fail_to_pass) then overlays the new module onto the base's source as if
#   it were a test file, the new test passes "without the change", and the gate refuses the must requirement
#   that the new test proves. The task cannot reach DONE (PASS_TO_PASS also removes the new code module).
# Correct: a module the project's own distribution provides (its code, not a runner dependency) is code: it stays
#   out of FAIL_TO_PASS's overlay, the new test fails on the base's source, and the honest task reaches DONE
#   exactly as it does when the project is not installed (the control below).
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"
PY3=$(command -v python3) || exit 2
"$PY3" -c 'import pytest' 2>/dev/null || { echo "setup: python3 has no pytest"; exit 2; }

project() {  # $1 name; $2 yes = the project is installed in its venv (as `pip install -e .` leaves it)
  R="$T/$1"; mkdir -p "$R" && cd "$R" || exit 2
  "$PY3" -m venv --system-site-packages "$T/venv-$1" >/dev/null 2>&1 || exit 2
  VPY="$T/venv-$1/bin/python"
  SITE=$("$VPY" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])') || exit 2
  mkdir -p .harness tests
  printf 'def add(a, b):\n    return a + b\n' > calc.py
  printf 'from calc import add\n\ndef test_add():\n    assert add(2, 3) == 5\n' > tests/test_calc.py
  printf '[project]\nname = "calc"\nversion = "0.1"\n[tool.setuptools]\npy-modules = ["calc"]\n' > pyproject.toml
  printf '__pycache__/\n.pytest_cache/\n' > .gitignore
  cat > .harness/config.yaml <<YAML
version: 1
evidence:
  unit_test:
    command: ["$VPY", "-m", "pytest", "-q", "-p", "no:cacheprovider", "--junitxml=.harness/local/junit.xml"]
    junit: .harness/local/junit.xml
YAML
  install() {  # what an editable install writes: the dist's metadata (its top-level modules) and a .pth to the tree
    [ "$2" = yes ] || return 0
    mkdir -p "$SITE/calc-0.1.dist-info"
    printf 'Metadata-Version: 2.1\nName: calc\nVersion: 0.1\n' > "$SITE/calc-0.1.dist-info/METADATA"
    printf '%s\n' "$@" | tail -n +3 > "$SITE/calc-0.1.dist-info/top_level.txt"
    : > "$SITE/calc-0.1.dist-info/RECORD"; echo "$R" > "$SITE/__editable__.calc-0.1.pth"
  }
  install "$1" "$2" calc
  ( git init -q -b main && harness init && harness install && git add -A && git commit -qm init ) >/dev/null 2>&1 || exit 2
  harness task new "stats" >/dev/null 2>&1 || exit 2
  harness requirement add "mean(xs) returns the mean" --priority must >/dev/null || exit 2
  for s in SPECIFYING PLANNED IMPLEMENTING; do harness transition $s >/dev/null || exit 2; done
  # The work: a new module of the project, its test, the module listed in pyproject, the project re-installed.
  printf 'def mean(xs):\n    return sum(xs) / len(xs)\n' > calc_stats.py
  printf 'from calc_stats import mean\n\ndef test_mean():\n    assert mean([1, 2, 3]) == 2\n' > tests/test_stats.py
  sed -i 's/py-modules = \["calc"\]/py-modules = ["calc", "calc_stats"]/' pyproject.toml
  install "$1" "$2" calc calc_stats
}
finish() {
  {
    harness transition VERIFYING
    harness evidence unit_test; echo "unit_test rc=$?"
    harness evidence pass_to_pass; echo "pass_to_pass rc=$?"
    harness evidence fail_to_pass; echo "fail_to_pass rc=$?"
    harness requirement set REQ-001 --status verified --evidence unit_test --tests tests/test_stats.py::test_mean
    harness transition REVIEWING; harness transition GATING
    harness gate; echo "gate rc=$?"
    harness converge --apply && harness transition DONE; echo "done rc=$?"
    git add -A && git commit -qm "stats"; echo "commit rc=$?"
  } >"$T/$1.log" 2>&1
  grep -q '^done rc=0' "$T/$1.log" && grep -q '^commit rc=0' "$T/$1.log"
}

# Control: the same honest task with the project not installed in its venv reaches DONE.
project plain no
finish plain || { echo "setup: the honest task did not reach DONE without the install"; tail -30 "$T/plain.log"; exit 2; }

project installed yes
if ! finish installed; then
  echo "DEFECT: the same honest task, with the project installed in its venv (pip install -e .), does not reach DONE:"
  grep -E 'rc=|calc_stats|test_mean|fail_to_pass|FAIL_TO_PASS' "$T/installed.log" | head -12
  exit 1
fi
echo "OK: the honest task reaches DONE with the project installed too"
exit 0
