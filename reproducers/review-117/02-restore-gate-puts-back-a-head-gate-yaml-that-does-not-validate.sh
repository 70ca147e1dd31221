#!/usr/bin/env bash
# Defect: where HEAD's own .harness/gate.yaml does not validate (committed with --no-verify, or by an older
# harness whose schema this one no longer accepts), the gate refuses the working tree's invalid gate.yaml and its
# first Next: (harness/core/next_step.py out_of_invalid, GATE_INVALID) is `harness init --restore-gate`.
# restore_gate (harness/install/initialize.py) copies HEAD's invalid file back unchecked, prints "restored
# .harness/gate.yaml as HEAD (...) holds it" / "Next: harness status — the gate judges under the restored policy"
# and exits 0, and the gate answers INVALID_HARNESS_STATE again, naming --restore-gate again: a loop. (The gate
# itself takes an invalid HEAD policy for none: loosening_of returns [] and any valid gate.yaml is judged.)
# Correct: the step Next: names first clears the cause, or --restore-gate refuses (non-zero) saying HEAD's
# gate.yaml does not validate and what to do instead, rather than claiming the gate judges again.
# Exit 1 while the defect is present, 0 when fixed, 2 on a setup failure.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 HOME=$T/home
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.com
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE
mkdir -p "$HOME" "$T/repo" && cd "$T/repo" || exit 2
setup() {
  git init -q -b main && echo 'x = 1' > app.py && git add . && git commit -qm init &&
  harness init >/dev/null && git add -A && git commit -qm 'adopt the harness' --no-verify &&
  harness task new "T" >/dev/null 2>&1 && harness requirement add "R" --priority must >/dev/null 2>&1 &&
  for s in SPECIFYING PLANNED IMPLEMENTING VERIFYING; do harness transition $s >/dev/null 2>&1 || return 1; done &&
  harness evidence build -- python3 -c pass >/dev/null 2>&1 &&
  grep -q 'max_iterations: 5' .harness/gate.yaml &&
  sed -i 's/max_iterations: 5/max_iterations: five/' .harness/gate.yaml &&
  git commit -qam 'a gate.yaml that does not validate' --no-verify
}
setup || { echo "setup failed"; exit 2; }
verdict() { harness gate --json 2>/dev/null | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["verdict"]); print((d.get("next") or [{}])[0].get("command",""))'; }
before=$(verdict)
echo "before: $before"
[ "$(echo "$before" | head -1)" = INVALID_HARNESS_STATE ] || { echo "setup: gate not INVALID"; exit 2; }
named=$(echo "$before" | tail -1)
out=$(harness init --restore-gate 2>&1); rc=$?
echo "restore-gate (exit $rc): $out"
after=$(verdict)
echo "after: $after"
if [ "$(echo "$after" | head -1)" = INVALID_HARNESS_STATE ]; then
  if [ $rc -eq 0 ]; then echo "DEFECT: --restore-gate reported success and the gate judges again; it still refuses gate.yaml"; exit 1; fi
  if [ "$named" = "harness init --restore-gate" ]; then echo "DEFECT: the gate's first Next: does not clear the state"; exit 1; fi
fi
exit 0
