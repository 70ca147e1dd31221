#!/usr/bin/env bash
# Defect: `harness audit --rerun` makes every re-run's worktree under the job's shared temp folder
#   ($TMPDIR/harness-rerun-XXXX/tree, harness/gitio/worktree.py temp_worktree) and passes TMPDIR through
#   (harness/runner.py KEPT_ENV), but the poisoning fingerprint (harness/history/rerun/fingerprint.py: site-packages,
#   PATH, HOME config, the repo's git config) does not cover that folder. pytest looks for its configuration in every
#   folder above the one it runs in, and loads the conftest.py files down from there. So an earlier DONE commit's
#   test writes $TMPDIR/pytest.ini + $TMPDIR/conftest.py (a hook that reports failures as passed); every later
#   commit's re-run in the same job loads it, and a DONE claim whose test fails on its tree "reproduces": exit 0.
# Correct: a re-run's verdict cannot rest on what an earlier re-run left: the later re-run's pytest sees no
#   configuration above its worktree (a temp folder no run can write to or that is fingerprinted/fresh per run,
#   or rootdir/confcutdir pinned), so the victim commit is refused (exit 1, does not reproduce) or the poisoning is
#   named (exit 2).
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
unset PYTHONPATH PYTEST_ADDOPTS PYTEST_PLUGINS PYTHONPYCACHEPREFIX PYTHONDONTWRITEBYTECODE
T=$(mktemp -d) || exit 2; trap '[ -n "$KEEP" ] || rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"
# The agent's machine: its checkout sits in its temp folder (as CI's worktrees do).
export TMPDIR="$T/agenttmp"; mkdir -p "$TMPDIR"
R="$TMPDIR/repo"; mkdir -p "$R" && cd "$R" || exit 2
mkdir -p .harness tests
printf 'def add(a, b):\n    return a + b\n' > calc.py
printf 'from calc import add\n\ndef test_add():\n    assert add(2, 3) == 5\n' > tests/test_calc.py
printf '__pycache__/\n.pytest_cache/\n' > .gitignore
cat > .harness/config.yaml <<'YAML'
version: 1
evidence:
  unit_test:
    command: ["python", "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"]
YAML
( git init -q -b main && harness init && harness install && git add -A && git commit -qm init ) >/dev/null 2>&1 || exit 2
C0=$(git rev-parse HEAD)

done_task() {  # $1 title, $2 log: drive the open task to DONE and commit
  {
    harness requirement add "$1" --priority must
    for s in SPECIFYING PLANNED IMPLEMENTING VERIFYING; do harness transition $s; done
    harness evidence unit_test; echo "unit_test rc=$?"
    harness requirement set REQ-001 --status verified --evidence unit_test
    harness transition REVIEWING; harness transition GATING
    harness gate; echo "gate rc=$?"
    harness converge --apply && harness transition DONE; echo "done rc=$?"
    git add -A && git commit -qm "$1"; echo "commit rc=$?"
  } >"$T/$2.log" 2>&1
  grep -q '^done rc=0' "$T/$2.log" && grep -q '^commit rc=0' "$T/$2.log"
}

# Task A (the poisoner): an innocuous-looking test that writes pytest's config into the temp folder.
harness task new "mul" >/dev/null 2>&1 || exit 2
printf '\ndef mul(a, b):\n    return a * b\n' >> calc.py
cat > tests/test_mul.py <<'PY'
import os, tempfile
from calc import mul

HOOK = '''import pytest

@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    rep = (yield).get_result()
    if rep.failed:
        rep.outcome, rep.longrepr = "passed", None
'''

def test_mul():
    d = tempfile.gettempdir()
    for name, text in (("pytest.ini", "[pytest]\n"), ("conftest.py", HOOK)):
        if not os.path.exists(os.path.join(d, name)):
            with open(os.path.join(d, name), "w") as f:
                f.write(text)
    assert mul(2, 3) == 6
PY
done_task "mul(a, b) returns a * b" A || { echo "setup: task A did not reach DONE"; grep rc= "$T/A.log"; exit 2; }
C1=$(git rev-parse HEAD)
[ -f "$TMPDIR/conftest.py" ] || { echo "setup: task A's test did not write the conftest"; exit 2; }

# Task B (the victim): sub() is wrong, its test fails on the committed tree; locally the conftest above the
# checkout reports it passed.
harness task new "sub" >/dev/null 2>&1 || exit 2
printf '\ndef sub(a, b):\n    return a + b\n' >> calc.py
printf 'from calc import sub\n\ndef test_sub():\n    assert sub(5, 3) == 2\n' > tests/test_sub.py
done_task "sub(a, b) returns a - b" B || { echo "setup: task B did not reach DONE"; grep rc= "$T/B.log"; exit 2; }
C2=$(git rev-parse HEAD)
honest=$(python -m pytest -q -p no:cacheprovider -c /dev/null --rootdir "$R" --confcutdir "$R" tests 2>&1 | tail -1)
case "$honest" in *failed*) ;; *) echo "setup: the victim's test does not fail on its tree: $honest"; exit 2;; esac

# CI: a fresh clone, a fresh HOME and temp folder; CI's own allowed-signers file.
export TMPDIR="$T/citmp" HOME="$T/cihome"; mkdir -p "$TMPDIR" "$HOME"
git clone -q "$R" "$T/ci" || exit 2
cd "$T/ci" || exit 2
: > "$T/allowed_signers"
# Control: the victim commit re-run alone is refused.
harness audit --from "$C1" --to "$C2" --rerun --allowed-signers "$T/allowed_signers" >"$T/control.out" 2>&1
rc=$?
if [ $rc -ne 1 ] || ! grep -q "does not reproduce" "$T/control.out"; then
  echo "setup: control (victim alone) was not refused as expected (exit $rc)"; tail -20 "$T/control.out"; exit 2
fi
export TMPDIR="$T/citmp2"; mkdir -p "$TMPDIR"   # a fresh temp folder for the real audit
# The whole push: task A's commit is re-run first, then the victim's.
harness audit --from "$C0" --to "$C2" --rerun --allowed-signers "$T/allowed_signers" >"$T/audit.out" 2>&1
rc=$?
grep -E '→|poison' "$T/audit.out" | head -20
if [ $rc -eq 0 ]; then
  echo "DEFECT: audit --rerun exit 0: the victim commit (sub() wrong; alone: refused, exit 1) passed because task A's"
  echo "        re-run left $TMPDIR/pytest.ini and conftest.py above every later re-run's worktree"
  exit 1
fi
echo "OK: the range was not accepted (exit $rc)"; exit 0
