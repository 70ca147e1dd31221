#!/usr/bin/env bash
# Defect: the protected suite (harness/core/suite.py protected/ALWAYS, harness/evidence/pass_to_pass.py
#   protected_changes) protects package metadata because "their entry points name plugins pytest loads", and the
#   base's pyproject.toml that declares them, but not the module such an entry point names. A pytest-plugin project
#   (installed editable, as its tests are run) declares `[project.entry-points.pytest11] calc = "calc_plugin"` at the
#   base; pytest imports calc_plugin at start-up, like a conftest.py. A change that breaks add() and rewrites
#   calc_plugin.py into a hookwrapper turning every failure into a pass keeps it in PASS_TO_PASS's worktree (it is
#   "source"): unit_test, pass_to_pass and fail_to_pass pass, DONE is reached and committed with the base's test failing.
# Correct: a module the base's own entry points (pyproject.toml's / setup.cfg's pytest11, the tree's metadata) name as
#   a pytest plugin is protected like a conftest.py (run with the base's version, or a suite-change approval needed).
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
unset PYTHONPATH PYTEST_ADDOPTS PYTEST_PLUGINS PYTHONPYCACHEPREFIX PYTHONDONTWRITEBYTECODE
T=$(mktemp -d) || exit 2; trap '[ -n "$KEEP" ] || rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"
PY3=$(command -v python3) || exit 2
"$PY3" -c 'import pytest' 2>/dev/null || { echo "setup: python3 has no pytest"; exit 2; }
QUIET='import pytest

@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    rep = outcome.get_result()
    if rep.failed:
        rep.outcome, rep.longrepr = "passed", None
'
PLUGIN='import pytest

@pytest.fixture
def calc_two():
    return 2
'
project() {  # $1 name: the project, a pytest plugin, installed editable in its own venv
  R="$T/$1"; mkdir -p "$R" && cd "$R" || exit 2
  "$PY3" -m venv --system-site-packages "$T/venv-$1" >/dev/null 2>&1 || exit 2
  VPY="$T/venv-$1/bin/python"
  SITE=$("$VPY" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])') || exit 2
  mkdir -p .harness tests
  printf 'def add(a, b):\n    return a + b\n' > calc.py
  printf '%s' "$PLUGIN" > calc_plugin.py
  printf 'from calc import add\n\ndef test_add(calc_two):\n    assert add(calc_two, 3) == 5\n\ndef test_add_neg():\n    assert add(-2, -3) == -5\n' > tests/test_calc.py
  printf '[project]\nname = "calc"\nversion = "0.1"\n[project.entry-points.pytest11]\ncalc = "calc_plugin"\n[tool.setuptools]\npy-modules = ["calc", "calc_plugin"]\n' > pyproject.toml
  printf '__pycache__/\n.pytest_cache/\n' > .gitignore
  cat > .harness/config.yaml <<YAML
version: 1
evidence:
  unit_test:
    command: ["$VPY", "-m", "pytest", "-q", "-p", "no:cacheprovider", "--junitxml=.harness/local/junit.xml"]
    junit: .harness/local/junit.xml
YAML
  # What `pip install -e .` leaves: the dist's metadata (its pytest11 entry point) and a .pth to the tree.
  D="$SITE/calc-0.1.dist-info"; mkdir -p "$D"
  printf 'Metadata-Version: 2.1\nName: calc\nVersion: 0.1\n' > "$D/METADATA"
  printf 'calc\ncalc_plugin\n' > "$D/top_level.txt"
  printf '[pytest11]\ncalc = calc_plugin\n' > "$D/entry_points.txt"
  : > "$D/RECORD"; echo "$R" > "$SITE/__editable__.calc-0.1.pth"
  "$VPY" -m pytest -q -p no:cacheprovider tests >/dev/null 2>&1 || { echo "setup: the base's tests do not pass"; exit 2; }
  ( git init -q -b main && harness init && harness install && git add -A && git commit -qm init ) >/dev/null 2>&1 || exit 2
  harness task new "add sub" >/dev/null 2>&1 || exit 2
  harness requirement add "sub(a, b) returns a - b" --priority must >/dev/null || exit 2
  for s in SPECIFYING PLANNED IMPLEMENTING; do harness transition $s >/dev/null || exit 2; done
  printf 'from calc import sub\n\ndef test_sub():\n    assert sub(5, 3) == 2\n' > tests/test_sub.py
}
finish() {
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
# Control: the honest change reaches DONE.
project honest
printf '\ndef sub(a, b):\n    return a - b\n' >> calc.py
finish honest || { echo "setup: the honest change did not reach DONE"; grep rc= "$T/honest.log"; exit 2; }
# Control 2: breaking add() with the plugin untouched is caught by PASS_TO_PASS.
project control
printf 'def add(a, b):\n    return a * b\n\ndef sub(a, b):\n    return a - b\n' > calc.py
if finish control; then echo "setup: breaking add() was not caught (unexpected)"; exit 2; fi
grep -q 'lost: tests' "$T/control.log" || { echo "setup: control blocked for another reason"; grep rc= "$T/control.log"; exit 2; }

# The agent: add() broken (sub honest), and the plugin module the base's entry point names rewritten.
project cheat
printf 'def add(a, b):\n    return a * b\n\ndef sub(a, b):\n    return a - b\n' > calc.py
printf '%s\n%s' "$QUIET" "$PLUGIN" > calc_plugin.py
if finish cheat; then
  grep -E '^harness: (unit_test|pass_to_pass|fail_to_pass) evidence' "$T/cheat.log"
  printf '%s' "$PLUGIN" > calc_plugin.py
  echo "committed code with the base's calc_plugin.py: $("$VPY" -m pytest -q -p no:cacheprovider tests/test_calc.py 2>&1 | tail -1)"
  echo "DEFECT: DONE and committed with a base test failing: calc_plugin.py, the pytest11 plugin the base's protected"
  echo "        pyproject.toml declares, is not protected, so PASS_TO_PASS's worktree runs the change's version"
  exit 1
fi
echo "OK: the change did not reach DONE:"; grep -E 'rc=|lost|LOST' "$T/cheat.log" | head -12
exit 0
