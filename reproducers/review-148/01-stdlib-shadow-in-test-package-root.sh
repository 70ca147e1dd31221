#!/usr/bin/env bash
# Defect (review of 017b8f08, harness/core/suite.py changed_protected / shadows_what_the_runner_imports, called from
# harness/evidence/pass_to_pass.py protected_changes): a module the change adds in place of a standard-library one is
# counted as protected only at the tree's root and in the base configuration's `pythonpath` folders. But pytest
# itself puts other folders first on sys.path: in its default `prepend` import mode, the folder above the topmost
# package of a test module (the "basedir": `src/` for tests inside the package, `src/calc/tests/__init__.py`) is
# inserted at sys.path[0], ahead of the standard library. A module the change adds there (`src/statistics.py`) is
# imported by the base's own test in place of the standard library's -- a test's assertion oracle
# (`statistics.mean`) -- and PASS_TO_PASS neither removes it nor names it: the base's test runs against broken code
# and passes, and the whole gate passes with `average()` returning 0.
# Correct behaviour: a module the change adds in any folder pytest puts on sys.path for the base's tests (the
# basedir of a test package, a conftest's folder) named like a standard-library module or an installed
# distribution's top-level name is a protected file (removed in PASS_TO_PASS's worktree, listed as changed), as at
# the root; `harness evidence pass_to_pass` then fails, naming calc.tests.test_stats::test_average as lost.
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
mkdir -p src/calc/tests .harness
: > src/calc/__init__.py; : > src/calc/tests/__init__.py
printf 'def average(xs):\n    return sum(xs) / len(xs)\n' > src/calc/stats.py
cat > src/calc/tests/test_stats.py <<'PY'
import statistics

from calc.stats import average


def test_average():
    assert average([1, 2, 3, 6]) == statistics.mean([1, 2, 3, 6])
PY
printf '__pycache__/\n.pytest_cache/\n' > .gitignore
cat > .harness/config.yaml <<'YAML'
version: 1
evidence:
  unit_test:
    command: ["python", "-m", "pytest", "-q", "src", "--junitxml=.harness/local/junit.xml"]
    junit: .harness/local/junit.xml
YAML
setup harness init; setup harness install; setup git add -A; setup git commit -qm init
setup git push -q origin main; setup git remote set-head origin main
grep -q '^ *suite:' .harness/gate.yaml || { echo "setup failed: gate.yaml has no suite section"; exit 2; }
setup harness task new "Add median"
setup harness requirement add "median(xs) returns the middle value" --priority must
for s in SPECIFYING PLANNED IMPLEMENTING; do setup harness transition $s; done
# the change: average() broken, a new median() with its test, and a module "of our own" named statistics.py
printf 'def average(xs):\n    return 0\n\n\ndef median(xs):\n    return sorted(xs)[len(xs) // 2]\n' > src/calc/stats.py
printf 'from calc.stats import median\n\n\ndef test_median():\n    assert median([3, 1, 2]) == 2\n' > src/calc/tests/test_median.py
printf 'def mean(xs):\n    from calc.stats import average\n    return average(xs)\n' > src/statistics.py
python - <<'PY' >>"$D/log" 2>&1 || { echo "setup failed: average() is not broken"; exit 2; }
import sys; sys.path.insert(0, "src"); sys.modules.pop("statistics", None)
from calc.stats import average
assert average([1, 2, 3, 6]) != 3
PY
setup harness transition VERIFYING
setup harness evidence unit_test
setup harness requirement set REQ-001 --status verified --evidence unit_test --tests src/calc/tests/test_median.py::test_median
if harness evidence pass_to_pass >>"$D/log" 2>&1; then
  setup harness evidence fail_to_pass
  setup harness transition REVIEWING; setup harness transition GATING
  gate=refused; harness gate --advance >>"$D/log" 2>&1 && gate=passed
  echo "DEFECT: pass_to_pass passed (gate: $gate) though the base's test_average now checks average() against"
  echo "        the change's src/statistics.py (average([1, 2, 3, 6]) returns 0)"
  exit 1
fi
grep -q "test_average" "$D/log" && { echo "fixed: pass_to_pass failed naming test_average"; exit 0; }
echo "setup failed: pass_to_pass failed for another reason"; tail -15 "$D/log"; exit 2
