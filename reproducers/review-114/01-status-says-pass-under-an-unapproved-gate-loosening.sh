#!/usr/bin/env bash
# Defect: `harness status` (text and --json, harness/task/status.py show_status) and every command's `Next:`
#   (harness/gate/steps_now.py steps_for) judge the gate with settings.load_gate(), i.e. with whatever
#   .harness/gate.yaml says now, while `harness gate` and `harness converge` (harness/gate/evaluate.py
#   checked_policy) refuse to judge under a gate.yaml that loosens the committed policy without a human's
#   approval (INVALID_HARNESS_STATE, exit 2). So after an agent edits gate.yaml to make `unit_test` optional,
#   status prints "Gate PASS (evaluated now …)" and gate_now.verdict "PASS", exit 0, with
#   `Next: harness gate — nothing blocks the gate now`, while the gate itself says INVALID_HARNESS_STATE.
# Correct: status is "the gate as it would judge right now" (its --help): it reports the same verdict the gate
#   reports (INVALID_HARNESS_STATE naming the unapproved loosening, or a blocker naming it), never PASS.
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
# control: with the committed policy, unit_test evidence is missing and both say BLOCKED
[ "$(harness gate --json 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["verdict"])')" = BLOCKED ] || exit 2
# the agent loosens the policy (no human approved it)
sed -i 's/unit_test: required/unit_test: optional/' .harness/gate.yaml
gate=$(harness gate --json 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["verdict"])')
status=$(harness status --json 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["gate_now"]["verdict"])')
text=$(harness status 2>&1 | grep '^Gate')
echo "harness gate --json verdict: $gate"
echo "harness status --json gate_now.verdict: $status"
echo "harness status: $text"
[ "$gate" = INVALID_HARNESS_STATE ] || { echo "setup: the gate no longer refuses the loosening"; exit 2; }
if [ "$status" = "$gate" ] || [ "$status" = BLOCKED ]; then echo "OK: status does not report a PASS the gate refuses"; exit 0; fi
echo "DEFECT: status claims the gate would say $status now; the gate says $gate (an unapproved loosening of gate.yaml)"
exit 1
