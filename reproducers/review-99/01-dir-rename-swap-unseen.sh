#!/usr/bin/env bash
# Defect: the stat snapshot added by F-0334 (harness/gitio/source_stat.py, source_stat/_key) keys every source
#   FILE by (mode, dev, inode, size, mtime, ctime) but a folder's rename touches none of its files' inodes: renaming
#   the tracked package folder away, renaming another folder (outside the repository) in its place, running the
#   tests, and renaming both back leaves every file's stat exactly as it was. _source_after() sees the same tree and
#   the same stat, so the run is recorded as PASS on the broken code that is measured/committed, while the tests ran
#   on other code. docs/threat-model.md promises: "the source swapped during the run and put back before it is
#   measured again (the good code while the tests import it, the broken code committed) ... any file written,
#   replaced, added or removed makes the run CHANGED, even with its bytes put back"; only a file that exists only
#   during the run is named as a gap.
# Correct: a run during which a source file's path named other bytes (its folder renamed away and back) is CHANGED,
#   as the same swap done file by file (os.replace of each file, the control below) already is.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
mkdir pkg
printf 'def add(a, b):\n    return a - b   # BROKEN\n' > pkg/calc.py
: > pkg/__init__.py
printf 'from pkg.calc import add\nassert add(2, 3) == 5, "add is broken"\nprint("ok")\n' > test_calc.py
# The "runner": swaps the package folder with the good copy outside the repository, runs the test, swaps back.
cat > run.py <<'PY'
import os, subprocess, sys
mode = os.environ.get("SWAP", "dir")
out = os.path.join("..", "good")
if mode == "dir":   # rename folders: no file's inode/ctime/mtime changes
    os.rename("pkg", os.path.join("..", "bad")); os.rename(out, "pkg")
else:               # control: replace the file (new inode)
    os.rename("pkg/calc.py", "../calc.bad"); os.link(os.path.join(out, "calc.py"), "pkg/calc.py")
rc = subprocess.call([sys.executable, "-B", "test_calc.py"])
if mode == "dir":
    os.rename("pkg", out); os.rename(os.path.join("..", "bad"), "pkg")
else:
    os.unlink("pkg/calc.py"); os.rename("../calc.bad", "pkg/calc.py")
sys.exit(rc)
PY
printf '__pycache__/\n' > .gitignore
mkdir .harness
cat > .harness/config.yaml <<'YAML'
version: 1
evidence:
  unit_test:
    command: ["python3", "-B", "run.py"]
YAML
( git init -q -b main && harness init && harness install && harness task new t && echo a > a.txt && git add -A \
  && git commit -qm init ) >/dev/null 2>&1 || exit 2
mkdir "$T/good" && printf 'def add(a, b):\n    return a + b\n' > "$T/good/calc.py" && : > "$T/good/__init__.py"
python3 -B test_calc.py >/dev/null 2>&1 && { echo "setup: the broken code passes by itself"; exit 2; }

# Control: the same swap file by file is caught (CHANGED).
out=$(SWAP=file harness evidence unit_test 2>&1); echo "control (file swap): $(echo "$out" | grep -iE 'CHANGED|written|passed|failed' | head -2)"
echo "$out" | grep -qiE 'written while it ran|changed' || { echo "setup: control not CHANGED"; echo "$out"; exit 2; }
git status --porcelain | grep -v '^?? .harness\|^ M .harness\|^M  .harness' | grep -q . && { echo "setup: tree left dirty"; exit 2; }

# The defect: folder renamed away and back.
out=$(SWAP=dir harness evidence unit_test 2>&1); rc=$?
echo "folder swap: exit $rc; $(echo "$out" | tail -3)"
harness status 2>&1 | grep -i unit_test | head -3
if [ $rc -eq 0 ] && ! echo "$out" | grep -qiE 'written while it ran|changed'; then
  echo "DEFECT: unit_test recorded as a clean pass on a tree whose pkg/calc.py is broken; the tests ran on ../good"
  exit 1
fi
echo "OK: the folder swap is not a clean pass"; exit 0
