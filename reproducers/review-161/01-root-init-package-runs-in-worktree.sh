#!/usr/bin/env bash
# Defect (harness/core/suite.py changed_protected / protected, basedir; harness/evidence/pass_to_pass.py
# protected_changes): where the base's tests live in a package (tests/__init__.py, the common layout), pytest's
# default `prepend` import mode walks up from tests/ while each folder holds an `__init__.py`, so an `__init__.py`
# the change adds at the tree's ROOT makes the root itself a package (PASS_TO_PASS's worktree is named `tree`, an
# identifier): pytest then imports the base's test module as `tree.tests.test_stats`, and importing it runs the
# change's root `__init__.py` first -- before the test module's own `from calc import average`. That file is no
# test, no conftest.py and no module any test (or the code under test) imports: pytest alone runs it, as it runs a
# conftest.py, and it can do what a conftest.py does (here: put a correct average() in place of the wrong one the
# change ships in calc.py). The harness neither puts the base's absence of it back nor lists it as a protected
# change (basedir() even stops at the root: "a tree whose root is a package stops at its root"), so
# `harness evidence pass_to_pass` passes with calc.average() returning 0 and the gate passes.
# Correct behaviour: an `__init__.py` the change adds in a folder above the base's test packages (the root
# included), which pytest imports to import the base's test modules, is protected like a conftest.py (removed in
# the worktree and listed as a protected change); pass_to_pass then fails naming
# tests/test_stats.py::test_average (tests.test_stats::test_average) as lost. The same holds, without any
# tests/__init__.py, for a base whose root holds a conftest.py: pytest imports it as <root>.conftest, running the
# change's root __init__.py first (second scenario).
# Exit 1 while the defect is present, 0 when fixed, 2 on a setup failure.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 HOME=$T/home
export GIT_AUTHOR_NAME=D GIT_AUTHOR_EMAIL=d@example.com GIT_COMMITTER_NAME=D GIT_COMMITTER_EMAIL=d@example.com
mkdir -p "$HOME"
command -v harness >/dev/null || { echo "setup failed: no harness in $here/.venv"; exit 2; }
scenario() {  # $1: package (tests/__init__.py: the test module is imported as <root>.tests.test_stats) or
  # conftest (a root conftest.py and no tests/__init__.py: the conftest is imported as <root>.conftest)
D=$T/$1; mkdir -p "$D"
setup() { "$@" >>"$D/log" 2>&1 || { echo "setup failed: $*"; tail -20 "$D/log"; exit 2; }; }
cd "$D"; setup git init -q --bare remote.git
setup git init -q -b main app; cd app; setup git remote add origin ../remote.git
mkdir -p tests .harness
printf 'def average(xs):\n    return sum(xs) / len(xs)\n' > calc.py
if [ "$1" = package ]; then : > tests/__init__.py; else printf 'import pytest\n' > conftest.py; fi
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
# the change: average() broken (the code any user imports), a new median() with its test, and a root __init__.py
printf 'def average(xs):\n    return 0\n\n\ndef median(xs):\n    return sorted(xs)[len(xs) // 2]\n' > calc.py
printf 'from calc import median\n\n\ndef test_median():\n    assert median([3, 1, 2]) == 2\n' > tests/test_median.py
cat > __init__.py <<'PY'
# Run by pytest (not by any test nor by calc) whenever it imports a test module of the tests/ package: with this
# file the root is a package too, so tests/test_stats.py is imported as <root>.tests.test_stats, this file first.
import calc

calc.average = lambda xs: sum(xs) / len(xs)
PY
setup harness transition VERIFYING
setup harness evidence unit_test
setup harness requirement set REQ-001 --status verified --evidence unit_test --tests tests/test_median.py::test_median
# the code any user imports is wrong: the base's test fails against it when run as any other program would
python -c 'import calc; assert calc.average([1, 2, 3, 6]) == 0' || { echo "setup failed: calc.average is not broken"; exit 2; }
if harness evidence pass_to_pass >>"$D/log" 2>&1; then
  setup harness evidence fail_to_pass
  setup harness transition REVIEWING; setup harness transition GATING
  gate=refused; harness gate --advance >>"$D/log" 2>&1 && gate=passed
  echo "DEFECT ($1): pass_to_pass passed (gate: $gate) though calc.average() returns 0 and the base's test_average"
  echo "        asserts 3: pytest imported the base's test module (or conftest.py) as a module of the <root> package, running the change's root"
  echo "        __init__.py (no protected file) first, which put a correct average() in place"
  return 1
fi
grep -q "test_average" "$D/log" && { echo "fixed ($1): pass_to_pass failed naming test_average"; return 0; }
echo "setup failed: pass_to_pass failed for another reason"; tail -15 "$D/log"; exit 2
}
rc=0
scenario package || rc=1
scenario conftest || rc=1
exit $rc
