#!/usr/bin/env bash
# Defect: harness evidence measures the source tree (harness/gitio/worktree.py Worktree._measured) with
#   `git add -A` in a copy of the real .git/index, its stat cache included (temp_index copies it "so the stat
#   cache spares rehashing"). An index entry whose stat data matches the file on disk but whose blob id names
#   other bytes is trusted without rehashing: the recorded tree holds the index's blob, while the command ran
#   on the disk's bytes. The agent writes such an entry (a few lines of Python on .git/index, or
#   core.checkStat=minimal + core.trustctime=false and `touch -d`); `git status` then shows nothing unstaged.
#   The tests pass on the good code on disk, the evidence is bound to the broken tree in the index, the gate
#   passes, the task goes DONE and the commit hook accepts a commit whose tests fail. Same class as the
#   skip-worktree/assume-unchanged case _unhide() closes (reproducers/*/04-a-skip-worktree-edit-is-not-measured.sh).
# Correct: the measured tree is the bytes the command ran on (rehash what is measured, e.g. a temp index
#   without stat data / `add --renormalize`, at least for tree_after), so the evidence is for the good tree,
#   is STALE for the broken commit, and the commit hook refuses the DONE commit.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
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

# Control: the broken code on disk, honestly: the evidence fails and the gate blocks.
sed -i 's/a + b/a - b/' calc.py
harness evidence unit_test >/dev/null 2>&1 && { echo "setup: broken code passed"; exit 2; }
harness gate >/dev/null 2>&1; [ $? -eq 1 ] || { echo "setup: control gate not BLOCKED"; exit 2; }
echo "control: broken calc.py honestly -> evidence failed, gate BLOCKED"

# The forgery: good code on disk, the index entry keeps the disk file's stat data but names the broken blob.
sed -i 's/a - b/a + b/' calc.py
touch -d '2020-01-01' calc.py && git add calc.py && sleep 1.1
bad=$(sed 's/a + b/a - b/' calc.py | git hash-object -w --stdin) || exit 2
python3 - "$bad" <<'PY' || exit 2
import hashlib, struct, sys
data = open('.git/index', 'rb').read()
sig, ver, n = struct.unpack('>4sII', data[:12]); assert sig == b'DIRC' and ver == 2
off = 12
for _ in range(n):
    nlen = struct.unpack('>H', data[off + 60:off + 62])[0] & 0xfff
    if data[off + 62:off + 62 + nlen] == b'calc.py':
        data = data[:off + 40] + bytes.fromhex(sys.argv[1]) + data[off + 60:]
    off += (62 + nlen + 8) & ~7
body = data[:off]  # extensions (the cache-tree) dropped
open('.git/index', 'wb').write(body + hashlib.sha1(body).digest())
PY
[ -z "$(git diff --name-only -- calc.py)" ] && git diff --cached --quiet -- calc.py; [ $? -eq 1 ] || exit 2
echo "forged: disk calc.py is good, the index names the broken blob, 'git diff' (unstaged) shows nothing"

harness evidence unit_test >/dev/null 2>&1; ev=$?
harness gate >/dev/null 2>&1; gate=$?
harness converge --apply >/dev/null 2>&1; harness transition DONE >/dev/null 2>&1
git add .harness && git commit -qm "done" >/dev/null 2>&1; commit=$?
echo "evidence exit $ev, gate exit $gate, commit exit $commit"
if [ $commit -eq 0 ] && git show HEAD:calc.py | grep -q 'a - b' \
   && git show HEAD:.harness/tasks/ | grep -q TASK && git grep -q 'state: DONE' HEAD -- .harness/tasks; then
  echo "DEFECT: a DONE commit holding the broken calc.py (add returns a - b) was accepted; its unit_test evidence passed on bytes it does not hold"
  exit 1
fi
echo "OK: the forged index entry did not bind passing evidence to the broken tree"
exit 0
