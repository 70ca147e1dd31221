#!/usr/bin/env bash
# Defect: `harness metrics` does not count a commit that marks a task DONE as a DONE claim (so not as a gate
#   bypass) when the same commit also rewrites the task's committed ledger (an earlier line edited and the hash
#   chain recomputed, the DONE appended). history/metrics_facts.py done_claims() takes DONE claims only from
#   check_commit's verdicts, and change_rules._check_task returns no verdict at all once the ledger-append-only
#   rule fires (likewise for ledger-diverged and an unreadable new ledger), and by_hand needs a
#   projection-matches-ledger problem, which is never computed then. The task ends DONE with a readable ledger,
#   so convergence counts it DONE while "gate bypass" reports 0 / 0: the most blatant forgery is invisible.
# Correct: a commit whose ledger (or task.yaml) newly holds a task in DONE is a DONE claim whatever else the
#   commit breaks; refused as it is, it has no gate PASS and counts as a bypass (gate bypass 1 / 1), as the
#   control (a plain --no-verify DONE on ungated code) is counted.
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
printf '\ndef mul(a, b):\n    return a * b\n' >> calc.py
q harness transition VERIFYING && q harness evidence build && q harness evidence unit_test \
  && q harness requirement set REQ-001 --status verified --evidence unit_test && q harness transition REVIEWING \
  && q harness transition GATING && q harness gate && q harness converge --apply && q harness transition DONE || exit 2
cp -a "$R" "$T/control"
metrics() { harness metrics --json 2>/dev/null | python3 -c 'import json,sys; d=json.load(sys.stdin); g=d["gate_bypass"]; c=d["convergence"]; print(g["numerator"], g["denominator"], c["numerator"])'; }

# Control: DONE committed with --no-verify on code the gate never judged: one claim, one bypass.
( cd "$T/control" && printf '\ndef div(a, b):\n    return a / b\n' >> calc.py && git add -A && q git commit --no-verify -m done ) || exit 2
read -r cn cd cc <<<"$(cd "$T/control" && metrics)"
[ "$cn" = 1 ] && [ "$cd" = 1 ] || { echo "setup: control expected gate bypass 1/1, got $cn/$cd"; exit 2; }

# Attack: the DONE commit also rewrites line 2 of the committed ledger (hash chain recomputed, files re-rendered).
python3 - ".harness/tasks/$t/events.jsonl" <<'PY' || exit 2
import hashlib, json, sys
path, out, prev = sys.argv[1], [], "0" * 64
for raw in open(path, encoding="utf-8").read().splitlines():
    e = json.loads(raw)
    if e["seq"] == 2:
        e["data"]["statement"] = "mul works (reworded)"
    e["prev"] = prev
    line = json.dumps(e, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    prev = hashlib.sha256(line.encode()).hexdigest()
    out.append(line)
open(path, "w", encoding="utf-8").write("\n".join(out) + "\n")
PY
q harness replay --write || exit 2
git add -A && q git commit --no-verify -m done || exit 2
harness audit >/dev/null 2>&1; audit=$?
[ "$audit" = 1 ] || { echo "setup: the audit should refuse the rewritten ledger (exit $audit)"; exit 2; }
read -r an ad ac <<<"$(metrics)"
echo "control (--no-verify DONE on ungated code): gate bypass $cn/$cd"
echo "DONE commit that also rewrote the ledger (audit refuses it, exit $audit): gate bypass $an/$ad, convergence counts $ac DONE"
if [ "$ac" = 1 ] && [ "$ad" = 0 ]; then
  echo "DEFECT: the refused DONE commit is no DONE claim at all: the bypass is invisible to metrics"
  exit 1
fi
[ "$an" = 1 ] && [ "$ad" = 1 ] && { echo "OK: counted as a bypass"; exit 0; }
echo "unexpected: gate bypass $an/$ad, convergence $ac"; exit 1
