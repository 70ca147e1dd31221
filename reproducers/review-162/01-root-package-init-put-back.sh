#!/usr/bin/env bash
# Defect (harness/core/suite.py package_inits; harness/evidence/pass_to_pass.py protected_changes,
# run_by_runners(walked=...), _Tested.reaches): in a project whose repository root IS its package (a root
# __init__.py the base already has, tests/__init__.py, tests importing the package relatively: `from .. import
# average`), the root __init__.py is the code under test -- the base's tests import it. But _Tested.reaches finds a
# module only by a name mapped to NAME.py or NAME/__init__.py, and `from .. import average` names no such file, so
# package_inits' root __init__.py is taken for a file pytest merely walks through and becomes a protected file:
#  - broken: PASS_TO_PASS puts the BASE's __init__.py back in its worktree and measures the base's code instead of
#    the change's: a change that breaks average() in __init__.py (and weakens the checkout's copy of the test so
#    unit_test passes) passes pass_to_pass;
#  - honest: FAIL_TO_PASS runs the change's tests on the base's source with the protected files FROM THE CHANGE, so
#    the change's __init__.py (its new median()) is there: the requirement's new test "passes without the change"
#    and the gate blocks an honest change that adds median() with its test.
# Before bbb614e8 both were measured right (pass_to_pass failed naming test_average; the gate passed the honest one).
# Correct behaviour: an __init__.py the base's tests import (here by a relative import of their package's parent)
# is code under test, measured as the change has it: pass_to_pass fails naming tests/test_stats.py::test_average in
# the first scenario, and the gate passes in the second.
# Exit 1 while the defect is present, 0 when fixed, 2 on a setup failure.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 HOME=$T/home
export GIT_AUTHOR_NAME=D GIT_AUTHOR_EMAIL=d@example.com GIT_COMMITTER_NAME=D GIT_COMMITTER_EMAIL=d@example.com
mkdir -p "$HOME"
command -v harness >/dev/null || { echo "setup failed: no harness in $here/.venv"; exit 2; }
scenario() {  # $1: broken (average() broken, the checkout's test weakened) or honest (median() added, nothing broken)
D=$T/$1; mkdir -p "$D"
setup() { "$@" >>"$D/log" 2>&1 || { echo "setup failed ($1): $*"; tail -20 "$D/log"; exit 2; }; }
cd "$D"; setup git init -q --bare remote.git
setup git init -q -b main calc; cd calc; setup git remote add origin ../remote.git
mkdir -p tests .harness
printf 'def average(xs):\n    return sum(xs) / len(xs)\n' > __init__.py
: > tests/__init__.py
printf 'from .. import average\n\n\ndef test_average():\n    assert average([1, 2, 3, 6]) == 3\n' > tests/test_stats.py
printf '__pycache__/\n.pytest_cache/\n' > .gitignore
cat > .harness/config.yaml <<'YAML'
version: 1
evidence:
  unit_test:
    command: ["python", "-m", "pytest", "-q", "tests", "--junitxml=.harness/local/junit.xml"]
    junit: .harness/local/junit.xml
YAML
setup python -m pytest -q -p no:cacheprovider tests
setup harness init; setup harness install; setup git add -A; setup git commit -qm init
setup git push -q origin main; setup git remote set-head origin main
grep -q '^ *suite:' .harness/gate.yaml || { echo "setup failed: gate.yaml has no suite section"; exit 2; }
setup harness task new "Add median"
setup harness requirement add "median(xs) returns the middle value" --priority must
for s in SPECIFYING PLANNED IMPLEMENTING; do setup harness transition $s; done
printf 'from .. import median\n\n\ndef test_median():\n    assert median([3, 1, 2]) == 2\n' > tests/test_median.py
if [ "$1" = broken ]; then
  printf 'def average(xs):\n    return 0\n\n\ndef median(xs):\n    return sorted(xs)[len(xs) // 2]\n' > __init__.py
  printf 'from .. import average\n\n\ndef test_average():\n    assert average([1, 2, 3, 6]) == 0\n' > tests/test_stats.py
else
  printf 'def average(xs):\n    return sum(xs) / len(xs)\n\n\ndef median(xs):\n    return sorted(xs)[len(xs) // 2]\n' > __init__.py
fi
setup harness transition VERIFYING
setup harness evidence unit_test
setup harness requirement set REQ-001 --status verified --evidence unit_test --tests tests/test_median.py::test_median
p2p=failed; harness evidence pass_to_pass >>"$D/log" 2>&1 && p2p=passed
gate=refused
if harness evidence fail_to_pass >>"$D/log" 2>&1 && harness transition REVIEWING >>"$D/log" 2>&1 \
   && harness transition GATING >>"$D/log" 2>&1 && harness gate --advance >>"$D/log" 2>&1; then gate=passed; fi
if [ "$1" = broken ]; then
  if [ $p2p = passed ]; then
    echo "DEFECT (broken): pass_to_pass passed though the change's __init__.py average() returns 0 and the base's"
    echo "        test_average asserts 3: PASS_TO_PASS put the base's root __init__.py (the code under test) back"
    return 1
  fi
  grep -q "test_average" "$D/log" && { echo "fixed (broken): pass_to_pass failed naming test_average"; return 0; }
  echo "setup failed (broken): pass_to_pass failed for another reason"; tail -25 "$D/log"; exit 2
fi
if [ $p2p = passed ] && [ $gate = refused ] && grep -q "passes without the change" "$D/log"; then
  echo "DEFECT (honest): the gate refuses an honest change adding median() to the package's __init__.py: FAIL_TO_PASS"
  echo "        ran the change's __init__.py as a protected file, so test_median 'passes without the change'"
  return 1
fi
[ $gate = passed ] && { echo "fixed (honest): the gate passed"; return 0; }
echo "setup failed (honest): pass_to_pass $p2p, gate $gate for another reason"; tail -25 "$D/log"; exit 2
}
rc=0
scenario broken || rc=1
scenario honest || rc=1
exit $rc
