#!/usr/bin/env bash
# Defect: harness/core/pytest_startup.py entry_point_plugins()/startup() (used by harness/evidence/base_startup.py and
# harness/evidence/pass_to_pass.py protected_changes()) read the project's `pytest11` entry points from the BASE's
# pyproject.toml/setup.cfg only, on the premise that "the installed metadata is what pytest reads; the base's
# declaration is what it was installed from". But the metadata pytest reads is the one the project's environment holds
# now — installed from the change (`pip install -e .`, as every developer and CI do after editing pyproject.toml). The
# change adds `[project.entry-points.pytest11] calc_report = "calc"` and puts a pytest_runtest_makereport
# hookwrapper turning failures into passes in calc.py, the code under test, and
# breaks add(). PASS_TO_PASS puts the base's pyproject.toml back in its worktree, but pytest still loads the
# entry point from the environment's dist-info and imports `calc` — from the worktree, the change's calc.py — as a
# plugin; the base's failing test_add is reported passed; pass_to_pass, gate --advance, DONE, the commit hook, the
# push guard and `harness audit` accept add(2, 3) == -1. (CI installs the project from the commit before the audit,
# as docs/ci.md says, so its re-run loads the same plugin.)
# Correct behaviour: a module that pytest loads as a plugin through a pytest11 entry point the change declares (or
# the run's environment's metadata names, when it points into the tree) is not run unseen: PASS_TO_PASS refuses
# (naming the entry point and the module) or loses the base's cases, and the gate refuses DONE.
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

[project]
name = "calc"
version = "0.1"

[tool.setuptools]
py-modules = ["calc"]
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
# The weakening: add() broken; calc.py, the code under test, doubles as a pytest plugin that reports every failure as
# a pass; pyproject.toml declares it as a pytest11 entry point, and the project is installed again from the change.
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

[project.entry-points.pytest11]
calc_report = "calc"
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
git push -q origin main >>"$T/log" 2>&1 || { echo "FIXED: the push guard refused"; exit 0; }
harness audit >>"$T/log" 2>&1 || { echo "FIXED: harness audit refused"; exit 0; }
v=$(python -c 'import calc; print(calc.add(2, 3))')
if [ "$v" != 5 ]; then echo "DEFECT: DONE, committed, pushed and audited with add(2, 3) == $v: the change's pytest11 entry point loaded calc.py, the code under test, as a plugin that passes every failure, in PASS_TO_PASS's run of the base's tests"; exit 1; fi
echo "setup: add() not broken"; exit 2
