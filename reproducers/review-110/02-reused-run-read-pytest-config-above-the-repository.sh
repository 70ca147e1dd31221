#!/usr/bin/env bash
# Defect: when no protected file differs from the base, PASS_TO_PASS reuses the test command's run in the checkout
#   (harness/evidence/pass_to_pass.py _reuse; its checks: _bent, _ignored_suite_files -> suite_caches.shaped_by). That
#   run's pytest searches for its configuration upward from the checkout; a repository whose root holds no file that
#   every pytest takes as its configuration (here a packaging-only pyproject.toml, which pytest passes over when a
#   folder above holds a pytest.ini) reads a pytest.ini and conftest.py in the folder ABOVE the repository. PASS_TO_PASS's
#   own worktree runs are guarded against exactly that (the empty pytest.ini stop file), but the reused run is not:
#   nothing checks the folders above the checkout. A conftest.py there that turns failures into passes (and keeps the
#   node ids) makes a broken add() pass unit_test, PASS_TO_PASS reuses that run, and the task reaches DONE + commit.
# Correct: a run that could have read pytest configuration or a conftest.py from outside the tree is not reused
#   (PASS_TO_PASS runs in its worktree with the stop file, where the base's tests fail on the broken code), or the
#   checkout's suite run itself ends pytest's search at the repository root.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
. "$(dirname "$0")/common.inc"

packaging() { printf '[project]\nname = "calc"\nversion = "0.1"\n' > pyproject.toml; }
planted() {  # what the agent writes in its workspace, the folder above the repository
  printf '[pytest]\n' > "$T/$1/pytest.ini"
  cat > "$T/$1/conftest.py" <<'PY'
import pytest

@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    rep = (yield).get_result()
    rep.nodeid = rep.nodeid.split("/", 1)[1]  # rootdir is the folder above: keep the repository's node ids
    if rep.failed:
        rep.outcome, rep.longrepr = "passed", None
PY
}

# Control: the broken add() without the planted files fails unit_test.
project control packaging
sed -i 's/return a + b/return a - b/' calc.py
{ harness evidence unit_test; echo "unit_test rc=$?"; } >"$T/control.log" 2>&1
grep -q '^unit_test rc=1' "$T/control.log" || { echo "setup: the broken add() did not fail unit_test"; cat "$T/control.log"; exit 2; }

# Control 2: the planted files alone (an honest tree) leave the setup working: the honest refactor reaches DONE.
project honest packaging
planted honest
printf '\n# refactor\n' >> calc.py
{ harness evidence unit_test; echo "unit_test rc=$?"; harness evidence pass_to_pass; echo "pass_to_pass rc=$?"; } >"$T/honest.log" 2>&1
finish honest || { echo "setup: the honest change did not reach DONE"; grep rc= "$T/honest.log"; exit 2; }

# The agent: add() broken, no protected file touched, the two files planted above the repository.
project cheat packaging
planted cheat
sed -i 's/return a + b/return a - b/' calc.py
{ harness evidence unit_test; echo "unit_test rc=$?"; harness evidence pass_to_pass; echo "pass_to_pass rc=$?"; } >"$T/cheat.log" 2>&1
if finish cheat; then
  grep -E 'PASS_TO_PASS against|rc=' "$T/cheat.log"
  echo "committed add(2, 3) = $(python -c 'import calc; print(calc.add(2, 3))') (the base's test_add expects 5)"
  echo "DEFECT: PASS_TO_PASS reused a run shaped by a conftest.py above the repository: DONE + commit with add() broken"
  exit 1
fi
echo "OK: the broken change did not reach DONE"; grep -E 'rc=|lost:|reuse' "$T/cheat.log" | head; exit 0
