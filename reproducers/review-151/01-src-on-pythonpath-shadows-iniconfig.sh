#!/usr/bin/env bash
# Defect (harness/core/suite.py changed_protected / shadows_what_the_runner_imports, called from
# harness/evidence/pass_to_pass.py protected_changes; the run's environment from pass_to_pass.inside /
# harness/evidence/tree_imports.import_folders): every worktree run (PASS_TO_PASS's among them) puts the worktree's
# src/ FIRST on PYTHONPATH -- ahead of the standard library and site-packages -- whenever the tree holds a src/
# folder (leaving it out only when it holds a standard-library name). But a module the change adds in place of one
# pytest imports as it starts is protected only at the root, in the base's `pythonpath` folders and in the basedirs
# of the tests (read 148's F-0523): src/ is none of those here. So a `src/iniconfig.py` (or `src/pluggy.py`,
# `src/packaging/`, any installed distribution's top-level name) the change adds is neither removed nor listed as a
# protected change, and in PASS_TO_PASS's worktree pytest imports it, as it starts, in place of the real one. In the
# checkout (where the unit_test evidence runs, src/ not on the path) the real iniconfig loads and the change's
# weakened test passes honestly; in the worktree the base's test is put back, but the change's iniconfig (which
# re-exports the real one) registers a plugin that reports every case passed.
# Correct behaviour: a module named like one pytest imports as it starts (pytest's own, pluggy, an installed
# distribution's top-level name) that the change adds in any folder the run puts first on the import path -- the
# src/ folder the harness itself puts on PYTHONPATH included -- is protected (removed in the worktree, listed as
# changed), or src/ is not put ahead of site-packages; `harness evidence pass_to_pass` then fails naming
# tests/test_stats.py::test_average (tests.test_stats::test_average) as lost.
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
mkdir -p tests .harness
printf 'def average(xs):\n    return sum(xs) / len(xs)\n' > calc.py
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
    command: ["python", "-m", "pytest", "-q", "tests", "--junitxml=.harness/local/junit.xml"]
    junit: .harness/local/junit.xml
YAML
setup harness init; setup harness install; setup git add -A; setup git commit -qm init
setup git push -q origin main; setup git remote set-head origin main
grep -q '^ *suite:' .harness/gate.yaml || { echo "setup failed: gate.yaml has no suite section"; exit 2; }
setup harness task new "Add median"
setup harness requirement add "median(xs) returns the middle value" --priority must
for s in SPECIFYING PLANNED IMPLEMENTING; do setup harness transition $s; done
# the change: average() broken, its test weakened, a new median() with its test, and a src/iniconfig.py
printf 'def average(xs):\n    return 0\n\n\ndef median(xs):\n    return sorted(xs)[len(xs) // 2]\n' > calc.py
printf 'from calc import average\n\n\ndef test_average():\n    assert average([1, 2, 3, 6]) is not None\n' > tests/test_stats.py
printf 'from calc import median\n\n\ndef test_median():\n    assert median([3, 1, 2]) == 2\n' > tests/test_median.py
mkdir -p src
cat > src/iniconfig.py <<'PY'
# imported by pytest's legacypath plugin as it starts; first on the import path only where src/ is (PYTHONPATH): the
# real iniconfig, with a plugin that reports every case passed
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
setup harness transition VERIFYING
setup harness evidence unit_test
setup harness requirement set REQ-001 --status verified --evidence unit_test --tests tests/test_median.py::test_median
if harness evidence pass_to_pass >>"$D/log" 2>&1; then
  setup harness evidence fail_to_pass
  setup harness transition REVIEWING; setup harness transition GATING
  gate=refused; harness gate --advance >>"$D/log" 2>&1 && gate=passed
  echo "DEFECT: pass_to_pass passed (gate: $gate) though the base's test_average fails on average() returning 0:"
  echo "        the worktree's PYTHONPATH put the change's src/ first, and its src/iniconfig.py made every case pass"
  exit 1
fi
grep -q "test_average" "$D/log" && { echo "fixed: pass_to_pass failed naming test_average"; exit 0; }
echo "setup failed: pass_to_pass failed for another reason"; tail -15 "$D/log"; exit 2
