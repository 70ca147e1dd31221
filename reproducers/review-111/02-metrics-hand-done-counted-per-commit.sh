#!/usr/bin/env bash
# Defect: `harness metrics` counts one DONE typed into task.yaml by hand as a new DONE claim (and a new gate bypass)
#   in every later commit that touches the task's folder while the file still says DONE — here the merge that
#   brings the feature branch into main. history/metrics_facts.py done_claims() takes `by_hand` claims from every
#   projection-matches-ledger problem whose file says 'DONE', with no "newly DONE" check, while ledger claims are
#   taken only where the task *enters* DONE (TaskVerdict.entered: not when a parent already held it there).
#   The same history with the DONE forged through the ledger (--no-verify) counts one claim.
# Correct: a commit "marks a task DONE" only where no parent already marked it so (by ledger or by file): the
#   merge adds no claim; gate bypass 1 / 1, as for the control.
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
t=$(harness task new "Add mul" 2>/dev/null) || exit 2
q harness requirement add "mul works" --priority must || exit 2
for s in SPECIFYING PLANNED IMPLEMENTING; do q harness transition $s || exit 2; done
git add -A && q git commit -qm "task at IMPLEMENTING" || exit 2
q git checkout -b feature || exit 2
cp -a "$R" "$T/control"
claims() { harness metrics --json 2>/dev/null | python3 -c 'import json,sys; g=json.load(sys.stdin)["gate_bypass"]; print(g["numerator"], g["denominator"], " ".join(g["ids"]))'; }
merge_into_main() {
  q git checkout main && printf '# main moves on\n' > notes.txt && git add -A && q git commit -qm "main moves on" \
    && q git merge --no-ff --no-verify -m "merge feature" feature
}

# Control: DONE through the ledger, committed with --no-verify on code never gated, then merged: one claim.
( cd "$T/control" || exit 2
  printf '\ndef mul(a, b):\n    return a * b\n' >> calc.py
  q harness transition VERIFYING && q harness evidence build && q harness evidence unit_test \
    && q harness requirement set REQ-001 --status verified --evidence unit_test && q harness transition REVIEWING \
    && q harness transition GATING && q harness gate && q harness converge --apply && q harness transition DONE || exit 2
  printf '\ndef div(a, b):\n    return a / b\n' >> calc.py
  git add -A && q git commit --no-verify -m "done" && merge_into_main ) || exit 2
read -r cn cd _ <<<"$(cd "$T/control" && claims)"
[ "$cn" = 1 ] && [ "$cd" = 1 ] || { echo "setup: control expected gate bypass 1/1, got $cn/$cd"; exit 2; }

# Attack: DONE typed into task.yaml by hand, committed with --no-verify, then the same merge.
sed -i 's/state: IMPLEMENTING/state: DONE/' ".harness/tasks/$t/task.yaml"
grep -q 'state: DONE' ".harness/tasks/$t/task.yaml" || exit 2
git add -A && q git commit --no-verify -m "claim done" || exit 2
merge_into_main || exit 2
read -r an ad ids <<<"$(claims)"
echo "control (ledger DONE via --no-verify, merged): gate bypass $cn/$cd"
echo "hand-typed DONE, merged: gate bypass $an/$ad ($ids)"
if [ "$ad" -gt 1 ]; then
  echo "DEFECT: one hand-typed DONE is counted as $ad DONE claims: the merge that carries it is counted again"
  exit 1
fi
[ "$an" = 1 ] && [ "$ad" = 1 ] && { echo "OK: one claim, one bypass"; exit 0; }
echo "unexpected: gate bypass $an/$ad"; exit 1
