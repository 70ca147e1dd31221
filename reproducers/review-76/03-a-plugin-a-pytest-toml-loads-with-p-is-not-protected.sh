#!/usr/bin/env bash
# Defect: F-0264/F-0261's fix reads the base's pytest configuration for `addopts = -p NAME` plugins (protected like a
#   conftest.py) and `pythonpath` folders (harness/core/pytest_startup.py settings_of() -> _toml()), but for a TOML
#   file it reads only the `[tool.pytest]` / `[tool.pytest.ini_options]` tables, which are pyproject.toml's. A
#   `pytest.toml` or `.pytest.toml` (pytest 9's own configuration files, listed in suite.PYTEST_CONFIGS and in what
#   `harness init` protects) keeps its settings in a top-level `[pytest]` table (_pytest/config/findpaths.py
#   _load_pytest_toml), which _toml() never looks at: startup() returns no plugin and no folder for it. So the project's
#   own plugin that `pytest.toml` loads with `-p` is not protected: the agent edits it to turn every failure into a
#   pass, PASS_TO_PASS runs it as edited (only the config file is put back, and it names the same plugin), and the task
#   reaches DONE and is committed with every base test failing. The same plugin named by a pytest.ini is caught
#   (control below). (pytest.toml's `pythonpath` folders are missed the same way.)
# Correct: settings_of() reads the `[pytest]` table of pytest.toml/.pytest.toml (and of any `.toml` given with -c), as
#   pytest does; the plugin module is then put back as the base had it in PASS_TO_PASS's worktree, the base's tests fail
#   against the broken code and the gate blocks.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
unset PYTHONPATH PYTEST_ADDOPTS PYTEST_PLUGINS PYTHONPYCACHEPREFIX PYTHONDONTWRITEBYTECODE
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"

project() {  # $1 name, $2 config file, $3 its text: a project whose pytest config loads its own plugin qa_plugin.py
  R="$T/$1"; mkdir -p "$R" && cd "$R" || exit 2
  mkdir -p .harness tests
  printf 'def add(a, b):\n    return a + b\n' > calc.py
  printf 'import pytest\n\n@pytest.fixture\ndef two():\n    return 2\n' > qa_plugin.py
  printf 'from calc import add\n\ndef test_add(two):\n    assert add(two, 3) == 5\n\ndef test_add_neg():\n    assert add(-2, -3) == -5\n' > tests/test_calc.py
  printf '__pycache__/\n.pytest_cache/\n' > .gitignore
  printf '%s\n' "$3" > "$2"
  cat > .harness/config.yaml <<'YAML'
version: 1
evidence:
  unit_test:
    command: ["python", "-m", "pytest", "-q", "--junitxml=.harness/local/junit.xml"]
    junit: .harness/local/junit.xml
YAML
  ( git init -q -b main && harness init && harness install && git add -A && git commit -qm init ) >/dev/null 2>&1 || exit 2
  python -m pytest -q -p no:cacheprovider tests >/dev/null 2>&1 || { echo "setup: the base's tests do not pass with $2"; exit 2; }
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
cheat() {  # sub wrong, add broken, and the project's plugin edited to turn every failure into a pass
  project "$@"
  printf 'def add(a, b):\n    return a * b\n\ndef sub(a, b):\n    return 0\n' > calc.py
  cat >> qa_plugin.py <<'PY'

@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    rep = outcome.get_result()
    if rep.failed:
        rep.outcome, rep.longrepr = "passed", None
PY
}
TOML='[pytest]
addopts = ["-p", "qa_plugin"]'
INI='[pytest]
addopts = -p qa_plugin'

# Control 1: the honest change reaches DONE (the setup works).
project honest pytest.toml "$TOML"
printf '\ndef sub(a, b):\n    return a - b\n' >> calc.py
finish honest || { echo "setup: the honest change did not reach DONE"; grep rc= "$T/honest.log"; exit 2; }

# Control 2: the same plugin named by a pytest.ini: the edited plugin is put back, the base's tests are lost.
cheat control pytest.ini "$INI"
if finish control; then echo "setup: with pytest.ini the edited plugin still reached DONE"; exit 2; fi
echo "control (pytest.ini): $(grep -c 'lost:' "$T/control.log") base cases lost in pass_to_pass, no DONE"

# The agent, the project's plugin named by pytest.toml.
cheat cheat pytest.toml "$TOML"
if finish cheat; then
  grep -E '^harness: (unit_test|pass_to_pass|fail_to_pass) evidence' "$T/cheat.log"
  git show HEAD~1:qa_plugin.py > qa_plugin.py
  echo "committed code with the base's qa_plugin.py: $(python -m pytest -q -p no:cacheprovider tests 2>&1 | tail -1)"
  echo "DEFECT: DONE and committed with every base test failing: the plugin pytest.toml's [pytest] addopts loads"
  echo "        (-p qa_plugin) is not protected, pytest_startup._toml() reads only [tool.pytest]"
  exit 1
fi
echo "OK: the change did not reach DONE:"; grep -E 'rc=|lost|LOST' "$T/cheat.log" | head -12
exit 0
