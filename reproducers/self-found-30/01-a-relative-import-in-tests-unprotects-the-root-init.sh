#!/usr/bin/env bash
# Defect (harness/core/runner_texts.py relative_reached, used by harness/evidence/pass_to_pass.py _Tested, F-0565's
# fix): a relative import counts as reaching every `__init__.py` of its package's chain, the root's included. Where
# the base already has a root `__init__.py` (empty) and its tests live in the package tests/ and import a helper of
# their own (`from . import helpers`), the root `__init__.py` counts as code the tests reach, so it is measured as
# the change has it: a change that breaks calc.average() and makes the root `__init__.py` put a correct one in place
# passes PASS_TO_PASS (pytest imports the base's test as <root>.tests.test_stats, running the root file first) --
# read 161's F-0561, open again for a base that has a root `__init__.py`.
# Correct: a relative import reaches what it names (the package the dots name when it imports from that package
# itself, the module after the dots, the submodules it imports), not the packages above that pytest walks through;
# the root `__init__.py` stays protected here, and pass_to_pass fails naming test_average.
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
: > __init__.py
: > tests/__init__.py
printf 'DATA = [1, 2, 3, 6]\n' > tests/helpers.py
cat > tests/test_stats.py <<'PY'
from calc import average

from . import helpers


def test_average():
    assert average(helpers.DATA) == 3
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
setup harness task new "Add median"
setup harness requirement add "median(xs) returns the middle value" --priority must
for s in SPECIFYING PLANNED IMPLEMENTING VERIFYING; do setup harness transition $s; done
printf 'def average(xs):\n    return 0\n\n\ndef median(xs):\n    return sorted(xs)[len(xs) // 2]\n' > calc.py
printf 'import calc\n\ncalc.average = lambda xs: sum(xs) / len(xs)\n' > __init__.py
python -c 'import calc; assert calc.average([1, 2, 3, 6]) == 0' || { echo "setup failed: calc.average is not broken"; exit 2; }
if harness evidence pass_to_pass >>"$D/log" 2>&1; then
  echo "DEFECT: pass_to_pass passed though calc.average() returns 0: the root __init__.py, which the base's tests"
  echo "        do not import, counted as reached by their relative import of a helper and ran as the change has it"
  exit 1
fi
grep -q "test_average" "$D/log" && { echo "fixed: pass_to_pass failed naming test_average"; exit 0; }
echo "setup failed: pass_to_pass failed for another reason"; tail -15 "$D/log"; exit 2
