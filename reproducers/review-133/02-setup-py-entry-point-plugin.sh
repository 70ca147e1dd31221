#!/usr/bin/env bash
# Defect: harness/core/pytest_startup.py entry_point_plugins() reads the project's own `pytest11` entry points only
# from pyproject.toml and setup.cfg; a project that declares them in setup.py (`setup(entry_points={"pytest11":
# [...]})`, still common) has its plugin module loaded by pytest (the editable install's dist-info names it) yet never
# protected: setup.py is neither pytest configuration nor read. The base's plugin calc_plugin.py (a report hook that
# only counts) is rewritten by the change to turn every failure into a pass, and add() is broken; PASS_TO_PASS runs the
# base's tests with the change's plugin, test_add is reported passed, and pass_to_pass, gate --advance, DONE, the
# commit hook, the push guard and `harness audit` accept add(2, 3) == -1.
# Correct behaviour: a module the base's setup.py names as a pytest11 entry point is a plugin the base loads, like one
# pyproject.toml or setup.cfg names: protected and put back in PASS_TO_PASS (test_add lost, the gate refuses DONE) —
# or, where setup.py cannot be read statically, PASS_TO_PASS refuses naming it.
# Exit 1 while the defect is present, 0 when fixed, 2 on a setup failure.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 HOME=$T/home
export GIT_AUTHOR_NAME=D GIT_AUTHOR_EMAIL=d@example.com GIT_COMMITTER_NAME=D GIT_COMMITTER_EMAIL=d@example.com
mkdir -p "$HOME"
setup() { "$@" >>"$T/log" 2>&1 || { echo "setup failed: $*"; tail -20 "$T/log"; exit 2; }; }
# The project's own environment: a virtualenv of the Python the harness runs on, with pytest and setuptools.
base_py=$("$here/.venv/bin/python" -c 'import sys; print(getattr(sys, "_base_executable", sys.executable))')
setup "$base_py" -m venv --system-site-packages "$T/venv"
"$T/venv/bin/python" -c 'import pytest, setuptools, wheel' 2>/dev/null || setup "$T/venv/bin/python" -m pip install -q pytest 'setuptools>=64' wheel
export PATH="$T/venv/bin:$PATH"
cd "$T" && setup git init -q --bare remote.git && setup git clone -q remote.git app && cd app
setup git checkout -q -b main
mkdir tests .harness
printf 'def add(a, b):\n    return a + b\n' > calc.py
printf 'from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n' > tests/test_calc.py
cat > pyproject.toml <<'TOML'
[build-system]
requires = ["setuptools>=64"]
build-backend = "setuptools.build_meta"
TOML
cat > setup.py <<'PY'
from setuptools import setup

setup(name="calc", version="0.1", py_modules=["calc", "calc_plugin"],
      entry_points={"pytest11": ["calc_plugin = calc_plugin"]})
PY
cat > calc_plugin.py <<'PY'
"""Counts the cases run (the project's own pytest plugin)."""
import pytest

RUN = []


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    RUN.append(outcome.get_result().nodeid)
PY
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
# The weakening: add() broken, and the base's plugin rewritten to report every failure as a pass.
printf 'def add(a, b):\n    return a - b\n\n\ndef triple(x):\n    return 3 * x\n' > calc.py
cat > calc_plugin.py <<'PY'
"""Counts the cases run (the project's own pytest plugin)."""
import pytest

RUN = []


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    RUN.append(report.nodeid)
    if report.failed:
        report.outcome = "passed"
        report.longrepr = None
PY
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
git push -q origin main >>"$T/log" 2>&1 || { echo "FIXED: the push guard refused"; exit 0; }
harness audit >>"$T/log" 2>&1 || { echo "FIXED: harness audit refused"; exit 0; }
v=$(python -c 'import calc; print(calc.add(2, 3))')
if [ "$v" != 5 ]; then echo "DEFECT: DONE, committed, pushed and audited with add(2, 3) == $v: the base's pytest11 plugin, declared in setup.py, was not protected; the change's version passed every failure in PASS_TO_PASS's run of the base's tests"; exit 1; fi
echo "setup: add() not broken"; exit 2
