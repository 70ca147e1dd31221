#!/usr/bin/env bash
# Defect: PASS_TO_PASS reuses the test command's checkout run when the record shows none of BENDING
#   (harness/evidence/pass_to_pass.py BENDING/_bent: PYTHONPATH, PYTEST_ADDOPTS, PYTEST_PLUGINS, NODE_OPTIONS,
#   PYTHONPYCACHEPREFIX) set; any other variable that bends the run is invisible to it. PYTHONOPTIMIZE=1 removes every
#   `assert` pytest does not rewrite — here the project's assertion helper tests/helpers.py — so the base's test of
#   mul() passes on a broken mul(); with PYTHONDONTWRITEBYTECODE=1 the run leaves no optimised cache for the ignored-file
#   check to see. `harness evidence unit_test` records a pass, PASS_TO_PASS reuses it ("no protected file differs") and
#   the task reaches DONE + commit, where PASS_TO_PASS's own clean-environment run fails tests.test_mul::test_mul.
#   (PYTHONHOME, BASH_ENV for a script, LD_PRELOAD, PYTHONUSERBASE for a non-venv interpreter bend it as surely.)
# Correct: a run is reused only when its environment held nothing beyond what PASS_TO_PASS's clean run holds (record
#   the names of every PYTHON*/PYTEST_*/loader/shell start-up variable set, or a digest of the environment, and refuse
#   reuse when any is set); otherwise PASS_TO_PASS runs in its worktree and names the lost case.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
. "$(dirname "$0")/common.inc"

helper_tests() {
  : > tests/__init__.py
  printf 'def check_equal(got, want):\n    assert got == want, (got, want)\n' > tests/helpers.py
  printf 'from calc import mul\nfrom tests.helpers import check_equal\n\n\ndef test_mul():\n    check_equal(mul(2, 3), 6)\n' > tests/test_mul.py
}

# Control: the broken mul() fails unit_test in the ordinary environment.
project control helper_tests
sed -i 's/return a \* b/return a + b/' calc.py
{ harness evidence unit_test; echo "unit_test rc=$?"; } >"$T/control.log" 2>&1
grep -q '^unit_test rc=1' "$T/control.log" || { echo "setup: the broken mul() did not fail unit_test"; cat "$T/control.log"; exit 2; }
# Control 2: under PYTHONOPTIMIZE the same run passes (the helper's assert is gone).
{ PYTHONOPTIMIZE=1 PYTHONDONTWRITEBYTECODE=1 harness evidence unit_test; echo "bent unit_test rc=$?"; } >>"$T/control.log" 2>&1
grep -q '^bent unit_test rc=0' "$T/control.log" || { echo "setup: PYTHONOPTIMIZE did not bend the run"; cat "$T/control.log"; exit 2; }

# The agent: mul() broken, no protected file touched, unit_test recorded under PYTHONOPTIMIZE.
project cheat helper_tests
sed -i 's/return a \* b/return a + b/' calc.py
{
  PYTHONOPTIMIZE=1 PYTHONDONTWRITEBYTECODE=1 harness evidence unit_test; echo "unit_test rc=$?"
  harness evidence pass_to_pass; echo "pass_to_pass rc=$?"
} >"$T/cheat.log" 2>&1
if finish cheat; then
  grep -E 'PASS_TO_PASS against|rc=' "$T/cheat.log"
  echo "committed mul(2, 3) = $(python -c 'import calc; print(calc.mul(2, 3))') (the base's test_mul expects 6)"
  echo "DEFECT: PASS_TO_PASS reused a run bent by PYTHONOPTIMIZE: DONE + commit with mul() broken"
  exit 1
fi
echo "OK: the broken change did not reach DONE"; grep -E 'rc=|lost:|reuse' "$T/cheat.log" | head; exit 0
