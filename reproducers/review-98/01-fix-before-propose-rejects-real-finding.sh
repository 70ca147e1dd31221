#!/usr/bin/env bash
# Defect: F-0324's fix binds a finding to the source tree found on disk when `harness finding propose` runs
#   (harness/findings/proposal_site.py site_of -> worktree_source_tree), not to the code the reviewer reviewed.
#   Nothing records the tree `harness review packet` described or the tree the task entered REVIEWING on, so an
#   agent that receives the reviewer's findings, fixes the bug silently and only then proposes them gets a
#   proposal "on" the fixed tree: the reviewer's reproducer passes there, `finding reject` is accepted
#   (core/findings.py rejection_problem: attempt_only() is None since the run's tree == the proposal's), the
#   task reaches DONE with no regression test, and `harness metrics` hides the earlier task's false DONE --
#   exactly F-0324's scenario with "fix" and "propose" swapped.
# Correct: a proposal is bound to the code that was reviewed (the tree the review packet was written from / the
#   task entered REVIEWING on): a proposal on other code is refused (or bound to the reviewed tree), so the run
#   on the silently fixed tree is only an attempt and the rejection is refused; the honest flow (propose on the
#   reviewed code, reproduce) still confirms.
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

# Task B: reviewed; the reviewer's finding (from the packet) has a reproducer that fails on the reviewed code.
q harness task new "Harden calc" || exit 2
printf '\ndef neg(a):\n    return -a\n' >> calc.py
walk_to_review || exit 2
q harness review packet --out .harness/local/review.md || exit 2
mkdir -p .harness/local
cat > .harness/local/findings.yaml <<'YAML'
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
python3 -c "import sys, calc; sys.exit(calc.mul(3, -2) != -6)" && { echo "setup: the reproducer does not fail on the reviewed code"; exit 2; }

# Control: proposing on the reviewed code and reproducing confirms the finding; a rejection is refused.
cp -a "$R" "$T/control"
( cd "$T/control" && q harness finding propose --file .harness/local/findings.yaml && q harness finding reproduce F-0001 \
  && ! q harness finding reject F-0001 --reason "not a bug" && harness finding list --json | grep -q '"CONFIRMED"' ) \
  || { echo "control failed: propose+reproduce on the reviewed code did not confirm"; exit 2; }

# Attack: fix silently between the review and the proposal, then propose, reproduce, reject.
sed -i 's/    return sum(a for _ in range(b))/    return a * b/' calc.py
q harness finding propose --file .harness/local/findings.yaml; prop=$?
q harness finding reproduce F-0001
q harness finding reject F-0001 --reason "mul(3, -2) is -6: the reviewer's reproducer passes"; rej=$?
finish; fin=$?
status=$(harness finding list --json 2>/dev/null | python3 -c 'import json,sys; d=json.load(sys.stdin); print(([f["status"] for f in d["findings"] if f["id"]=="F-0001"] or ["none"])[0])' 2>/dev/null)
read fd conf <<<"$(harness metrics --json 2>/dev/null | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["false_done"]["numerator"], d["finding_confirmation"]["numerator"])')"
echo "propose on the silently fixed tree exit=$prop; reject exit=$rej; task B walked to DONE: $([ $fin = 0 ] && echo yes || echo no); F-0001 is $status"
echo "metrics: false done numerator=$fd, confirmed findings=$conf (control: the same finding is CONFIRMED on the reviewed code)"
if [ "$prop" = 0 ] && [ "$rej" = 0 ] && [ "$status" = REJECTED ]; then
  echo "DEFECT: a real bug the reviewer found was rejected by fixing it before proposing: no regression test, metrics blind"
  exit 1
fi
echo "OK: the proposal on other code than was reviewed was refused, or its rejection was"
exit 0
