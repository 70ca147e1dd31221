#!/usr/bin/env bash
# Defect: `harness evidence TYPE --shell` runs config.yaml's *list* command through /bin/sh (record.py plan():
#   `conf.shell or shell`; runner._argv shlex-joins it), and record.py _runnable_argv() checks shadowed() only
#   `if not p.shell`. configured_digest() leaves the shell out of the identity of a list command, so the record
#   still carries config.yaml's digest and the gate counts it as the configured command. A runner the tree
#   supplies -- a committed `unittest/` package that `python3 -m unittest` imports from the working directory, or
#   a `python3` on a PATH entry inside the repository -- is refused without --shell ("refused before anything is
#   recorded", threat-model.md) but runs with it, and the record names only `/bin/sh` as the program.
#   Here the tree's own unittest/__main__.py prints "OK" and exits 0 while calc.add is broken: the gate passes,
#   the task goes DONE and the commit hook accepts it.
# Correct: --shell does not change how a configured list command runs, or the shadowing check applies to the
#   program the shell will run and the shell is part of the command's identity: the run is refused (or not the
#   configured command), the gate blocks, the DONE commit is refused.
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

sed -i 's/a + b/a - b/' calc.py   # the broken change
# Control 1: honestly, the configured command fails and the gate blocks.
harness evidence unit_test >/dev/null 2>&1 && { echo "setup: broken code passed"; exit 2; }
harness gate >/dev/null 2>&1; [ $? -eq 1 ] || { echo "setup: control gate not BLOCKED"; exit 2; }
# The tree's own test runner, committed with the change.
mkdir unittest && : > unittest/__init__.py
printf 'print("Ran 1 test in 0.000s\\n\\nOK")\n' > unittest/__main__.py
# Control 2: without --shell the tree's runner is refused.
out=$(harness evidence unit_test 2>&1) && { echo "setup: the tree's runner was not refused: $out"; exit 2; }
echo "$out" | grep -q "unittest/__init__.py" || { echo "setup: unexpected refusal: $out"; exit 2; }
echo "controls: broken calc.py -> evidence failed, gate BLOCKED; the tree's unittest/ without --shell -> refused"

harness evidence unit_test --shell >/dev/null 2>&1; ev=$?
harness gate >/dev/null 2>&1; gate=$?
harness converge --apply >/dev/null 2>&1; harness transition DONE >/dev/null 2>&1
git add -A && git commit -qm "done" >/dev/null 2>&1; commit=$?
echo "with --shell: evidence exit $ev, gate exit $gate, commit exit $commit"
if [ $commit -eq 0 ] && git show HEAD:calc.py | grep -q 'a - b' && git grep -q 'state: DONE' HEAD -- .harness/tasks; then
  echo "DEFECT: --shell ran the tree's own unittest/ as the configured unit_test command; a DONE commit with broken calc.py was accepted"
  exit 1
fi
echo "OK: --shell did not let the tree supply its own runner"
exit 0
