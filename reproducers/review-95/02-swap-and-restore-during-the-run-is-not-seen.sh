#!/usr/bin/env bash
# Defect: "the source did not change while it ran" is judged from two snapshots only
#   (harness/evidence/record.py collect(): the tree before, in _source_before, and tree_after, measured after
#   runner.run_command returns, in _run_and_judge). A background process the agent starts puts the good code in
#   place after the first measurement, lets the configured command import it, and puts the broken code back
#   before the second: tree == tree_after == the broken tree, outcome passed, and the gate, DONE and the commit
#   hook accept a commit whose tests fail. (The watcher below pauses the harness process with SIGSTOP so the
#   timing is deterministic; any process racing the run does the same without pausing it, only less reliably.)
# Correct: a file of the source rewritten or replaced during the run makes the record CHANGED (e.g. compare each
#   measured file's inode and ctime, which no one can set back, before and after; or run the command in a
#   checkout of the measured tree), so the gate blocks and the DONE commit is refused.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; W=; trap '[ -n "$W" ] && kill "$W" 2>/dev/null; rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
printf 'def add(a, b):\n    return a + b\n' > calc.py
cat > test_calc.py <<'PY'
import unittest
from calc import add

class AddTest(unittest.TestCase):
    def test_add(self):
        self.assertEqual(add(2, 3), 5)
PY
printf '__pycache__/\n' > .gitignore
mkdir .harness
printf 'version: 1\nevidence:\n  unit_test:\n    command: ["python3", "-m", "unittest", "-q"]\n' > .harness/config.yaml
( git init -q -b main && harness init && harness install && git add -A && git commit -qm init \
  && harness task new t && git add -A && git commit -qm task ) >/dev/null 2>&1 || exit 2
for s in SPECIFYING PLANNED IMPLEMENTING VERIFYING REVIEWING GATING; do harness transition $s >/dev/null 2>&1 || exit 2; done

cp calc.py "$T/good.py"
sed -i 's/a + b/a - b/' calc.py && cp calc.py "$T/bad.py" && git add calc.py || exit 2
# Control: the broken code, honestly: the evidence fails and the gate blocks.
harness evidence unit_test >/dev/null 2>&1 && { echo "setup: broken code passed"; exit 2; }
harness gate >/dev/null 2>&1; [ $? -eq 1 ] || { echo "setup: control gate not BLOCKED"; exit 2; }
echo "control: broken calc.py honestly -> evidence failed, gate BLOCKED"

# The watcher: once the harness (measured the broken tree and) starts the test command, stop both, put the good
# code in, let the command run to its end, put the broken code back, then let the harness go on.
cat > "$T/watch.py" <<'PY'
import os, shutil, signal, sys, time
hpid, tmp = int(sys.argv[1]), sys.argv[2]
def children(pid):
    out = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return []
    for t in tasks:
        try:
            out += open(f"/proc/{pid}/task/{t}/children").read().split()
        except OSError:
            pass
    return [int(c) for c in out]
def cmd(pid):
    try:
        return open(f"/proc/{pid}/cmdline", "rb").read()
    except OSError:
        return b""
def state(pid):
    try:
        return open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "gone"
deadline = time.time() + 60
while time.time() < deadline:
    seen, todo = [], [hpid]
    while todo:  # every descendant of the harness process
        kids_of = children(todo.pop())
        seen += kids_of; todo += kids_of
    kids = [c for c in seen if b"unittest" in cmd(c)]
    if kids:
        child = kids[0]
        os.kill(child, signal.SIGSTOP); os.kill(hpid, signal.SIGSTOP)
        shutil.copyfile(f"{tmp}/good.py", "calc.py")
        os.kill(child, signal.SIGCONT)
        while state(child) not in ("Z", "gone"):
            time.sleep(0.005)
        shutil.copyfile(f"{tmp}/bad.py", "calc.py")
        os.kill(hpid, signal.SIGCONT)
        open(f"{tmp}/swapped", "w").close()
        break
    time.sleep(0.0005)
PY
harness evidence unit_test >"$T/ev.out" 2>&1 & H=$!
python3 "$T/watch.py" "$H" "$T" & W=$!
wait "$H"; ev=$?; wait "$W"; W=
[ -f "$T/swapped" ] || { echo "setup: the watcher never saw the test command"; exit 2; }
cmp -s calc.py "$T/bad.py" || exit 2
harness gate >/dev/null 2>&1; gate=$?
harness converge --apply >/dev/null 2>&1; harness transition DONE >/dev/null 2>&1
git add -A && git commit -qm "done" >/dev/null 2>&1; commit=$?
echo "swap-and-restore run: evidence exit $ev, gate exit $gate, commit exit $commit"
if [ $commit -eq 0 ] && git show HEAD:calc.py | grep -q 'a - b' && git grep -q 'state: DONE' HEAD -- .harness/tasks; then
  echo "DEFECT: a DONE commit holding the broken calc.py was accepted; the passing run imported code the recorded tree does not hold"
  exit 1
fi
echo "OK: the change during the run was seen"
exit 0
