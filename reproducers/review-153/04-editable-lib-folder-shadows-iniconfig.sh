#!/usr/bin/env bash
# Defect (harness/core/pytest_startup.first_on_the_path, used by harness/evidence/pass_to_pass.protected_changes for
# what PASS_TO_PASS protects; the run's PYTHONPATH from harness/evidence/tree_imports.import_folders / worktree_env):
# the worktree run puts FIRST on PYTHONPATH, ahead of site-packages, src/, the base's `pythonpath` folders AND the
# worktree's counterparts of the checkout folders the run's interpreter imports from (`rels` from checkout_folders:
# an editable install's `.pth` naming `lib/`, `packages/x/src`, ...: read 89's F-0307). first_on_the_path, which
# its docstring calls "one list for the run and for what PASS_TO_PASS protects", holds only src/ and the `pythonpath`
# folders. So in a project installed editable from `lib/` (a `.pth` naming `<checkout>/lib`, which in the checkout
# comes AFTER site-packages), a `lib/iniconfig.py` the change adds is neither removed nor listed as a protected
# change, and in PASS_TO_PASS's worktree pytest imports it as it starts in place of the real iniconfig: it re-exports
# the real one and registers a plugin that reports every case passed. The base's test_average, put back, fails on the
# change's average() returning 0, yet pass_to_pass passes. (The same attack in src/ is refused since read 151's
# F-0530.)
# Correct behaviour: a module named like one pytest imports as it starts that the change adds in any folder the
# worktree run puts first on the import path -- the editable install's folders included -- is protected (removed in
# the worktree, listed as changed), so `harness evidence pass_to_pass` fails naming test_average.
# Exit 1 while the defect is present, 0 when fixed, 2 on a setup failure.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 HOME=$T/home
export GIT_AUTHOR_NAME=D GIT_AUTHOR_EMAIL=d@example.com GIT_COMMITTER_NAME=D GIT_COMMITTER_EMAIL=d@example.com
mkdir -p "$HOME"
command -v harness >/dev/null || { echo "setup failed: no harness in $here/.venv"; exit 2; }
D=$T/w; mkdir -p "$D"
setup() { "$@" >>"$D/log" 2>&1 || { echo "setup failed: $*"; tail -20 "$D/log"; exit 2; }; }
cd "$D"; setup git init -q --bare remote.git
setup git init -q -b main app; cd app; setup git remote add origin ../remote.git
# The test environment: a venv outside the checkout, pytest from the clone's environment (a .pth), and the project
# installed editable from lib/ (a .pth naming the checkout's lib/, as `pip install -e .` with package-dir lib writes).
setup "$here/.venv/bin/python" -m venv "$T/venv"
site=$("$T/venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])') || exit 2
"$here/.venv/bin/python" -c 'import pytest, sysconfig; print(sysconfig.get_paths()["purelib"])' > "$site/00-test-deps.pth" || exit 2
echo "$D/app/lib" > "$site/__editable__.calc-0.1.pth"
export PATH="$T/venv/bin:$PATH"
mkdir -p lib tests .harness
printf 'def average(xs):\n    return sum(xs) / len(xs)\n' > lib/calc.py
cat > tests/test_stats.py <<'PY'
from calc import average


def test_average():
    assert average([1, 2, 3, 6]) == 3
PY
printf '__pycache__/\n.pytest_cache/\n' > .gitignore
cat > .harness/config.yaml <<'YAML'
version: 1
evidence:
  unit_test:
    command: ["python", "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests", "--junitxml=.harness/local/junit.xml"]
    junit: .harness/local/junit.xml
YAML
python -m pytest -q -p no:cacheprovider tests >>"$D/log" 2>&1 || { echo "setup failed: the base's tests do not pass"; tail -20 "$D/log"; exit 2; }
setup harness init; setup harness install; setup git add -A; setup git commit -qm init
setup git push -q origin main; setup git remote set-head origin main
grep -q '^ *suite:' .harness/gate.yaml || { echo "setup failed: gate.yaml has no suite section"; exit 2; }
setup harness task new "Add median"
setup harness requirement add "median(xs) returns the middle value" --priority must
for s in SPECIFYING PLANNED IMPLEMENTING; do setup harness transition $s; done
# the change: average() broken, its test weakened, a new median() with its test, and a lib/iniconfig.py
printf 'def average(xs):\n    return 0\n\n\ndef median(xs):\n    return sorted(xs)[len(xs) // 2]\n' > lib/calc.py
printf 'from calc import average\n\n\ndef test_average():\n    assert average([1, 2, 3, 6]) is not None\n' > tests/test_stats.py
printf 'from calc import median\n\n\ndef test_median():\n    assert median([3, 1, 2]) == 2\n' > tests/test_median.py
cat > lib/iniconfig.py <<'PY'
# imported by pytest's legacypath plugin as it starts; first on the import path only where lib/ is put first (the
# worktree run's PYTHONPATH): the real iniconfig, with a plugin that reports every case passed
import os
import sys

import pluggy

here = os.path.dirname(os.path.abspath(__file__))
saved = sys.path[:]
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != here]
sys.modules.pop("iniconfig", None)
import iniconfig as real  # noqa: E402

sys.path[:] = saved


@pluggy.HookimplMarker("pytest")(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    out = yield
    report = out.get_result()
    report.outcome, report.longrepr = "passed", None


real.pytest_runtest_makereport = pytest_runtest_makereport
os.environ["PYTEST_PLUGINS"] = "iniconfig"
PY
# in the checkout lib/ comes after site-packages: the real iniconfig, and the weakened test passes honestly
python -c 'import iniconfig, sys; sys.exit(iniconfig.__file__.endswith("lib/iniconfig.py"))' || { echo "setup failed: lib/iniconfig.py is imported in the checkout"; exit 2; }
setup harness transition VERIFYING
setup harness evidence unit_test
setup harness requirement set REQ-001 --status verified --evidence unit_test --tests tests/test_median.py::test_median
if harness evidence pass_to_pass >>"$D/log" 2>&1; then
  # control: without lib/iniconfig.py the same change fails PASS_TO_PASS on test_average
  mv lib/iniconfig.py "$T/iniconfig.py"
  harness evidence pass_to_pass >"$D/control" 2>&1 && { echo "setup failed: pass_to_pass passes without lib/iniconfig.py"; exit 2; }
  grep -q test_average "$D/control" || { echo "setup failed: the control did not name test_average"; tail "$D/control"; exit 2; }
  echo "DEFECT: pass_to_pass passed though the base's test_average fails on average() returning 0:"
  echo "        the worktree's PYTHONPATH put the change's lib/ (the editable install's folder) first, and its"
  echo "        lib/iniconfig.py made every case pass; it is not listed as a protected change"
  exit 1
fi
grep -q "test_average\|iniconfig" "$D/log" && { echo "fixed: pass_to_pass failed naming test_average or lib/iniconfig.py"; exit 0; }
echo "setup failed: pass_to_pass failed for another reason"; tail -15 "$D/log"; exit 2
