#!/usr/bin/env bash
# Defect: harness/core/pytest_startup.py startup() (through harness/evidence/base_startup.py at_base() and
# harness/evidence/pass_to_pass.py protected_changes()/_startup) resolves the modules a pytest11 entry point names
# relative to the tree's ROOT (NAME.py, NAME/__init__.py, src/, `pythonpath`), never relative to the folder of the
# setup.py / pyproject.toml / setup.cfg that declares them. In a repository whose package lives in a subfolder
# (pkgs/calc/setup.py with entry_points={"pytest11": ["calc_plugin = calc_plugin"]}, installed `pip install -e
# pkgs/calc`), the base's plugin pkgs/calc/calc_plugin.py is therefore not protected -- while
# harness/evidence/tree_plugins.py _declared() treats the entry point as declared ("in the folder its distribution was
# installed from") and lets it load, on the premise that the base's plugins' files are protected. The change rewrites
# pkgs/calc/calc_plugin.py so its report hookwrapper passes every failure, and breaks add(): PASS_TO_PASS's run of the
# base's failing test_add loads the change's plugin and reads it passed; the task reaches DONE with add(2, 3) == -1.
# (read 133's F-0473 fixed this for a setup.py at the root only.)
# Correct behaviour: a module a base's packaging file in any folder names as a pytest11 entry point is protected where
# that file's distribution finds it (pkgs/calc/calc_plugin.py), so PASS_TO_PASS puts the base's plugin back and
# test_add is lost (pass_to_pass exits non-zero), or the run refuses naming the unprotected plugin.
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
mkdir -p tests .harness pkgs/calc
printf 'def add(a, b):\n    return a + b\n' > pkgs/calc/calc.py
# The base's own pytest plugin, in the package's folder: it only records which tests failed.
cat > pkgs/calc/calc_plugin.py <<'PY'
import pytest

FAILED = []


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    if outcome.get_result().failed:
        FAILED.append(item.nodeid)
PY
cat > pkgs/calc/setup.py <<'PY'
from setuptools import setup

setup(
    name="calc",
    version="0.1",
    py_modules=["calc", "calc_plugin"],
    entry_points={"pytest11": ["calc_plugin = calc_plugin"]},
)
PY
printf 'from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n' > tests/test_calc.py
printf '__pycache__/\n.pytest_cache/\n*.egg-info/\nbuild/\n' > .gitignore
cat > .harness/config.yaml <<'YAML'
version: 1
evidence:
  unit_test:
    command: [python, -m, pytest, -q, tests, --junitxml=.harness/local/junit.xml]
    junit: .harness/local/junit.xml
YAML
setup python -m pip install -q --no-deps --no-build-isolation -e pkgs/calc
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
# The weakening: add() broken; the base's declared plugin now passes every failure. setup.py is untouched.
printf 'def add(a, b):\n    return a - b\n\n\ndef triple(x):\n    return 3 * x\n' > pkgs/calc/calc.py
cat > pkgs/calc/calc_plugin.py <<'PY'
import pytest

FAILED = []


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.failed:
        report.outcome = "passed"
        report.longrepr = None
PY
setup harness transition VERIFYING
harness evidence unit_test >>"$T/log" 2>&1; echo "unit_test exit $?"
setup harness requirement set REQ-001 --status verified --evidence unit_test --tests tests/test_triple.py::test_triple
harness evidence pass_to_pass >>"$T/log" 2>&1; p2p=$?
echo "pass_to_pass exit $p2p"
if [ "$p2p" -ne 0 ]; then grep -i "lost\|plugin\|entry\|protect" "$T/log" | tail -5; echo "FIXED: pass_to_pass refused"; exit 0; fi
harness evidence fail_to_pass >>"$T/log" 2>&1; echo "fail_to_pass exit $?"
setup harness transition REVIEWING
setup harness transition GATING
harness gate --advance >>"$T/log" 2>&1 || { tail -30 "$T/log"; echo "FIXED: the gate refused"; exit 0; }
harness transition DONE >>"$T/log" 2>&1 || { echo "FIXED: DONE refused"; exit 0; }
git add -A && git commit -qm "triple" >>"$T/log" 2>&1 || { echo "FIXED: the commit hook refused"; exit 0; }
v=$(python -c 'import calc; print(calc.add(2, 3))')
if [ "$v" != 5 ]; then echo "DEFECT: DONE and committed with add(2, 3) == $v: pkgs/calc/calc_plugin.py, the base's pytest11 plugin declared in pkgs/calc/setup.py, was not protected; the change's version passed every failure in PASS_TO_PASS's run of the base's tests"; exit 1; fi
echo "setup: add() not broken"; exit 2
