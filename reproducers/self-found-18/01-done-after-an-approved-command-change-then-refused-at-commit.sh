#!/usr/bin/env bash
# Defect: harness/task/transitions.py transition_event checks, for CONVERGED -> DONE, the recorded gate PASS (bound to
#   the source tree without .harness/, gate.yaml's digest and HEAD) and config.yaml's approval (F-0379), but not the
#   gate itself as the configuration now stands. An evidence command changed AND approved by a human after
#   `gate --advance` leaves the PASS standing: `transition DONE` goes through, and the commit of that DONE is then
#   refused (done-needs-gate-pass: the gate recomputed on the committed content is BLOCKED, the evidence having come
#   from the old command). The task sits in a DONE it cannot commit, and DONE takes no new evidence.
# Correct: DONE is refused while the gate, recomputed now, does not pass, naming what to do (re-collect the evidence
#   with the configured command, run the gate again); the commit check and the transition agree.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=test@example.com GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=test@example.com
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
ssh-keygen -q -t ed25519 -N "" -C human -f "$T/key" || exit 2
mkdir .harness && cat > .harness/config.yaml <<'YAML'
version: 1
evidence:
  build:
    command: ["python3", "-c", "pass"]
  unit_test:
    command: ["python3", "-c", "pass"]
YAML
echo 'def add(a, b):' > app.py; echo '    return a + b' >> app.py
( git init -q -b main && git config user.signingKey "$T/key" && harness init && harness install \
  && echo "test@example.com $(cut -d' ' -f1,2 "$T/key.pub")" > .harness/allowed_signers \
  && git add -A && git commit -qm adopt ) >/dev/null 2>&1 || { echo "setup: adopt"; exit 2; }
( harness task new "Add sub" && harness requirement add "sub subtracts" --priority must \
  && for s in SPECIFYING PLANNED IMPLEMENTING VERIFYING; do harness transition $s || exit 1; done \
  && printf 'def sub(a, b):\n    return a - b\n' >> app.py \
  && harness evidence build && harness evidence unit_test \
  && harness requirement set REQ-001 --status verified --evidence unit_test \
  && harness transition REVIEWING && harness transition GATING && harness gate --advance ) >/dev/null 2>&1 \
  || { echo "setup: to CONVERGED"; exit 2; }
# The unit_test command changes after the PASS, and a human approves the change at a terminal.
sed -i 's/command: \["python3", "-c", "pass"\]$/command: ["python3", "-c", "pass", "narrowed"]/' .harness/config.yaml
grep -q narrowed .harness/config.yaml || { echo "setup: edit"; exit 2; }
printf 'approve\n' | script -qec "harness approve config-change" /dev/null > "$T/approve.txt" 2>&1
grep -q '"approved_by"\|signature' .harness/approvals.jsonl 2>/dev/null || { echo "setup: approve"; cat "$T/approve.txt"; exit 2; }
if harness transition DONE > "$T/done.txt" 2>&1; then
  git add -A
  if git commit -qm "Add sub" > "$T/commit.txt" 2>&1; then echo "setup: the commit took it"; exit 2; fi
  echo "DEFECT: transition DONE went through while the gate, asked now, is BLOCKED; its commit is then refused:"
  grep -m1 "done-needs-gate-pass" "$T/commit.txt" | cut -c1-200
  exit 1
fi
grep -q "BLOCKED\|gate" "$T/done.txt" || { echo "refused, but not for the gate:"; cat "$T/done.txt"; exit 1; }
echo "OK: DONE refused while the gate recomputed now blocks"; cat "$T/done.txt" | head -3; exit 0
