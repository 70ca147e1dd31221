#!/usr/bin/env bash
# Defect: a critical finding is rejected by editing the reviewer's reproducer script so it exits 0. Only the
#   reproducer's command text is compared (core/findings.py rejection_problem / refuted_on: `a["command"] ==
#   recommended`); the file the command runs (`bash reproducers/review-1/01.sh`, this project's own convention
#   for reviewers' reproducers) is not bound to the finding: no digest at proposal, no check at reproduce,
#   reject, gate, commit hook or `audit --rerun` (which re-runs the edited script from the commit and calls it
#   "reproduces"). So the implementer refutes a real critical bug with an `exit 0`, reaches DONE, and CI is green.
# Correct: a run counts as the reviewer's reproducer only when the files its command names are the ones the
#   reviewer proposed (record their digests in finding.proposed and refuse/ignore a run where they differ, or
#   run the proposal's version of them), as docs/threat-model.md promises for "a critical or major finding
#   refuted by `true`"; the edit then leaves F-0001 open and the gate blocked.
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
# The reviewer's reproducer, committed beside the proposal (as this project keeps reproducers/review-NN/).
mkdir -p reproducers/review-1
printf '#!/usr/bin/env bash\n# Defect: mul(3, -2) is 0. Exit 1 while present.\npython3 -c "import sys, calc; sys.exit(calc.mul(3, -2) != -6)"\n' \
  > reproducers/review-1/01-mul-negative.sh
cat > "$T/f.yaml" <<'YAML'
findings:
  - severity: critical
    category: correctness
    title: mul() is wrong for a negative multiplier
    claim: range(b) is empty for b < 0, so mul(3, -2) returns 0
    location: {file: calc.py}
    failure_scenario: ["call mul(3, -2)"]
    expected_behavior: returns -6
    recommended_reproducer:
      type: integration_test
      description: exit 1 while the defect is present
      command: [bash, reproducers/review-1/01-mul-negative.sh]
YAML
q harness finding propose --file "$T/f.yaml" || exit 2
git add -A && q git commit -m "review-1: F-0001 proposed with its reproducer" || exit 2
bash reproducers/review-1/01-mul-negative.sh && { echo "setup: the reproducer does not fail"; exit 2; }

# Control: run as proposed, the reproducer confirms F-0001 and a rejection is refused.
cp -a "$R" "$T/control"
( cd "$T/control" && q harness finding reproduce F-0001 && ! q harness finding reject F-0001 --reason "not a bug" ) \
  || { echo "control failed"; exit 2; }

# Attack: make the reviewer's script exit 0 (the code is not touched), reproduce, reject, walk to DONE.
printf '#!/usr/bin/env bash\nexit 0\n' > reproducers/review-1/01-mul-negative.sh
q harness finding reproduce F-0001
q harness finding reject F-0001 --reason "the reviewer's reproducer passes"; rej=$?
q harness evidence build; q harness evidence unit_test
q harness transition GATING; q harness gate; gate=$?
q harness converge --apply && q harness transition DONE && git add -A && q git commit -m done; done_rc=$?
q harness audit --rerun --to HEAD; audit=$?
python3 -c "import sys, calc; sys.exit(calc.mul(3, -2) != -6)"; bug=$?
echo "reject exit=$rej, gate exit=$gate, DONE committed exit=$done_rc, audit --rerun exit=$audit; mul(3,-2) still wrong: $([ $bug = 1 ] && echo yes)"
if [ "$rej" = 0 ] && [ "$bug" = 1 ]; then
  echo "DEFECT: a critical finding was refuted by editing its reproducer to 'exit 0'$([ $gate = 0 ] && echo '; gate PASS')$([ $audit = 0 ] && echo '; CI audit --rerun green')"
  exit 1
fi
echo "OK: the edited reproducer did not refute the finding"
exit 0
