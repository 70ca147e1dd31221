#!/usr/bin/env bash
# Defect: F-0361's fix (47cbbbf) makes the gate and `harness status` block on a config.yaml change the commit hook
#   refuses without approval, "so a task no longer reaches a DONE it cannot commit" — but `harness transition DONE`
#   does not ask: CONVERGED→DONE is bound only to the recorded gate PASS for the source tree (harness/task/
#   transitions.py gate_binding: tree without .harness/, gate.yaml's digest, HEAD), so a config.yaml evidence
#   command changed after the PASS (here unit_test -> `true`) reaches DONE while `harness status` says BLOCKED
#   (config_unapproved) and the commit is then refused (evidence-commands-need-approval). Once DONE, status even
#   reports "gate PASS on this source tree" and the evidence FRESH.
# Correct: transition DONE is refused while the gate, evaluated now, blocks on the unapproved config.yaml change
#   (as status says), naming `harness approve config-change` or the revert.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
PY="$here"/.venv/bin/python
make_converged() {  # $1: folder. A repo with its commands committed, a task at CONVERGED (gate PASS recorded).
  export HOME="$T/home"; mkdir -p "$HOME" "$1"; cd "$1" || return 1
  ( git init -q -b main && harness init && $PY - <<'PYEOF'
import yaml
p = ".harness/config.yaml"; d = yaml.safe_load(open(p))
d["evidence"] = {"build": {"command": [__import__("sys").executable, "-c", "pass"]},
                 "unit_test": {"command": [__import__("sys").executable, "-c", "pass"]}}
yaml.safe_dump(d, open(p, "w"), sort_keys=False)
PYEOF
  ) >/dev/null 2>&1 || return 1
  ( rm .harness/gate.yaml && harness init && harness install && echo a > a.txt && git add -A && git commit -qm base \
    && harness task new Work && harness requirement add "It works" --priority must \
    && for s in SPECIFYING PLANNED IMPLEMENTING VERIFYING; do harness transition $s || exit 1; done \
    && echo b >> a.txt && harness evidence build && harness evidence unit_test \
    && harness requirement set REQ-001 --status verified --evidence unit_test \
    && harness transition REVIEWING && harness transition GATING && harness gate --advance ) >"$T/setup.log" 2>&1
}
# Control: an unchanged config.yaml reaches DONE, and the DONE commits.
make_converged "$T/control" || { cat "$T/setup.log"; exit 2; }
harness transition DONE >/dev/null 2>&1 && git add -A && git commit -qm done >/dev/null 2>&1 \
  || { echo "setup: the honest task does not reach a committed DONE"; exit 2; }
# The change: unit_test's command replaced after the gate PASS, no human's approval.
make_converged "$T/repo" || { cat "$T/setup.log"; exit 2; }
$PY - <<'PYEOF' || exit 2
import yaml
p = ".harness/config.yaml"; d = yaml.safe_load(open(p))
d["evidence"]["unit_test"]["command"] = ["true"]
yaml.safe_dump(d, open(p, "w"), sort_keys=False)
PYEOF
harness status 2>&1 | grep -q "config.yaml changes evidence.unit_test.command" \
  || { echo "setup: status does not show the config_unapproved blocker"; exit 2; }
echo "status (CONVERGED): $(harness status 2>&1 | grep -m1 '^Gate')"
rc=0; harness transition DONE >"$T/done.log" 2>&1 || rc=$?
echo "transition DONE exited $rc: $(head -1 "$T/done.log")"
if [ "$rc" -eq 0 ]; then
  echo "status (DONE):      $(harness status 2>&1 | grep -m1 '^Gate')"
  crc=0; ( git add -A && git commit -qm done ) >"$T/commit.log" 2>&1 || crc=$?
  echo "the commit exited $crc: $(grep -m1 'need-approval\|needs-approval' "$T/commit.log" | cut -c1-120)"
  echo "DEFECT: the task reached a DONE its commit is refused for (unapproved config.yaml change after the PASS)"
  exit 1
fi
echo "OK: transition DONE refused while config.yaml holds an unapproved change"; exit 0
