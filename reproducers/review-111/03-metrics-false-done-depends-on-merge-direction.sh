#!/usr/bin/env bash
# Defect: `harness metrics`' false-done rate depends on which way two branches were merged, not on history.
#   history/metrics_facts.py carried_from() places each ledger line at the position, in `git rev-list --topo-order
#   --reverse`, of the first commit of the range carrying it, and core/metrics.after() compares positions across
#   ledgers. Two commits on parallel branches have no order in history, but topo-order lists them in an order
#   set by the merge's parent order. A finding confirmed on a feature branch forked *before* a task's DONE (so
#   the branch never held the DONE's work) counts as contradicting that DONE when main merges the feature
#   (false done 1/1), and does not when the feature merges main and main fast-forwards (0/1): the same commits,
#   the same trees, two different rates.
# Correct: "after" is by history (docs: "'After' is by commit history"): only an event in a commit that descends
#   from the DONE's commit (or the DONE's own commit) comes after it, so both merge directions give the same
#   rate (here 0/1: the finding was confirmed on a line that never held the DONE).
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
q() { "$@" >/dev/null 2>&1; }
printf 'def add(a, b):\n    return a + b\n' > calc.py
printf '__pycache__/\n' > .gitignore
mkdir .harness
cat > .harness/config.yaml <<'YAML'
version: 1
evidence:
  build:
    command: ["python3", "-m", "py_compile", "calc.py"]
  unit_test:
    command: ["python3", "-c", "import calc"]
YAML
( git init -q -b main && harness init && harness install && git add -A && git commit -qm init ) >/dev/null 2>&1 || exit 2
walk_to() {  # task through VERIFYING (with evidence) to $1
  q harness requirement add "it works" --priority must || return 1
  for s in SPECIFYING PLANNED IMPLEMENTING VERIFYING; do q harness transition $s || return 1; done
  q harness evidence build && q harness evidence unit_test \
    && q harness requirement set REQ-001 --status verified --evidence unit_test && q harness transition REVIEWING || return 1
  [ "$1" = REVIEWING ] && return 0
  q harness transition GATING && q harness gate && q harness converge --apply && q harness transition DONE
}
# A feature branch forked before X: task Y, whose reviewer confirms a finding located in calc.py.
q git checkout -b feature || exit 2
printf '\ndef neg(a):\n    return -a\n' > neg.py
q harness task new "Add neg" || exit 2
walk_to REVIEWING || exit 2
cat > "$T/findings.yaml" <<'YAML'
findings:
  - severity: minor
    category: correctness
    title: add() has no docstring
    claim: calc.add is undocumented
    location: {file: calc.py}
    failure_scenario: ["read calc.add.__doc__"]
    expected_behavior: a docstring
    recommended_reproducer:
      type: unit_test
      description: the docstring is there
      command: ["python3", "-c", "import sys, calc; sys.exit(calc.add.__doc__ is None)"]
YAML
q harness finding propose --file "$T/findings.yaml" && q harness finding reproduce F-0001 || exit 2
git add -A && q git commit -qm "Y: finding confirmed" || exit 2
# main: task X changes calc.py and reaches DONE, honestly.
q git checkout main || exit 2
x=$(harness task new "Add mul" 2>/dev/null) || exit 2
printf '\ndef mul(a, b):\n    return a * b\n' >> calc.py
walk_to DONE || exit 2
git add -A && q git commit -qm "X: DONE" || exit 2
git tag xdone
cp -a "$R" "$T/other"
false_done() { harness metrics --json 2>/dev/null | python3 -c 'import json,sys; f=json.load(sys.stdin)["false_done"]; print(f["numerator"], f["denominator"])'; }
# One way: main merges the feature.
q git merge --no-ff -m "merge feature" feature || exit 2
harness audit >/dev/null 2>&1 || { echo "setup: the honest history should pass the audit"; exit 2; }
read -r an ad <<<"$(false_done)"
# The other way: the feature merges main, main fast-forwards to it.
( cd "$T/other" && q git checkout feature && q git merge --no-ff -m "merge main" xdone && q git checkout main \
  && q git merge --ff-only feature ) || exit 2
read -r bn bd <<<"$(cd "$T/other" && false_done)"
[ "$ad" = 1 ] && [ "$bd" = 1 ] || { echo "setup: expected one DONE task each way, got $ad and $bd"; exit 2; }
echo "main merges feature: false done $an/$ad; feature merges main (fast-forwarded): false done $bn/$bd"
if [ "$an" != "$bn" ]; then
  echo "DEFECT: the same commits give two false-done rates: the finding on a parallel line counts as 'after' the DONE by merge order"
  exit 1
fi
[ "$an" = 0 ] && { echo "OK: the parallel finding does not contradict the DONE either way"; exit 0; }
echo "both ways count the parallel finding as after the DONE ($an/$ad)"; exit 1
