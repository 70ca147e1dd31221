#!/usr/bin/env bash
# Defect (harness/core/suite.py basedirs_of_tests, called by changed_protected from
# harness/evidence/pass_to_pass.py protected_changes with the base's `python_files` globs as ``collected``): the
# basedirs pytest's prepend import mode puts at sys.path[0] are computed only for the test modules that match
# pytest's default names or a `python_files` glob ENDING IN `.py` (`kinds = [..., *(g for g in collected if
# g.endswith(".py"))]`). pytest matches `python_files` against a `.py` file's name, so `python_files = check_*`
# (no `.py`) collects `checks/check_stats.py` exactly as `check_*.py` would, inserting `checks/` (no package) first on
# sys.path -- but the harness counts no basedir for it. A `checks/statistics.py` the change adds is then imported by
# the base's own test in place of the standard library's `statistics` (its oracle) and PASS_TO_PASS neither removes
# it nor lists it: average() returning 0 passes the base's test, and the gate passes.
# Correct behaviour: every module the base's configuration makes pytest collect (a `python_files` glob with or without
# `.py`, as pytest matches it against a `.py` file's name) has its basedir counted, so the change's
# `checks/statistics.py` is protected like one at the root (removed in PASS_TO_PASS's worktree, listed as changed),
# and `harness evidence pass_to_pass` fails naming checks.check_stats::test_average as lost.
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
mkdir -p checks .harness
printf '[pytest]\npython_files = check_*\n' > pytest.ini
printf 'def average(xs):\n    return sum(xs) / len(xs)\n' > calc.py
cat > checks/check_stats.py <<'PY'
import statistics

from calc import average


def test_average():
    assert average([1, 2, 3, 6]) == statistics.mean([1, 2, 3, 6])
PY
printf '__pycache__/\n.pytest_cache/\n' > .gitignore
cat > .harness/config.yaml <<'YAML'
version: 1
evidence:
  unit_test:
    command: ["python", "-m", "pytest", "-q", "checks", "--junitxml=.harness/local/junit.xml"]
    junit: .harness/local/junit.xml
YAML
setup harness init; setup harness install; setup git add -A; setup git commit -qm init
setup git push -q origin main; setup git remote set-head origin main
grep -q '^ *suite:' .harness/gate.yaml || { echo "setup failed: gate.yaml has no suite section"; exit 2; }
setup harness task new "Add median"
setup harness requirement add "median(xs) returns the middle value" --priority must
for s in SPECIFYING PLANNED IMPLEMENTING; do setup harness transition $s; done
# the change: average() broken, a new median() with its test, and a module "of our own" named statistics.py
printf 'def average(xs):\n    return 0\n\n\ndef median(xs):\n    return sorted(xs)[len(xs) // 2]\n' > calc.py
printf 'from calc import median\n\n\ndef test_median():\n    assert median([3, 1, 2]) == 2\n' > checks/check_median.py
printf 'def mean(xs):\n    from calc import average\n    return average(xs)\n' > checks/statistics.py
python - <<'PY' >>"$D/log" 2>&1 || { echo "setup failed: average() is not broken"; exit 2; }
from calc import average
assert average([1, 2, 3, 6]) != 3
PY
setup harness transition VERIFYING
setup harness evidence unit_test
setup harness requirement set REQ-001 --status verified --evidence unit_test --tests checks/check_median.py::test_median
if harness evidence pass_to_pass >>"$D/log" 2>&1; then
  setup harness evidence fail_to_pass
  setup harness transition REVIEWING; setup harness transition GATING
  gate=refused; harness gate --advance >>"$D/log" 2>&1 && gate=passed
  echo "DEFECT: pass_to_pass passed (gate: $gate) though the base's test_average now checks average() against"
  echo "        the change's checks/statistics.py (average([1, 2, 3, 6]) returns 0)"
  exit 1
fi
grep -q "check_stats::test_average" "$D/log" && { echo "fixed: pass_to_pass failed naming test_average"; exit 0; }
echo "setup failed: pass_to_pass failed for another reason"; tail -15 "$D/log"; exit 2
