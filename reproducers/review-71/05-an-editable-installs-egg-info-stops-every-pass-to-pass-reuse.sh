#!/usr/bin/env bash
# Defect: F-0226's fix adds `**/*.egg-info/**` to the always-protected patterns (harness/core/suite.py ALWAYS), and
#   PASS_TO_PASS's reuse check refuses a run whenever the checkout holds *any* git-ignored file a protected pattern
#   matches (harness/evidence/suite_caches.py shaped_by(): a non-cache ignored file that suite.protected() accepts).
#   `pip install -e .` of a src-layout project (setuptools) writes `src/<name>.egg-info/` into the checkout, which
#   every Python .gitignore ignores (`*.egg-info/`). From then on no unit_test run is ever reused: every
#   `harness evidence pass_to_pass` of a change that touches no protected file runs the whole suite a second time in
#   a worktree, although docs/suite.md promises "A change that touches no protected file costs no extra run". The
#   metadata holds no plugin (no `[pytest11]` entry point); the same checkout without it is reused.
# Correct: package metadata git ignores stops reuse only when it could load a plugin (its entry points declare a
#   `pytest11` group, or it is not the project's own installed metadata), so an honest change in a project installed
#   editable is still reused.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"
unset PYTHONDONTWRITEBYTECODE PYTHONPYCACHEPREFIX PYTHONPATH PYTEST_ADDOPTS PYTEST_PLUGINS

R="$T/repo"; mkdir -p "$R" && cd "$R" || exit 2
mkdir -p .harness tests src/calc
cat > pyproject.toml <<'TOML'
[build-system]
requires = ["setuptools"]
build-backend = "setuptools.build_meta"

[project]
name = "calc"
version = "0.1"

[tool.pytest.ini_options]
pythonpath = ["src"]
TOML
printf 'def add(a, b):\n    return a + b\n' > src/calc/__init__.py
printf 'from calc import add\n\ndef test_add():\n    assert add(2, 3) == 5\n' > tests/test_calc.py
printf '__pycache__/\n.pytest_cache/\n*.egg-info/\n' > .gitignore
cat > .harness/config.yaml <<'YAML'
version: 1
evidence:
  unit_test:
    command: ["python", "-m", "pytest", "-q", "--junitxml=.harness/local/junit.xml"]
    junit: .harness/local/junit.xml
YAML
( git init -q -b main && harness init && harness install && git add -A && git commit -qm init ) >/dev/null 2>&1 || exit 2
harness task new "faster add" >/dev/null 2>&1 || exit 2
for s in SPECIFYING PLANNED IMPLEMENTING VERIFYING; do harness transition $s >/dev/null 2>&1 || exit 2; done
printf 'def add(a, b):\n    """The sum."""\n    return a + b\n' > src/calc/__init__.py   # an honest change, no protected file

measure() {  # unit_test then pass_to_pass; prints whether pass_to_pass reused the run
  harness evidence unit_test >"$T/u.log" 2>&1 || { echo "setup: unit_test failed"; cat "$T/u.log"; exit 2; }
  harness evidence pass_to_pass >"$T/p.log" 2>&1 || { echo "setup: pass_to_pass failed"; cat "$T/p.log"; exit 2; }
  grep -q 'reused unit_test run' "$T/p.log" && echo reused || echo ran-again
}

# Control: the honest change's unit_test run is reused.
[ "$(measure)" = reused ] || { echo "setup: the run is not reused even without the metadata"; grep PASS_TO_PASS "$T/p.log"; exit 2; }
echo "without an egg-info: pass_to_pass reused the unit_test run"

# The developer installs the project editable (what `pip install -e .` writes into the tree: src/calc.egg-info/).
python -c 'from setuptools import setup; setup()' -q egg_info >/dev/null 2>&1 || exit 2
[ -d src/calc.egg-info ] && git check-ignore -q src/calc.egg-info || { echo "setup: no ignored egg-info"; exit 2; }
grep -q pytest11 src/calc.egg-info/entry_points.txt 2>/dev/null && exit 2
git status --porcelain | grep -q egg-info && exit 2
result=$(measure)
echo "with src/calc.egg-info/ (git-ignored, no entry points): $result"
grep PASS_TO_PASS "$T/p.log" | head -2
if [ "$result" = ran-again ]; then
  echo "DEFECT: an editable install's metadata, ignored and declaring no plugin, makes every pass_to_pass run the"
  echo "        whole suite again, though no protected file changed"
  exit 1
fi
echo "OK: still reused"
exit 0
