#!/usr/bin/env bash
# Defect: when .harness/gate.yaml loosens the committed policy without a human's approval, `harness gate`
#   (harness/gate/evaluate.py run_gate: every HarnessError becomes GateInvalid with the fixed step
#   NextStep("harness replay", "see what is invalid and how to fix it")) prints INVALID_HARNESS_STATE with
#   `Next: harness replay`. Followed, `harness replay` answers "ledger OK …; files agree" and exits 0: it knows
#   nothing of gate.yaml, so the Next: step leads nowhere (a dead end for an agent that follows Next:). The same
#   for a gate.yaml that does not validate (e.g. `max_iterations: five`): gate and status say INVALID_HARNESS_STATE,
#   Next: `harness replay`, which exits 0 "files agree".
# Correct: the next step for that state is what clears it: revert gate.yaml (`git checkout HEAD --
#   .harness/gate.yaml`) or a human's `harness approve gate-change` (for a malformed gate.yaml: fix or revert it),
#   in the text and in --json `next`; `harness replay` only where a task file disagrees with its ledger.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
mkdir .harness && cat > .harness/config.yaml <<'YAML' || exit 2
version: 1
evidence:
  build:
    command: ["true"]
  unit_test:
    command: ["true"]
YAML
( git init -q -b main && harness init && harness install && harness task new t && echo a > a.txt && git add -A \
  && git commit -qm init ) >/dev/null 2>&1 || exit 2
( harness requirement add r1 --priority must \
  && for s in SPECIFYING PLANNED IMPLEMENTING VERIFYING; do harness transition $s || exit 1; done \
  && harness evidence build \
  && harness requirement set REQ-001 --status verified --evidence build \
  && harness transition REVIEWING && harness transition GATING ) >/dev/null 2>&1 || exit 2
sed -i 's/unit_test: required/unit_test: optional/' .harness/gate.yaml
harness gate --json > "$T/gate.json" 2>/dev/null; code=$?
[ "$code" = 2 ] || { echo "setup: gate exited $code, not 2"; exit 2; }
first=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["next"][0]["command"] if d["next"] else "")' "$T/gate.json")
all=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(" | ".join(n["command"] for n in d["next"]))' "$T/gate.json")
echo "harness gate: INVALID_HARNESS_STATE (exit 2); next: $all"
if [ "$first" = "harness replay" ]; then
  out=$(harness replay 2>&1); rc=$?
  echo "following it: \`harness replay\` exits $rc: $out"
fi
bad=0
case "$all" in
  *gate.yaml*|*"approve gate-change"*) echo "OK: the next step clears the unapproved loosening" ;;
  *) bad=1; echo "DEFECT: the Next: step does not lead out of the refusal (it names neither the revert of gate.yaml nor the approval)" ;;
esac
# the same for a gate.yaml that does not validate
git checkout -q HEAD -- .harness/gate.yaml || exit 2
sed -i 's/max_iterations: 5/max_iterations: five/' .harness/gate.yaml
harness gate --json > "$T/gate2.json" 2>/dev/null; code=$?
[ "$code" = 2 ] || { echo "setup: gate exited $code on a malformed gate.yaml"; exit 2; }
all2=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(" | ".join(n["command"] for n in d["next"]))' "$T/gate2.json")
echo "malformed gate.yaml: harness gate exit 2; next: $all2; \`harness replay\` then exits $(harness replay >/dev/null 2>&1; echo $?)"
case "$all2" in
  *gate.yaml*) ;;
  *) bad=1; echo "DEFECT: Next: names no fix of gate.yaml" ;;
esac
exit $bad
