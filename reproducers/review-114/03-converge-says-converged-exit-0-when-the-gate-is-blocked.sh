#!/usr/bin/env bash
# Defect: `harness converge` decides CONVERGED (exit 0) for a task in state CONVERGED from the state alone
#   (harness/core/converge.py decide(): `if f.state in ("CONVERGED", "DONE"): return Decision(CONVERGED, …)`),
#   before looking at the gate it has just evaluated. After a code change the gate is BLOCKED (stale evidence),
#   `harness transition DONE` is refused, yet converge prints "CONVERGENCE: CONVERGED … gate BLOCKED" and exits 0;
#   --json says decision CONVERGED with gate BLOCKED. Its --help and the convergence skill promise "exit 0 CONVERGED
#   (the gate passes)" / "0 CONVERGED: The gate passes: … then `harness transition DONE`", so an agent that reads the
#   exit code goes on to a DONE that is refused.
# Correct: CONVERGED (exit 0) only when the gate passes on this source tree; a CONVERGED task whose PASS no longer
#   holds gets CONTINUE (exit 1) naming the blocker (re-collect the evidence), as status's Next: already says.
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
  && harness evidence build && harness evidence unit_test \
  && harness requirement set REQ-001 --status verified --evidence unit_test \
  && harness transition REVIEWING && harness transition GATING && harness gate \
  && harness converge --apply ) >/dev/null 2>&1 || exit 2
# control: right after converging, the gate passes and converge says so
harness converge >/dev/null 2>&1 || { echo "setup: converge on a passing CONVERGED task exited non-zero"; exit 2; }
echo "a late change" >> a.txt     # the evidence is stale now
harness converge --json > "$T/c.json" 2>/dev/null; code=$?
read -r decision gate < <(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["decision"], d["gate"])' "$T/c.json")
harness transition DONE >/dev/null 2>&1; done_code=$?
echo "harness converge: decision $decision, gate $gate, exit $code; harness transition DONE exits $done_code"
[ "$gate" = BLOCKED ] && [ "$done_code" = 1 ] || { echo "setup: expected a blocked gate and a refused DONE"; exit 2; }
if [ "$code" = 0 ] || [ "$decision" = CONVERGED ]; then
  echo "DEFECT: converge asserts CONVERGED (exit 0, 'the gate passes' per --help) while the gate it judged is BLOCKED"
  exit 1
fi
echo "OK: converge does not call a blocked gate CONVERGED"
exit 0
