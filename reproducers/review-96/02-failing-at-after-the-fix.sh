#!/usr/bin/env bash
# Defect: `harness finding regression F PATH --failing-at REV` (harness/findings/before_fix.py run_before_fix,
#   _ancestor_of_head, _not_before_confirmed) accepts any commit HEAD descends from and that descends from the
#   confirmation — including a commit that already holds the fix. Nothing shows the bug is present at REV
#   (neither the reviewer's confirming reproducer nor the finding's current regression test is run there), so
#   a CLOSED finding's real regression test can be replaced by one that fails at a post-fix commit for an
#   unrelated reason (here: it asserts a version bump in the working tree), the real test deleted, and the
#   gate still PASSes with the finding CLOSED and "regression capture" counting it.
# Correct: --failing-at must name a commit before the fix, as the CLI help and docs/concepts.md say: e.g. run
#   the finding's confirming reproducer (or its current regression test) in the same throw-away checkout and
#   refuse REV when it does not fail there ("REV already holds the fix"), or refuse REV descending from the
#   commit where the regression test first passed (its verified run).
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
q() { "$@" >/dev/null 2>&1; }
printf 'VERSION = 1\n\ndef add(a, b):\n    return a + b\n\ndef mul(a, b):\n    return sum(a for _ in range(b))\n' > calc.py
printf 'import unittest\nfrom calc import add\n\nclass T(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(add(2, 3), 5)\n' > test_calc.py
printf '__pycache__/\n' > .gitignore
mkdir .harness
cat > .harness/config.yaml <<'YAML'
version: 1
evidence:
  build:
    command: ["python3", "-m", "py_compile", "calc.py"]
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
    location: {file: calc.py}
    failure_scenario: ["call mul(3, -2)"]
    expected_behavior: returns -6
    recommended_reproducer:
      type: unit_test
      description: compare with the * operator
      command: ["python3", "-c", "import sys, calc; sys.exit(calc.mul(3, -2) != -6)"]
YAML
q harness finding propose --file "$T/f.yaml" && q harness finding reproduce F-0001 || exit 2
git add -A && q git commit -m "F-0001 confirmed" || exit 2
BEFORE=$(git rev-parse HEAD)
printf 'import unittest\nfrom calc import mul\n\nclass T(unittest.TestCase):\n    def test_neg(self):\n        self.assertEqual(mul(3, -2), -6)\n' > test_mul_neg.py
q harness finding regression F-0001 test_mul_neg.py -- python3 -m unittest -q test_mul_neg.py || exit 2
q harness transition REPRODUCING && q harness transition FIXING || exit 2
sed -i 's/    return sum(a for _ in range(b))/    return a * b/' calc.py
q harness finding fixed F-0001 && q harness evidence build && q harness evidence unit_test || exit 2
q harness finding verify F-0001 && q harness finding close F-0001 || exit 2
for s in VERIFYING REVIEWING GATING; do q harness transition $s || exit 2; done
q harness gate || { echo "setup: gate does not pass after the honest fix"; exit 2; }
git add -A && q git commit -m "F-0001 fixed, verified, closed" || exit 2
FIXED=$(git rev-parse HEAD)
python3 -c "import sys, calc; sys.exit(calc.mul(3, -2) != -6)" || { echo "setup: HEAD does not hold the fix"; exit 2; }

# Control: a test of the bug is refused --failing-at the fixed HEAD (it passes there) and accepted --failing-at
# the commit before the fix.
cp -a "$R" "$T/control"
( cd "$T/control" && cp test_mul_neg.py test_mul_neg3.py \
  && ! q harness finding regression F-0001 test_mul_neg3.py --failing-at "$FIXED" -- python3 -m unittest -q test_mul_neg3.py \
  && q harness finding regression F-0001 test_mul_neg3.py --failing-at "$BEFORE" -- python3 -m unittest -q test_mul_neg3.py ) \
  || { echo "control failed"; exit 2; }

# Attack: a "regression test" that fails at the FIXED commit for another reason (a version bump in the working
# tree), attached --failing-at that commit; then the real regression test is deleted.
sed -i 's/VERSION = 1/VERSION = 2/' calc.py
printf 'import unittest\nimport calc\n\nclass T(unittest.TestCase):\n    def test_neg(self):\n        self.assertEqual(calc.VERSION, 2)\n' > test_mul_neg2.py
q harness finding regression F-0001 test_mul_neg2.py --failing-at "$FIXED" -- python3 -m unittest -q test_mul_neg2.py; rc=$?
git rm -q test_mul_neg.py
q harness evidence build; q harness evidence unit_test
q harness gate; gate=$?
path=$(grep -A1 '^regression_test:' .harness/tasks/*/findings/F-0001.yaml | sed -n 's/^ *path: //p')
echo "regression --failing-at $(git rev-parse --short "$FIXED") (a commit holding the fix): exit $rc; F-0001's regression test is now: $path; gate exit $gate"
if [ "$rc" = 0 ] && [ "$path" = test_mul_neg2.py ]; then
  echo "DEFECT: the regression test of a CLOSED finding was replaced by one shown 'failing' on code that already holds the fix$([ $gate = 0 ] && echo '; the real test deleted, the gate still PASSes')"
  exit 1
fi
echo "OK: a --failing-at commit that already holds the fix was refused"
exit 0
