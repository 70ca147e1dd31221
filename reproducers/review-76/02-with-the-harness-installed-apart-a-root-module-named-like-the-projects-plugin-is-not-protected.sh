#!/usr/bin/env bash
# Defect: F-0260's fix (harness/evidence/pass_to_pass.py installed_names(), used by protected_changes() ->
#   suite.changed_protected() -> shadows_what_the_runner_imports()) protects a root module the change adds under an
#   installed distribution's top-level name only for the distributions of the *harness's own* interpreter
#   (importlib.metadata.packages_distributions() in the harness process). The README's first install line is
#   `pipx install ...`: the harness then runs in its own virtualenv, while the project's test command runs the
#   project's interpreter (`.venv/bin/python -m pytest`, which pass_to_pass.located() takes from the repository),
#   whose pytest plugins the harness's interpreter does not have. pytest imports each plugin's pytest11 entry point
#   module by name as it starts, and the tree's root is first on sys.path (`python -m`; PASS_TO_PASS's worktree
#   first on PYTHONPATH), so a root module named like the project's plugin is loaded *as that plugin*: here a
#   hookwrapper turning every failure into a pass. unit_test, pass_to_pass and fail_to_pass "pass"; the task reaches
#   DONE and is committed with every base test failing. (The same change is caught when the project's plugin is
#   installed in the harness's interpreter: the control below.)
# Correct: the names protected are those of the interpreter the test command runs (ask it: the configured program's
#   `importlib.metadata.packages_distributions()` / pytest11 entry points), or, failing that, any root module the
#   change adds whose name the test interpreter can import from elsewhere; the root module is then removed in
#   PASS_TO_PASS's worktree, where the base's tests fail against the broken code and the gate blocks.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
unset PYTHONPATH PYTEST_ADDOPTS PYTEST_PLUGINS PYTHONPYCACHEPREFIX PYTHONDONTWRITEBYTECODE VIRTUAL_ENV
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"
HARNESS_SITE=$(python -c 'import pytest, os; print(os.path.dirname(os.path.dirname(pytest.__file__)))') || exit 2

project_venv() {  # the project's own virtualenv (git-ignored): pytest, plus the project's plugin `pytest-projx`
  python -m venv --without-pip "$1" || exit 2
  local site; site=$(echo "$1"/lib/python3*/site-packages)
  echo "$HARNESS_SITE" > "$site/base-tools.pth"              # pytest and its dependencies, as pip would install them
  printf 'import pytest\n\n@pytest.fixture\ndef projx():\n    return 1\n' > "$site/pytest_projx.py"
  mkdir "$site/pytest_projx-1.0.dist-info"
  printf 'Metadata-Version: 2.1\nName: pytest-projx\nVersion: 1.0\n' > "$site/pytest_projx-1.0.dist-info/METADATA"
  printf '[pytest11]\nprojx = pytest_projx\n' > "$site/pytest_projx-1.0.dist-info/entry_points.txt"
  printf 'pytest_projx\n' > "$site/pytest_projx-1.0.dist-info/top_level.txt"
  printf 'pytest_projx.py,,\n' > "$site/pytest_projx-1.0.dist-info/RECORD"
}
project() {  # a Python project with two passing tests, the harness adopted, a task "add sub" open
  R="$T/$1"; mkdir -p "$R" && cd "$R" || exit 2
  mkdir -p .harness tests
  project_venv "$R/.venv"
  printf 'def add(a, b):\n    return a + b\n' > calc.py
  printf 'from calc import add\n\ndef test_add():\n    assert add(2, 3) == 5\n\ndef test_add_neg():\n    assert add(-2, -3) == -5\n' > tests/test_calc.py
  printf '__pycache__/\n.pytest_cache/\n.venv/\n' > .gitignore
  cat > .harness/config.yaml <<'YAML'
version: 1
evidence:
  unit_test:
    command: [".venv/bin/python", "-m", "pytest", "-q", "--junitxml=.harness/local/junit.xml"]
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
QUIET='import pytest

@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    rep = outcome.get_result()
    if rep.failed:
        rep.outcome, rep.longrepr = "passed", None
'
cheat() {  # sub wrong, add broken, and a root module named like the project's plugin's entry point module
  project "$1"
  printf 'def add(a, b):\n    return a * b\n\ndef sub(a, b):\n    return 0\n' > calc.py
  printf '%s' "$QUIET" > pytest_projx.py
}

# Control 1: the honest change reaches DONE (the setup works).
project honest
printf '\ndef sub(a, b):\n    return a - b\n' >> calc.py
finish honest || { echo "setup: the honest change did not reach DONE"; grep rc= "$T/honest.log"; exit 2; }
.venv/bin/python -c 'import importlib.metadata as m, sys; sys.exit(not any(e.value == "pytest_projx" for e in m.entry_points(group="pytest11")))' \
  || { echo "setup: the project's interpreter does not have the pytest_projx plugin"; exit 2; }
python -c 'import importlib.metadata as m, sys; sys.exit("pytest_projx" in m.packages_distributions())' \
  || { echo "setup: the harness's interpreter has pytest_projx already"; exit 2; }

# Control 2: the plugin installed in the harness's interpreter too (the harness in the project's environment): caught.
cheat control
SITE2=$(echo "$T/extra"); mkdir -p "$SITE2"; cp -r "$R"/.venv/lib/python3*/site-packages/pytest_projx* "$SITE2/"
rm -f "$SITE2/pytest_projx.py"
if PYTHONPATH="$SITE2" finish control; then
  echo "setup: with the plugin's distribution visible to the harness too, the cheat still reached DONE"; exit 2
fi

echo "control (the plugin visible to the harness too): $(grep -c "lost:" "$T/control.log") base cases lost in pass_to_pass, no DONE"
# The agent, with the harness installed apart (pipx): the harness's interpreter has no pytest-projx.
cheat cheat
if finish cheat; then
  grep -E '^harness: (unit_test|pass_to_pass|fail_to_pass) evidence' "$T/cheat.log"
  mkdir "$T/aside" && mv pytest_projx.py "$T/aside/"
  echo "committed tree without the root module, the project's pytest: $(.venv/bin/python -m pytest -q -p no:cacheprovider tests 2>&1 | tail -1)"
  echo "DEFECT: DONE and committed with every base test failing: a root pytest_projx.py (the module the project's"
  echo "        plugin's pytest11 entry point names in the test interpreter) is not protected, because"
  echo "        installed_names() asks the harness's own interpreter, not the one the test command runs"
  exit 1
fi
echo "OK: the change did not reach DONE:"; grep -E 'rc=|lost|LOST' "$T/cheat.log" | head -12
exit 0
