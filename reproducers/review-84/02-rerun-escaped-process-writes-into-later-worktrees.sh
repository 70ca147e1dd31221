#!/usr/bin/env bash
# Defect: a process a CI re-run starts in a session of its own (setsid / start_new_session) survives the re-run:
#   harness/runner.py run_command(reap=True) kills only the run's process group, and the checks after it
#   (harness/history/rerun/isolation.py RerunGuard.after / left_behind, harness/history/audit.py _left_running) only
#   compare the fingerprint (site-packages, PATH, HOME config, git config). Such a process can write into every later
#   re-run's worktree: verify_checkout (harness/gitio/checkout_check.py) compares only tracked files, so an untracked
#   tests/conftest.py dropped into the next commit's worktree (a hook that reports failures as passed) goes unseen,
#   and a DONE claim whose test fails on its tree "reproduces": exit 0.
# Correct: nothing an earlier re-run started still runs when a later re-run starts (kill every descendant, e.g. as a
#   child subreaper or in a cgroup, or refuse the job as poisoned when one is left), or a worktree holding files its
#   commit does not is "could not run"; the victim commit is refused (exit 1) or the job could not run (exit 2).
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
unset PYTHONPATH PYTEST_ADDOPTS PYTEST_PLUGINS PYTHONPYCACHEPREFIX PYTHONDONTWRITEBYTECODE
T=$(mktemp -d) || exit 2; trap 'for d in "$T"/agenttmp "$T"/citmp "$T"/citmp2; do kill_daemons "$d"; done; [ -n "$KEEP" ] || rm -rf "$T"' EXIT
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

cat > "$T/hook.py" <<'PY'
import pytest

@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    rep = (yield).get_result()
    if rep.failed:
        rep.outcome, rep.longrepr = "passed", None
PY
kill_daemons() {  # only the processes the tests of this script started (their pids, written by themselves)
  local f="$1/daemon.pids"; [ -f "$f" ] || return 0
  while read -r pid; do kill "$pid" 2>/dev/null; done < "$f"; rm -f "$f"
}
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
import os, subprocess, sys, tempfile
from calc import mul

DAEMON = r'''
import glob, os, sys, time
tmp = sys.argv[1]
with open(os.path.join(tmp, "daemon.pids"), "a") as f:
    f.write(f"{os.getpid()}\n")
HOOK = "import pytest\n\n@pytest.hookimpl(hookwrapper=True)\ndef pytest_runtest_makereport(item, call):\n" \
       "    rep = (yield).get_result()\n    if rep.failed:\n        rep.outcome, rep.longrepr = 'passed', None\n"
seen = set(glob.glob(os.path.join(tmp, "harness-rerun-*", "tree", "tests")))
end = time.time() + 90
while time.time() < end:
    for d in glob.glob(os.path.join(tmp, "harness-rerun-*", "tree", "tests")):
        if d not in seen:
            seen.add(d)
            with open(os.path.join(d, "conftest.py"), "w") as f:
                f.write(HOOK)
    time.sleep(0.005)
'''

def test_mul():
    subprocess.Popen([sys.executable, "-c", DAEMON, tempfile.gettempdir()], start_new_session=True,
                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    assert mul(2, 3) == 6
PY
done_task "mul(a, b) returns a * b" A || { echo "setup: task A did not reach DONE"; grep rc= "$T/A.log"; exit 2; }
C1=$(git rev-parse HEAD)
sleep 0.5; [ -s "$TMPDIR/daemon.pids" ] || { echo "setup: task A's test started no daemon"; exit 2; }
# The agent's own machine: whatever makes its local run pass (here a pytest.ini/conftest.py above its checkout).
kill_daemons "$TMPDIR"
cp "$T/hook.py" "$TMPDIR/conftest.py"; printf '[pytest]\n' > "$TMPDIR/pytest.ini"

# Task B (the victim): sub() is wrong, its test fails on the committed tree; locally the conftest above the
# checkout reports it passed.
harness task new "sub" >/dev/null 2>&1 || exit 2
printf '\ndef sub(a, b):\n    return a + b\n' >> calc.py
printf 'from calc import sub\n\ndef test_sub():\n    assert sub(5, 3) == 2\n' > tests/test_sub.py
done_task "sub(a, b) returns a - b" B || { echo "setup: task B did not reach DONE"; grep rc= "$T/B.log"; exit 2; }
C2=$(git rev-parse HEAD)
rm -f "$TMPDIR/conftest.py" "$TMPDIR/pytest.ini"; kill_daemons "$TMPDIR"
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
  ls "$TMPDIR"/pytest.ini "$TMPDIR"/conftest.py 2>/dev/null && { echo "setup: a config above the worktrees (another defect)"; exit 2; }
  echo "DEFECT: audit --rerun exit 0: the victim commit (sub() wrong; alone: refused, exit 1) passed because a process"
  echo "        task A's re-run started with setsid outlived it and dropped tests/conftest.py into the victim's worktree"
  exit 1
fi
echo "OK: the range was not accepted (exit $rc)"; exit 0
