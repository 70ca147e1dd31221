#!/usr/bin/env bash
# Defect: F-0326's binding skips every file under .harness/ (harness/findings/bound_files.py _relative:
#   `paths.inside(...)` -> None) and .harness/ is also left out of the proposal's source tree. Yet the
#   adversarial-review skill tells the reviewer to write its output "outside the repository's source, e.g.
#   .harness/local/findings.yaml" and never to edit code (the packet: "you do not edit files"), so its reproducer
#   script naturally sits in .harness/local/. Such a script binds nothing: the agent rewrites it to `exit 0`,
#   `finding reproduce` passes on the proposal's tree, `finding reject` is accepted, the gate passes and the task
#   reaches DONE -- F-0326's attack, unchanged, at the place the skill points reviewers to.
# Correct: the reviewer's script is bound wherever the reviewer is told to put it: a file in .harness/local/ (not
#   the ledger) the command names is digested at proposal like any other named file, so the edited run is only an
#   attempt and the rejection is refused (control: the same script at the repository's root is already bound).
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
q harness task new "Add multiplication" || exit 2
printf '\ndef mul(a, b):\n    return sum(a for _ in range(b))\n' >> calc.py
for s in SPECIFYING PLANNED IMPLEMENTING VERIFYING; do q harness transition $s || exit 2; done
q harness evidence build && q harness evidence unit_test && q harness transition REVIEWING || exit 2
q harness review packet --out .harness/local/review.md || exit 2

# The reviewer (no edits to the source) writes its script and its findings next to the packet.
write_case() {  # $1: where the script goes
  mkdir -p "$(dirname "$1")"
  printf '#!/bin/bash\npython3 -c "import sys, calc; sys.exit(calc.mul(3, -2) != -6)"\n' > "$1"
  cat > .harness/local/findings.yaml <<YAML
findings:
  - severity: critical
    category: correctness
    title: mul() is wrong for a negative multiplier
    claim: range(b) is empty for b < 0, so mul(3, -2) returns 0
    location: {file: calc.py}
    failure_scenario: ["call mul(3, -2)"]
    expected_behavior: returns -6
    recommended_reproducer:
      type: unit_test
      description: compare with the * operator
      command: ["bash", "$1"]
YAML
}
attack() {  # $1: the script; prints "reject-exit status"
  q harness finding propose --file .harness/local/findings.yaml || { echo "propose-refused -"; return; }
  bash "$1" && { echo "setup -"; return; }
  printf '#!/bin/bash\nexit 0\n' > "$1"          # the agent's edit
  q harness finding reproduce F-0001
  q harness finding reject F-0001 --reason "the reviewer's reproducer passes"; local r=$?
  echo "$r $(harness finding list --json 2>/dev/null | python3 -c 'import json,sys; print([f["status"] for f in json.load(sys.stdin)["findings"] if f["id"]=="F-0001"][0])')"
}

# Control: the same script at the repository's root is bound; its rewrite cannot reject.
cp -a "$R" "$T/control"
read crej cstat <<<"$(cd "$T/control" && write_case repro.sh && attack repro.sh)"
[ "$cstat" = "setup" ] && { echo "setup: the reproducer does not fail"; exit 2; }
[ "$crej" = 0 ] && { echo "control: the root-level script was not bound either (reject exit 0): not this defect"; exit 2; }

write_case .harness/local/repro.sh
read rej stat <<<"$(attack .harness/local/repro.sh)"
[ "$stat" = "setup" ] && { echo "setup: the reproducer does not fail"; exit 2; }
q harness transition GATING && q harness gate && q harness converge --apply && q harness transition DONE; fin=$?
echo "control (repro.sh at the root, rewritten): reject exit=$crej, F-0001 $cstat"
echo "attack (.harness/local/repro.sh, rewritten to exit 0): reject exit=$rej, F-0001 $stat, task DONE: $([ $fin = 0 ] && echo yes || echo no)"
if [ "$rej" = 0 ] && [ "$stat" = REJECTED ]; then
  echo "DEFECT: a critical finding was rejected by rewriting the reviewer's script where the skill says reviewers write"
  exit 1
fi
echo "OK: the rewritten .harness/local script was only an attempt"
exit 0
