#!/usr/bin/env bash
# Defect: `harness metrics` does not count a DONE commit as a gate bypass (nor as a DONE claim at all) when
#   the same commit drops or breaks .harness/gate.yaml. history/metrics_facts.py done_claims() only takes a
#   verdict whose `gate is not None`, and change_rules._check_task evaluates the gate only when _policy()
#   returned a policy — None for a missing/invalid gate.yaml. A `--no-verify` commit marking a task DONE on
#   code the gate never judged is counted as a bypass (control), but the same commit with gate.yaml deleted
#   (restored in the next commit) reports "gate bypass 0 / 0" while convergence counts the task DONE.
# Correct: a commit whose ledger moves a task to DONE is a DONE claim whatever else it breaks; with no usable
#   policy at that commit it has no gate PASS there and counts as a bypass (docs/usage.md: "judged from the
#   commits themselves, so a --no-verify commit still counts").
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
q harness task new "Add mul" || exit 2
for s in SPECIFYING PLANNED IMPLEMENTING VERIFYING; do q harness transition $s || exit 2; done
printf '\ndef mul(a, b):\n    return a * b\n' >> calc.py
q harness evidence build && q harness evidence unit_test && q harness transition REVIEWING && q harness transition GATING \
  && q harness gate && q harness converge --apply && q harness transition DONE || exit 2
# New, ungated code committed with the DONE, skipping the hook.
printf '\ndef div(a, b):\n    return a / b  # never tested, never gated\n' >> calc.py
cp -a "$R" "$T/control"
metrics() { harness metrics --json 2>/dev/null | python3 -c 'import json,sys; d=json.load(sys.stdin); g=d["gate_bypass"]; c=d["convergence"]; print(g["numerator"], g["denominator"], c["numerator"])'; }

# Control: the --no-verify DONE commit with gate.yaml kept is counted as a bypass.
( cd "$T/control" && git add -A && q git commit --no-verify -m "done" ) || exit 2
read cn cd cc <<<"$(cd "$T/control" && metrics)"
[ "$cn" = 1 ] && [ "$cd" = 1 ] || { echo "control: expected gate bypass 1/1, got $cn/$cd"; exit 2; }

# Attack: the same commit also deletes gate.yaml; the next commit restores it.
cp .harness/gate.yaml "$T/gate.yaml"; git rm -q .harness/gate.yaml
git add -A && q git commit --no-verify -m "done" || exit 2
cp "$T/gate.yaml" .harness/gate.yaml && git add -A && q git commit --no-verify -m "restore gate.yaml" || exit 2
read an ad ac <<<"$(metrics)"
echo "control: gate bypass $cn/$cd; with gate.yaml dropped in the DONE commit: gate bypass $an/$ad, convergence counts $ac DONE task(s)"
if [ "$an" = 0 ] && [ "$ac" = 1 ]; then
  echo "DEFECT: a DONE commit without a gate PASS vanished from the gate-bypass measure"
  exit 1
fi
echo "OK: the bypass is counted"
exit 0
