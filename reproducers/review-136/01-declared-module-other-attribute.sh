#!/usr/bin/env bash
# Defect: harness/evidence/tree_plugins.py undeclared()/_declared() judge a pytest11 entry point by its MODULE alone
# (the part before `:`), never its attribute. pluggy registers what `ep.load()` returns: the attribute path after `:`
# walked by getattr. The base declares `[project.entry-points.pytest11] calc_plugin = "calc_plugin"` (its plugin,
# protected, which does `import calc` for its fixture). The change adds a second entry point
# `calc_report = "calc_plugin:calc"`: its module, calc_plugin, is one the worktree's (base's) pyproject.toml declares,
# so it is not kept out with `-p no:calc_report`; pytest loads it and registers the object `calc_plugin.calc` -- the
# module calc.py, the code under test -- as a plugin, whose pytest_runtest_makereport hookwrapper turns every failure
# into a pass. PASS_TO_PASS's run of the base's failing test_add reads it passed; the task reaches DONE with
# add(2, 3) == -1.
# Correct behaviour: an entry point counts as declared only when the worktree declares that same entry point (name and
# full value, module and attribute), or the object it loads is the declared plugin; otherwise it is kept out
# (`-p no:calc_report`) and test_add is lost, so pass_to_pass exits non-zero.
# Exit 1 while the defect is present, 0 when fixed, 2 on a setup failure.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 HOME=$T/home
export GIT_AUTHOR_NAME=D GIT_AUTHOR_EMAIL=d@example.com GIT_COMMITTER_NAME=D GIT_COMMITTER_EMAIL=d@example.com
mkdir -p "$HOME"
setup() { "$@" >>"$T/log" 2>&1 || { echo "setup failed: $*"; tail -20 "$T/log"; exit 2; }; }
base_py=$("$here/.venv/bin/python" -c 'import sys; print(getattr(sys, "_base_executable", sys.executable))')
setup "$base_py" -m venv --system-site-packages "$T/venv"
"$T/venv/bin/python" -c 'import pytest, setuptools, wheel' 2>/dev/null || setup "$T/venv/bin/python" -m pip install -q pytest 'setuptools>=64' wheel
export PATH="$T/venv/bin:$PATH"
cd "$T" && setup git init -q --bare remote.git && setup git clone -q remote.git app && cd app
setup git checkout -q -b main
mkdir tests .harness
printf 'def add(a, b):\n    return a + b\n' > calc.py
# The base's own pytest plugin: a fixture built on the library (an honest, common shape).
cat > calc_plugin.py <<'PY'
import pytest

import calc


@pytest.fixture
def adder():
    return calc.add
PY
printf 'from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n' > tests/test_calc.py
cat > pyproject.toml <<'TOML'
[build-system]
requires = ["setuptools>=64"]
build-backend = "setuptools.build_meta"

[project]
name = "calc"
version = "0.1"

[tool.setuptools]
py-modules = ["calc", "calc_plugin"]

[project.entry-points.pytest11]
calc_plugin = "calc_plugin"
TOML
printf '__pycache__/\n.pytest_cache/\n*.egg-info/\nbuild/\n' > .gitignore
cat > .harness/config.yaml <<'YAML'
version: 1
evidence:
  unit_test:
    command: [python, -m, pytest, -q, tests, --junitxml=.harness/local/junit.xml]
    junit: .harness/local/junit.xml
YAML
setup python -m pip install -q --no-deps --no-build-isolation -e .
setup harness init
setup harness install
setup git add -A
setup git commit -qm init
setup git push -q origin main
setup git remote set-head origin main
setup harness task new "Add triple"
setup harness requirement add "triple(x) returns 3 * x" --priority must
for s in SPECIFYING PLANNED IMPLEMENTING; do setup harness transition $s; done
printf 'from calc import triple\n\n\ndef test_triple():\n    assert triple(2) == 6\n' > tests/test_triple.py
# The weakening: add() broken; calc.py grows a report hookwrapper; a second entry point names the base's declared
# module, calc_plugin, with the attribute `calc` (the module calc_plugin imported).
cat > calc.py <<'PY'
import pytest


def add(a, b):
    return a - b


def triple(x):
    return 3 * x


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.failed:
        report.outcome = "passed"
        report.longrepr = None
PY
cat >> pyproject.toml <<'TOML'
calc_report = "calc_plugin:calc"
TOML
setup python -m pip install -q --no-deps --no-build-isolation -e .
setup harness transition VERIFYING
harness evidence unit_test >>"$T/log" 2>&1; echo "unit_test exit $?"
setup harness requirement set REQ-001 --status verified --evidence unit_test --tests tests/test_triple.py::test_triple
harness evidence pass_to_pass >>"$T/log" 2>&1; p2p=$?
echo "pass_to_pass exit $p2p"
if [ "$p2p" -ne 0 ]; then grep -i "lost\|plugin\|entry" "$T/log" | tail -5; echo "FIXED: pass_to_pass refused"; exit 0; fi
harness evidence fail_to_pass >>"$T/log" 2>&1; echo "fail_to_pass exit $?"
setup harness transition REVIEWING
setup harness transition GATING
harness gate --advance >>"$T/log" 2>&1 || { tail -30 "$T/log"; echo "FIXED: the gate refused"; exit 0; }
harness transition DONE >>"$T/log" 2>&1 || { echo "FIXED: DONE refused"; exit 0; }
git add -A && git commit -qm "triple" >>"$T/log" 2>&1 || { echo "FIXED: the commit hook refused"; exit 0; }
v=$(python -c 'import calc; print(calc.add(2, 3))')
if [ "$v" != 5 ]; then echo "DEFECT: DONE and committed with add(2, 3) == $v: the entry point calc_report = \"calc_plugin:calc\" (a declared module, another attribute) registered calc.py, the code under test, as a plugin in PASS_TO_PASS's run of the base's tests"; exit 1; fi
echo "setup: add() not broken"; exit 2
