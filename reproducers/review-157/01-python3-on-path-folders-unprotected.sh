#!/usr/bin/env bash
# Defect (harness/evidence/pass_to_pass.protected_changes with harness/evidence/runner_names.runner_folders /
# runner_said, read 153's F-0540 fix 38de988a): what PASS_TO_PASS protects counts the checkout folders that ONE
# interpreter imports from -- the command's own (runner_names._interpreter: its argv[0], or a script's `#!`) -- but
# the worktree run (tree_imports.worktree_env -> checkout_folders -> candidates(..., every_on_path=False)) puts first
# on PYTHONPATH the counterparts of the folders of EVERY interpreter it asks: the command's AND the first `python3` on
# the run's PATH. Here the test command is a venv's python (absolute path) that imports the project's lib/ through a
# conftest (after site-packages), while the `python3` first on PATH has the project installed editable (a `.pth`
# naming <checkout>/lib). The worktree run puts lib/ first on PYTHONPATH for the command's python too, so a
# lib/iniconfig.py the change adds is imported as pytest starts, in place of the real iniconfig, and reports every case
# passed; the protection asked only the command's python, so lib/ is not counted, the module is neither removed nor
# listed, and pass_to_pass passes on a change that breaks the base's test_average.
# Correct behaviour: the folders the protection counts are the ones the run puts first (one list): a lib/iniconfig.py
# the change adds is protected (removed in the worktree, listed), and `harness evidence pass_to_pass` fails naming
# test_average or lib/iniconfig.py.
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
# The test command's environment: a venv outside the checkout with pytest (a .pth to the clone's), and no editable
# install. The `python3` first on PATH: another dev venv (pytest too) where the project was installed editable from lib/.
setup "$here/.venv/bin/python" -m venv "$T/venv"
site=$("$T/venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])') || exit 2
"$here/.venv/bin/python" -c 'import pytest, sysconfig; print(sysconfig.get_paths()["purelib"])' > "$site/00-test-deps.pth" || exit 2
setup "$here/.venv/bin/python" -m venv "$T/other"
osite=$("$T/other/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])') || exit 2
cp "$site/00-test-deps.pth" "$osite/00-test-deps.pth"
echo "$D/app/lib" > "$osite/__editable__.calc-0.1.pth"
export PATH="$T/other/bin:$PATH"
[ "$(command -v python3)" = "$T/other/bin/python3" ] || { echo "setup failed: python3 on PATH is not the other venv's"; exit 2; }
mkdir -p lib tests .harness
printf 'def average(xs):\n    return sum(xs) / len(xs)\n' > lib/calc.py
cat > tests/conftest.py <<'PY'
import os
import sys

# the project's code, after site-packages
sys.path.append(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
PY
cat > tests/test_stats.py <<'PY'
from calc import average


def test_average():
    assert average([1, 2, 3, 6]) == 3
PY
printf '__pycache__/\n.pytest_cache/\n' > .gitignore
cat > .harness/config.yaml <<YAML
version: 1
evidence:
  unit_test:
    command: ["$T/venv/bin/python", "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests", "--junitxml=.harness/local/junit.xml"]
    junit: .harness/local/junit.xml
YAML
"$T/venv/bin/python" -m pytest -q -p no:cacheprovider tests >>"$D/log" 2>&1 || { echo "setup failed: the base's tests do not pass"; tail -20 "$D/log"; exit 2; }
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
"$T/venv/bin/python" -c 'import iniconfig, sys; sys.exit(iniconfig.__file__.endswith("lib/iniconfig.py"))' || { echo "setup failed: lib/iniconfig.py is imported in the checkout"; exit 2; }
setup harness transition VERIFYING
setup harness evidence unit_test
setup harness requirement set REQ-001 --status verified --evidence unit_test --tests tests/test_median.py::test_median
if harness evidence pass_to_pass >>"$D/log" 2>&1; then
  # control: without lib/iniconfig.py the same change fails PASS_TO_PASS on test_average
  mv lib/iniconfig.py "$T/iniconfig.py"
  harness evidence pass_to_pass >"$D/control" 2>&1 && { echo "setup failed: pass_to_pass passes without lib/iniconfig.py"; exit 2; }
  grep -q test_average "$D/control" || { echo "setup failed: the control did not name test_average"; tail "$D/control"; exit 2; }
  echo "DEFECT: pass_to_pass passed though the base's test_average fails on average() returning 0:"
  echo "        the worktree's PYTHONPATH put the change's lib/ first (the folder the python3 on PATH imports from),"
  echo "        and its lib/iniconfig.py made every case pass; the protection asked only the command's python"
  exit 1
fi
grep -q "test_average\|iniconfig" "$D/log" && { echo "fixed: pass_to_pass failed naming test_average or lib/iniconfig.py"; exit 0; }
echo "setup failed: pass_to_pass failed for another reason"; tail -15 "$D/log"; exit 2
