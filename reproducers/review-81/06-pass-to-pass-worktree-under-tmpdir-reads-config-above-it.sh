#!/usr/bin/env bash
# Defect: PASS_TO_PASS's worktree run (harness/evidence/pass_to_pass.py run -> harness/gitio/worktree.py
#   temp_worktree) is made under tempfile's folder, which the caller's TMPDIR chooses, and pytest looks for its
#   configuration in every folder above the one it runs in (the worktree's own pytest.ini etc. are put back, but a
#   base without one leaves pytest walking up). An agent that runs `TMPDIR=$PWD/.git/scratch harness evidence
#   pass_to_pass` with a pytest.ini and conftest.py in .git/scratch (no file of the tree changes, nothing git
#   tracks) makes the "clean" worktree run load its conftest: the base's tests run, fail, and are reported passed.
#   DONE is reached and committed with add() broken.
# Correct: the worktree run sees no configuration above the worktree (the harness makes its temporary folder where
#   the caller's environment cannot choose, or runs pytest with its rootdir/configuration pinned to the worktree,
#   e.g. `-c` of the base's file or a confcutdir), so the base's tests fail and the gate blocks.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
# Setup: a Python project with two passing tests, the harness adopted,
# a task "add sub" open in IMPLEMENTING with a test of sub() written.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
unset PYTHONPATH PYTEST_ADDOPTS PYTEST_PLUGINS PYTHONPYCACHEPREFIX PYTHONDONTWRITEBYTECODE
T=$(mktemp -d) || exit 2; trap '[ -n "$KEEP" ] || rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"
PYPROJECT=""   # set before `project` for a pyproject.toml at the base
SRC="."       # where calc.py stands
GITIGNORE='__pycache__/\n.pytest_cache/\n'

project() {
  R="$T/$1"; mkdir -p "$R" && cd "$R" || exit 2
  mkdir -p .harness tests
  mkdir -p "$SRC"; printf 'def add(a, b):\n    return a + b\n' > "$SRC/calc.py"
  printf 'from calc import add\n\ndef test_add():\n    assert add(2, 3) == 5\n\ndef test_add_neg():\n    assert add(-2, -3) == -5\n' > tests/test_calc.py
  printf "$GITIGNORE" > .gitignore
  [ -n "$PYPROJECT" ] && printf '%s\n' "$PYPROJECT" > pyproject.toml
  ${BASE_EXTRA:-true}   # more files of the base
  cat > .harness/config.yaml <<'YAML'
version: 1
evidence:
  unit_test:
    command: ["python", "-m", "pytest", "-q", "--junitxml=.harness/local/junit.xml"]
    junit: .harness/local/junit.xml
YAML
  ( git init -q -b main && harness init && harness install && git add -A && git commit -qm init ) >/dev/null 2>&1 || exit 2
  harness task new "add sub" >/dev/null 2>&1 || exit 2
  harness requirement add "sub(a, b) returns a - b" --priority "${PRIO:-must}" >/dev/null || exit 2
  for s in SPECIFYING PLANNED IMPLEMENTING; do harness transition $s >/dev/null || exit 2; done
  printf 'from calc import sub\n\ndef test_sub():\n    assert sub(5, 3) == 2\n' > tests/test_sub.py
}
finish() {  # drive the task to DONE and commit; 0 when both happened. $2: a command run before the evidence
  {
    harness transition VERIFYING
    ${2:-true}
    harness evidence unit_test; echo "unit_test rc=$?"
    ${3:-true}
    TMPDIR=${P2P_TMPDIR:-${TMPDIR:-/tmp}} harness evidence pass_to_pass; echo "pass_to_pass rc=$?"
    harness evidence fail_to_pass; echo "fail_to_pass rc=$?"
    harness requirement set REQ-001 --status verified --evidence unit_test --tests tests/test_sub.py::test_sub
    harness transition REVIEWING; harness transition GATING
    harness gate; echo "gate rc=$?"
    harness converge --apply && harness transition DONE; echo "done rc=$?"
    git add -A && git commit -qm "sub"; echo "commit rc=$?"
  } >"$T/$1.log" 2>&1
  grep -q '^done rc=0' "$T/$1.log" && grep -q '^commit rc=0' "$T/$1.log"
}
broken() { printf 'def add(a, b):\n    return a * b\n\ndef sub(a, b):\n    return a - b\n' > calc.py; }
OUTER='import pytest


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    rep = outcome.get_result()
    rep.nodeid = rep.nodeid.split("/tree/", 1)[-1]  # the ids as if pytest ran from the worktree
    if rep.failed:
        rep.outcome, rep.longrepr = "passed", None
'
# Control 1: the honest change reaches DONE (the setup works).
project honest
printf '\ndef sub(a, b):\n    return a - b\n' >> calc.py
finish honest || { echo "setup: the honest change did not reach DONE"; grep rc= "$T/honest.log"; exit 2; }
# Control 2: add() broken, the same ignored conftest.py in the checkout and the same TMPDIR, but no file in it:
# PASS_TO_PASS catches it (its worktree run is clean).
project control
broken; mkdir -p .git/scratch
printf '%s' "$OUTER" > conftest.py; echo /conftest.py >> .git/info/exclude
if P2P_TMPDIR=$T/control/.git/scratch finish control; then echo "setup: the broken add() was not caught"; exit 2; fi
grep -q 'lost: tests' "$T/control.log" || { echo "setup: control blocked for another reason"; grep rc= "$T/control.log"; exit 2; }

# The agent: add() broken; a pytest.ini and conftest.py in a folder of .git, named as TMPDIR for the evidence runs.
project cheat
broken; mkdir -p .git/scratch
printf '[pytest]\n' > .git/scratch/pytest.ini
printf '%s' "$OUTER" > .git/scratch/conftest.py
# unit_test runs in the checkout: a conftest.py there that git ignores (.git/info/exclude) - the threat model's
# "caught only by CI" row for unit_test; it makes PASS_TO_PASS refuse to reuse that run, so it runs in a worktree.
printf '%s' "$OUTER" > conftest.py; echo /conftest.py >> .git/info/exclude
git status --porcelain | grep -q scratch && { echo "setup: .git/scratch is part of the tree?"; exit 2; }
if P2P_TMPDIR=$T/cheat/.git/scratch finish cheat; then
  grep -E '^harness: (unit_test|pass_to_pass|fail_to_pass) evidence' "$T/cheat.log"
  rm conftest.py
  echo "committed code: $(python -m pytest -q -p no:cacheprovider tests 2>&1 | tail -1)"
  echo "DEFECT: DONE and committed with the base's tests failing: PASS_TO_PASS's worktree, made under TMPDIR, ran"
  echo "        with a pytest.ini/conftest.py above it that no tree holds"
  exit 1
fi
echo "OK: the change did not reach DONE:"; grep -E 'rc=|lost|LOST' "$T/cheat.log" | head -12
exit 0
