#!/usr/bin/env bash
# Defect: a real, confirmed-on-review defect can be REJECTED without a regression test by fixing the code
#   first and only then running the reviewer's reproducer. `harness finding reproduce` runs the reproducer on
#   whatever the working tree holds now (harness/findings/steps.py reproduce -> reproduce.run_fact), and
#   `finding reject` (core/findings.py rejection_problem) accepts any passing run of the reviewer's command;
#   nothing records or checks the code the finding was proposed against (finding.proposed keeps no tree/head).
#   So the CONFIRMED -> FIXING (regression test) -> FIXED -> VERIFIED path is skipped, the gate passes, and
#   `harness metrics` reports the finding as reviewer noise (confirmation 0/1), no regression debt, and hides
#   the false DONE of the earlier task whose code the finding was about (false done 0).
# Correct: a rejection must rest on a passing run of the reviewer's reproducer on the code the finding was
#   proposed against (record the proposal's tree/commit; run the deciding reproduction there, as
#   `--failing-at` does in a throw-away checkout), so a bug fixed before reproducing is still CONFIRMED and
#   needs its regression test; equivalently metrics must count it (false done / confirmation).
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
q() { "$@" >/dev/null 2>&1; }
printf 'def add(a, b):\n    return a + b\n' > calc.py
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
walk_to_review() { for s in SPECIFYING PLANNED IMPLEMENTING VERIFYING; do q harness transition $s || return 1; done
  q harness evidence build && q harness evidence unit_test && q harness transition REVIEWING; }
finish() { q harness evidence build && q harness evidence unit_test && q harness transition GATING && q harness gate \
  && q harness converge --apply && q harness transition DONE; }

# Task A: mul() with a bug for negative b, walked to DONE and committed.
q harness task new "Add multiplication" || exit 2
printf '\ndef mul(a, b):\n    return sum(a for _ in range(b))\n' >> calc.py
walk_to_review && finish || exit 2
git add -A && q git commit -m "A: mul done" || exit 2

# Task B: a reviewer's major finding on calc.py, with a reproducer that fails on the committed code.
q harness task new "Harden calc" || exit 2
walk_to_review || exit 2
cat > "$T/f.yaml" <<'YAML'
findings:
  - severity: major
    category: correctness
    title: mul() is wrong for a negative multiplier
    claim: range(b) is empty for b < 0, so mul(3, -2) returns 0
    location: {file: calc.py}
    failure_scenario: ["call mul(3, -2)"]
    expected_behavior: returns -6
    recommended_reproducer:
      type: unit_test
      description: compare with the * operator
      command: ["python3", "-c", "import sys, calc; sys.exit(calc.mul(3, -2) != -6)"]
YAML
q harness finding propose --file "$T/f.yaml" || exit 2
git add -A && q git commit -m "B: finding proposed" || exit 2
python3 -c "import sys, calc; sys.exit(calc.mul(3, -2) != -6)" && { echo "setup: the reproducer does not fail on the proposed code"; exit 2; }

# Control: on a copy, reproducing first confirms the finding and a rejection is refused.
cp -a "$R" "$T/control"
( cd "$T/control" && q harness finding reproduce F-0001 && ! q harness finding reject F-0001 --reason "not a bug" \
  && harness finding list --json | grep -q '"CONFIRMED"' ) || { echo "control failed: reproduce-first did not confirm"; exit 2; }

# Attack: fix first (no regression test), then run the reviewer's reproducer, then reject.
sed -i 's/    return sum(a for _ in range(b))/    return a * b/' calc.py
q harness finding reproduce F-0001
q harness finding reject F-0001 --reason "mul(3, -2) is -6: the reviewer's reproducer passes"; rej=$?
finish; fin=$?
git add -A && q git commit -m "B: done"
status=$(harness finding list --json 2>/dev/null | python3 -c 'import json,sys; d=json.load(sys.stdin); print([f["status"] for f in d["findings"] if f["id"]=="F-0001"][0])' 2>/dev/null)
read fd conf <<<"$(harness metrics --json 2>/dev/null | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["false_done"]["numerator"], d["finding_confirmation"]["numerator"])')"
echo "reject exit=$rej; task B walked to DONE: $([ $fin = 0 ] && echo yes || echo no); F-0001 is $status"
echo "metrics: false done numerator=$fd, confirmed findings=$conf (control: reproducing first gives 1 and 1)"
if [ "$rej" = 0 ] && [ "$status" = REJECTED ] && [ "$fd" = 0 ] && [ "$conf" = 0 ]; then
  echo "DEFECT: a real bug in A's DONE code was rejected as 'not reproducible' after a silent fix: no regression test, no false done counted"
  exit 1
fi
echo "OK: the fix-first rejection was refused or counted"
exit 0
