#!/usr/bin/env bash
# Defect: F-0325's check (`harness finding regression F PATH --failing-at REV`, harness/findings/before_fix.py) runs
#   the finding's confirming reproducer in a throw-away checkout of REV and takes REV only when it fails there as
#   it did when it confirmed the finding. A checkout holds no git-ignored file, so a reproducer that runs the
#   project's own environment (`.venv/bin/python`, git-ignored, as this repository's own reproducers do) cannot
#   start there (exit 127, "No such file"), and REV is refused as failing "for another reason" — for a commit that
#   does hold the bug. An honest regression test cannot be attached: the finding stays CONFIRMED. (Found on this
#   repository's own F-0349, whose reviewer's reproducer runs "$here"/.venv/bin/python.)
# Correct: the check runs the reproducer where it can start as it did when it confirmed the finding (the
#   environment it ran in), or says that it could not run it and does not refuse REV for that alone; a reproducer
#   that passes at REV (the fix is there) is still refused.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
q() { "$@" >/dev/null 2>&1; }
printf 'def add(a, b):\n    return a + b\n\ndef mul(a, b):\n    return sum(a for _ in range(b))\n' > calc.py
printf 'import unittest\nfrom calc import add\n\nclass T(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(add(2, 3), 5)\n' > test_calc.py
printf '__pycache__/\n.venv/\n' > .gitignore
mkdir -p .venv/bin && ln -s "$(command -v python3)" .venv/bin/python || exit 2   # the project's own environment
printf '#!/bin/sh\nexec .venv/bin/python -c "import sys, calc; sys.exit(calc.mul(3, -2) != -6)"\n' > repro.sh
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
      description: compare with the * operator, in the project's environment
      command: ["sh", "repro.sh"]
YAML
q harness finding propose --file "$T/f.yaml" && q harness finding reproduce F-0001 || exit 2
harness finding list 2>/dev/null | grep -q "F-0001 *CONFIRMED" || { echo "setup: F-0001 not confirmed"; exit 2; }
printf 'import unittest\nfrom calc import mul\n\nclass T(unittest.TestCase):\n    def test_neg(self):\n        self.assertEqual(mul(3, -2), -6)\n' > test_mul_neg.py
git add -A && q git commit -m "F-0001 confirmed; its regression test (failing)" || exit 2
BEFORE=$(git rev-parse HEAD)
sed -i 's/    return sum(a for _ in range(b))/    return a * b/' calc.py
git add -A && q git commit -m "the fix" || exit 2
out=$(harness finding regression F-0001 test_mul_neg.py --failing-at "$BEFORE" -- python3 -m unittest -q test_mul_neg.py 2>&1); rc=$?
echo "$out" | tail -3
if [ $rc -ne 0 ]; then
  echo "DEFECT: --failing-at the commit before the fix (where the bug is) was refused: the reproducer could not start in the checkout"
  exit 1
fi
harness finding list 2>/dev/null | grep -q "F-0001 *FIXING" || { echo "accepted but F-0001 is not FIXING"; exit 1; }
exit 0
