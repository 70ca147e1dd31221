#!/usr/bin/env bash
# Defect: a finding is bound to the code it was proposed against; a `harness finding reproduce F-0001` run on other
#   code is recorded as "only an attempt: it neither confirms nor refutes F-0001" (the refusal text then spells out a
#   `git clean … && git restore --source=TREE …` dance). But the Next: printed with it, and `harness status`'s Next:,
#   are `harness finding reproduce F-0001` again (harness/core/next_step.py finding_steps()/_finding_steps() know
#   nothing of the binding): following Next: runs the same undecidable attempt forever, the finding stays
#   REPRODUCING and the gate stays blocked.
# Correct: after an attempt that cannot decide, Next: names a step that can (reproduce on the proposed code: put the
#   change aside, reproduce, bring it back — the commands the message already computes), not the same command again.
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
  && harness transition REVIEWING && harness finding propose --file "$T/f.yaml" ) >/dev/null 2>&1 || exit 2
echo "unrelated edit" > b.txt   # the implementer touches the code before reproducing
for round in 1 2 3; do
  cmd=$(harness status --json 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["next"][0]["command"])')
  [ "$cmd" = "harness finding reproduce F-0001" ] || { echo "round $round: Next: $cmd"; echo "OK: Next: moved on"; exit 0; }
  out=$($cmd 2>&1)
  echo "round $round: Next: $cmd -> $(echo "$out" | head -2 | cut -c1-110 | tr '\n' ' ')"
done
after=$(echo "$out" | sed -n 's/^Next: *//p' | head -1 | sed 's/  —.*//')
status=$(harness finding list --json 2>/dev/null | python3 -c 'import json,sys; d=json.load(sys.stdin); fs=d["findings"] if isinstance(d,dict) else d; print(fs[0]["status"])')
echo "after 3 rounds: F-0001 is $status; the reproduce output's Next: is \`$after\`"
echo "DEFECT: Next: keeps naming \`harness finding reproduce F-0001\`, whose every run is recorded as an attempt that decides nothing"
exit 1
