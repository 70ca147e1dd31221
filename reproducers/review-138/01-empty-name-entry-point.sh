#!/usr/bin/env bash
# Defect: harness/evidence/tree_plugins.py undeclared() skips every `pytest11` entry point whose NAME is empty
# (`if name and value and where ...`), and kept_out() can only keep one out by its name (`-p no:NAME`). pluggy's
# load_setuptools_entrypoints() loads such an entry point all the same: has_plugin("") and is_blocked("") are false,
# and register(plugin, name="") registers it under the plugin's canonical name (the module's __name__). An
# entry_points.txt line ` = calc` (a wheel built by hand and installed with pip; importlib.metadata reads the name as
# "") therefore loads calc.py -- the code under test, found in the worktree -- as a pytest plugin in PASS_TO_PASS's
# run of the base's tests, while the harness neither keeps it out nor refuses. calc.py's pytest_runtest_makereport
# hookwrapper turns every failure into a pass; the base's test_add passes with add() broken and the task reaches DONE.
# docs/suite.md: "the change cannot add a plugin to the base's run".
# Correct behaviour: an entry point that cannot be kept out by name (an empty or otherwise unblockable name) and whose
# module is found in the tree is refused (or its distribution hidden), so pass_to_pass exits non-zero.
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
"$T/venv/bin/python" -c 'import pytest' 2>/dev/null || setup "$T/venv/bin/python" -m pip install -q pytest
export PATH="$T/venv/bin:$PATH"
cd "$T" && setup git init -q --bare remote.git && setup git clone -q remote.git app && cd app
setup git checkout -q -b main
mkdir tests .harness
printf 'def add(a, b):\n    return a + b\n' > calc.py
printf 'from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n' > tests/test_calc.py
printf '__pycache__/\n.pytest_cache/\n' > .gitignore
printf '[tool.pytest.ini_options]\npythonpath = ["."]\n' > pyproject.toml
cat > .harness/config.yaml <<'YAML'
version: 1
evidence:
  unit_test:
    command: [python, -m, pytest, -q, -p, no:cacheprovider, tests, --junitxml=.harness/local/junit.xml]
    junit: .harness/local/junit.xml
YAML
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
# The weakening: add() broken; calc.py grows a report hookwrapper.
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
# A distribution outside the repository whose only content is a pytest11 entry point with an empty name -> calc.
python - "$T/whl" <<'PY' >>"$T/log" 2>&1 || { echo "setup failed: wheel"; exit 2; }
import base64, hashlib, os, sys, zipfile
out = sys.argv[1]; os.makedirs(out)
files = {"helper-0.1.dist-info/METADATA": "Metadata-Version: 2.1\nName: helper\nVersion: 0.1\n",
         "helper-0.1.dist-info/WHEEL": "Wheel-Version: 1.0\nGenerator: hand\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
         "helper-0.1.dist-info/entry_points.txt": "[pytest11]\n = calc\n"}
record = []
for name, text in files.items():
    digest = base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=").decode()
    record.append(f"{name},sha256={digest},{len(text.encode())}")
record.append("helper-0.1.dist-info/RECORD,,")
files["helper-0.1.dist-info/RECORD"] = "\n".join(record) + "\n"
with zipfile.ZipFile(os.path.join(out, "helper-0.1-py3-none-any.whl"), "w") as z:
    for name, text in files.items():
        z.writestr(name, text)
PY
setup python -m pip install -q --no-deps --no-index "$T/whl/helper-0.1-py3-none-any.whl"
python -c 'import importlib.metadata as m; print([(e.name, e.value) for e in m.distribution("helper").entry_points])' >>"$T/log" 2>&1
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
v=$(python -c 'import calc; print(calc.add(2, 3))')
if [ "$v" != 5 ]; then echo "DEFECT: DONE with add(2, 3) == $v: the pytest11 entry point ' = calc' (empty name) loaded calc.py, the code under test, as a plugin in PASS_TO_PASS's run of the base's tests; undeclared() skipped it for its empty name"; exit 1; fi
echo "setup: add() not broken"; exit 2
