#!/usr/bin/env bash
# Defect: closing a finding releases it from every check of the gate. core/gate_checks.py regression_verified
#   holds a VERIFIED finding to a regression run on the gated tree (regression_fresh, gate/facts.py), and
#   _open_findings holds a REJECTED one to a reproducer pass on the gated tree, but a CLOSED finding is
#   checked for nothing (without a suite: section). So: verify a critical finding, `finding close` it, then
#   revert the fix and delete its regression test: the gate PASSes and the task reaches DONE (commit hook and
#   push guard judge the same way) while the reviewer's recorded reproducer fails on the DONE tree. Leaving
#   the finding VERIFIED instead (control) blocks with "regression evidence is stale".
# Correct: a CLOSED finding, like a VERIFIED one, counts as settled only on the tree its regression test and
#   confirming reproducer last passed on (or its regression test file must still be there and pass); a code
#   change after closing needs `finding verify` again, as docs/concepts.md's rule for REJECTED findings does.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
q() { "$@" >/dev/null 2>&1; }
printf 'def add(a, b):\n    return a + b\n\ndef mul(a, b):\n    return sum(a for _ in range(b))\n' > calc.py
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
  - severity: critical
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
printf 'import unittest\nfrom calc import mul\n\nclass T(unittest.TestCase):\n    def test_neg(self):\n        self.assertEqual(mul(3, -2), -6)\n' > test_mul_neg.py
q harness finding regression F-0001 test_mul_neg.py -- python3 -m unittest -q test_mul_neg.py || exit 2
q harness transition REPRODUCING && q harness transition FIXING || exit 2
cp calc.py "$T/calc.buggy"
sed -i 's/    return sum(a for _ in range(b))/    return a * b/' calc.py
q harness finding fixed F-0001 && q harness evidence build && q harness evidence unit_test && q harness finding verify F-0001 || exit 2
undo_fix() { cp "$T/calc.buggy" calc.py && rm -f test_mul_neg.py && q harness evidence build && q harness evidence unit_test \
  && for s in VERIFYING REVIEWING GATING; do q harness transition $s || return 1; done; }

# Control: left VERIFIED, the undone fix is refused by the gate.
cp -a "$R" "$T/control"
( cd "$T/control" && undo_fix && ! q harness gate ) || { echo "control failed: a VERIFIED finding did not block"; exit 2; }

# Attack: close it first, then undo the fix and drop the regression test.
q harness finding close F-0001 || exit 2
undo_fix || exit 2
q harness gate; gate=$?
q harness converge --apply && q harness transition DONE && git add -A && q git commit -m "done"; done_rc=$?
python3 -c "import sys, calc; sys.exit(calc.mul(3, -2) != -6)"; repro=$?
echo "gate exit=$gate; DONE committed exit=$done_rc; the reviewer's reproducer on the DONE tree exits $repro"
if [ "$gate" = 0 ] && [ "$repro" != 0 ]; then
  echo "DEFECT: a CLOSED critical finding whose fix was undone does not block the gate (the VERIFIED control does)"
  exit 1
fi
echo "OK: the undone fix is refused"
exit 0
