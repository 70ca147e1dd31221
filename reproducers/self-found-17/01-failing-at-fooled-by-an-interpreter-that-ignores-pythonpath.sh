#!/usr/bin/env bash
# Defect: `harness finding regression F PATH --failing-at REV` runs the test and the finding's confirming
#   reproducer in a throw-away checkout of REV, the project's git-ignored .venv lent to it
#   (harness/findings/checkout_env.py, before_fix.py _checkout_env). That the checkout's code is what runs rests
#   on PYTHONPATH (the checkout's folders first). An interpreter started with -E or -I (isolated mode; this
#   project's own git hooks run `python -E -P -m harness`) ignores PYTHONPATH and imports the project through
#   the environment's editable-install .pth line: the WORKING TREE's code. So a reproducer whose bug sits in code
#   such an interpreter runs passes at the commit before the fix, and that honest commit is refused ("already
#   holds the fix"); with the bug put back in the working tree only, a fixed commit would be taken instead.
#   (Found on this repository's own F-0355, whose reviewer's reproducer runs the harness's git hooks.)
# Correct: in the checkout, an interpreter of the lent environment imports the checkout's code whatever its
#   flags (or the run is refused as unable to show it): the commit before the fix is accepted.
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
python3 -m venv --without-pip .venv || exit 2
site=$(.venv/bin/python -c 'import sysconfig; print(sysconfig.get_path("purelib"))') || exit 2
echo "$R" > "$site/_editable_calc.pth"   # the project installed editable, as `pip install -e .` does
# The reproducer runs the environment's interpreter isolated (-I), from another folder, as a git hook would.
printf 'here=$(cd "$(dirname "$0")" && pwd)\ncd "$HOME" || exit 2\nexec "$here/.venv/bin/python" -I -c "import sys, calc; sys.exit(calc.mul(3, -2) != -6)"\n' > repro.sh
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
      description: compare with the * operator, in the project's environment, isolated
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
  echo "DEFECT: --failing-at the commit before the fix was refused: the isolated interpreter ran the working tree's (fixed) calc in the checkout"
  exit 1
fi
harness finding list 2>/dev/null | grep -q "F-0001 *FIXING" || { echo "accepted but F-0001 is not FIXING"; exit 1; }
exit 0
