#!/usr/bin/env bash
# Defect: harness/findings/shadow_env.py `_repository_links` (e77e124f, read 159's F-0555 fix) remaps only the TOP-LEVEL
#   entries of the real site folder that are links into the repository. `flit install --symlink` of a package inside a
#   namespace package (`acme.calc`) makes a real folder site-packages/acme/ holding the link acme/calc -> <repo>/acme/calc
#   (flit's Installer: os.makedirs(ns_dir); os.symlink(src, dst)). That link is not top-level, so the shadow neither
#   remaps nor refuses it: the shadow's path line to the real site-packages finds acme/ there, and an interpreter of the
#   lent environment started with -I (as git hooks and reproducers start one) imports the WORKING TREE's acme/calc in
#   the throw-away checkout of `harness finding regression --failing-at REV` / `finding reproduce`.
#   Line 1: the honest commit before the fix is refused ("passes there": the fixed working tree was imported).
#   Line 2: with the bug put back in the working tree only, `--failing-at` the FIXED commit is accepted.
# Correct: a link into the repository anywhere under a site folder (in a package or namespace folder too) is remapped
#   to the checkout's counterpart, or the run refused: line 1 accepted, line 2 refused.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
q() { "$@" >/dev/null 2>&1; }
mkdir -p acme/calc && printf 'def add(a, b):\n    return a + b\n\ndef mul(a, b):\n    return sum(a for _ in range(b))\n' > acme/calc/__init__.py
printf 'import unittest\nfrom acme.calc import add\n\nclass T(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(add(2, 3), 5)\n' > test_calc.py
printf '__pycache__/\n.venv/\n' > .gitignore
python3 -m venv --without-pip .venv || exit 2
site=$(.venv/bin/python -c 'import sysconfig; print(sysconfig.get_path("purelib"))') || exit 2
mkdir "$site/acme" && ln -s "$R/acme/calc" "$site/acme/calc"   # as `flit install --symlink` installs the namespace package acme.calc
# The reproducer runs the environment's interpreter isolated (-I), from another folder, as a git hook would.
printf 'here=$(cd "$(dirname "$0")" && pwd)\ncd "$HOME" || exit 2\nexec "$here/.venv/bin/python" -I -c "import sys, acme.calc as calc; sys.exit(calc.mul(3, -2) != -6)"\n' > repro.sh
mkdir .harness
cat > .harness/config.yaml <<'YAML'
version: 1
evidence:
  build:
    command: ["python3", "-m", "py_compile", "acme/calc/__init__.py"]
  unit_test:
    command: ["python3", "-m", "unittest", "-q"]
YAML
( git init -q -b main && harness init && harness install && git add -A && git commit -qm init ) >/dev/null 2>&1 || exit 2
q harness task new "Harden mul" || exit 2
for s in SPECIFYING PLANNED IMPLEMENTING VERIFYING; do q harness transition $s || exit 2; done
q harness evidence build && q harness evidence unit_test && q harness transition REVIEWING || exit 2
cat > "$T/f.yaml" <<'YAML'
findings:
  - severity: major
    category: correctness
    title: mul() is wrong for a negative multiplier
    claim: range(b) is empty for b < 0
    location: {file: acme/calc/__init__.py}
    failure_scenario: ["call mul(3, -2)"]
    expected_behavior: returns -6
    recommended_reproducer:
      type: unit_test
      description: compare with the * operator, in the project's environment, isolated
      command: ["sh", "repro.sh"]
YAML
q harness finding propose --file "$T/f.yaml" && q harness finding reproduce F-0001 || exit 2
harness finding list 2>/dev/null | grep -q "F-0001 *CONFIRMED" || { echo "setup: F-0001 not confirmed"; exit 2; }
printf 'import unittest\nfrom acme.calc import mul\n\nclass T(unittest.TestCase):\n    def test_neg(self):\n        self.assertEqual(mul(3, -2), -6)\n' > test_mul_neg.py
git add -A && q git commit -m "F-0001 confirmed; its regression test (failing)" || exit 2
BEFORE=$(git rev-parse HEAD)
sed -i 's/    return sum(a for _ in range(b))/    return a * b/' acme/calc/__init__.py
git add -A && q git commit -m "the fix" || exit 2
status=0
# Line 1: the honest commit before the fix.
out=$(harness finding regression F-0001 test_mul_neg.py --failing-at "$BEFORE" -- python3 -m unittest -q test_mul_neg.py 2>&1); rc=$?
# (amended when F-0558 was fixed: the finding's expected behaviour allows "or the run is refused with the remedy",
# which is what a link below a package folder now gets)
if [ $rc -ne 0 ] && echo "$out" | grep -q "links into the repository"; then
  echo "ok 1: --failing-at refused with the remedy: the link into the repository cannot be stood in for"
elif [ $rc -ne 0 ]; then
  echo "DEFECT 1: --failing-at the commit before the fix was refused: the isolated interpreter ran the working tree's (fixed) calc.py through site-packages/acme/calc -> the repository"
  echo "$out" | grep -iE "passes|already|refus|holds" | head -3; status=1
else
  echo "ok 1: --failing-at the commit before the fix accepted"
fi
# Line 2 (a fresh state): the bug put back in the working tree only, the FIXED commit named.
if [ $status = 1 ]; then
  cp acme/calc/__init__.py "$T/fixed.py"
  sed -i 's/    return a \* b/    return sum(a for _ in range(b))/' acme/calc/__init__.py   # not committed
  printf 'import unittest\nfrom acme.calc import mul\n\nclass T(unittest.TestCase):\n    def test_neg(self):\n        self.assertEqual(mul(3, -2), -6)\n\nunittest.main()\n' > test_mul_neg.py
  FIXED=$(git rev-parse HEAD)
  git show "$FIXED:acme/calc/__init__.py" | grep -q 'return a \* b' || { echo "setup: HEAD does not hold the fix"; exit 2; }
  out=$(harness finding regression F-0001 test_mul_neg.py --failing-at "$FIXED" -- sh -c '.venv/bin/python -I test_mul_neg.py' 2>&1); rc=$?
  if [ $rc -eq 0 ]; then
    echo "DEFECT 2: --failing-at $FIXED (which holds the fix) accepted: the regression test 'failed' there on the working tree's buggy acme/calc"
    harness finding list 2>/dev/null | grep F-0001
  else
    echo "ok 2: --failing-at the fixed commit refused"; echo "$out" | head -2
  fi
fi
exit $status
