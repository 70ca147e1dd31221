#!/usr/bin/env bash
# Defect: in GATING, a FIXED (not yet verified) finding blocks the gate ("Major finding F-0001 is open", "Finding
#   F-0001 regression test not verified yet"). `harness finding verify F-0001` is allowed in GATING and clears both in
#   place (the gate then PASSes), but harness/core/next_step.py clearing() has no case for these blockers
#   (finding_open of a FIXED finding, the regression not verified), so _gating() calls them work and recommends
#   `harness converge --apply` — "loop back (iteration + 1)" — which spends an iteration and four transitions, against
#   _gating's own rule "what can be cleared without leaving GATING costs no iteration: do that first".
# Correct: Next: in GATING names `harness finding verify F-0001` (after any evidence it needs) before, and instead
#   of, `harness converge --apply` when that is all that blocks.
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
cat > "$T/f.yaml" <<'YAML'
findings:
  - severity: major
    category: correctness
    title: a.txt lacks ok
    claim: a.txt must contain ok
    location: {file: a.txt}
    failure_scenario: ["read a.txt"]
    expected_behavior: contains ok
    recommended_reproducer:
      type: unit_test
      description: grep
      command: ["grep", "-q", "ok", "a.txt"]
YAML
( harness requirement add r1 --priority must \
  && for s in SPECIFYING PLANNED IMPLEMENTING VERIFYING; do harness transition $s || exit 1; done \
  && harness evidence build && harness evidence unit_test \
  && harness requirement set REQ-001 --status verified --evidence unit_test \
  && harness transition REVIEWING \
  && harness finding propose --file "$T/f.yaml" && harness finding reproduce F-0001 \
  && echo 'grep -q ok a.txt' > t.sh && harness finding regression F-0001 t.sh -- sh t.sh \
  && echo ok > a.txt && harness finding fixed F-0001 \
  && harness evidence build && harness evidence unit_test \
  && harness transition GATING ) >/dev/null 2>&1 || exit 2
steps=$(harness status --json 2>/dev/null | python3 -c 'import json,sys; print(" | ".join(n["command"] for n in json.load(sys.stdin)["next"]))')
echo "GATING, F-0001 FIXED: Next: $steps"
# control: verify in place clears the gate without leaving GATING
harness finding verify F-0001 >/dev/null 2>&1 || { echo "setup: finding verify refused in GATING"; exit 2; }
after=$(harness status --json 2>/dev/null | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["state"], d["gate_now"]["verdict"])')
echo "after \`harness finding verify F-0001\` (in place): $after"
[ "$after" = "GATING PASS" ] || exit 2
case "$steps" in
  "harness finding verify F-0001"*|"harness evidence "*"harness finding verify F-0001"*)
    echo "OK: Next: verifies in place first"; exit 0 ;;
esac
echo "DEFECT: Next: recommends spending an iteration (\`harness converge --apply\`) for what \`harness finding verify\` clears in place"
exit 1
