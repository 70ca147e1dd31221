#!/usr/bin/env bash
# Defect: in CONVERGED, harness/core/next_step.py _converged() offers only evidence_to_collect() and
#   `harness gate` ("the PASS no longer holds for this code: re-collect evidence and re-judge before DONE"); it never
#   offers the in-place steps that clear a blocker (x.in_place(), which _gating uses). With a change of config.yaml's
#   evidence command that no human approved (the gate's config_unapproved blocker), the only ways out are
#   `harness approve config-change` or `git checkout HEAD -- .harness/config.yaml`, and CONVERGED has no legal
#   move but DONE. Following Next: (re-collect, `harness gate`) ends at a gate whose own Next: is `harness gate`
#   again, and `harness transition DONE` is refused with "next: harness gate": a loop.
# Correct: in CONVERGED, Next: names the step that clears the blocker in place (the approval or the revert of
#   config.yaml), as it does in GATING for the same blocker; it never names `harness gate` as the way past a
#   blocker that re-judging cannot clear.
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
    command: ["python3", "-c", "pass"]
YAML
( git init -q -b main && harness init && harness install && harness task new t && echo a > a.txt && git add -A \
  && git commit -qm init ) >/dev/null 2>&1 || exit 2
( harness requirement add r1 --priority must \
  && for s in SPECIFYING PLANNED IMPLEMENTING VERIFYING; do harness transition $s || exit 1; done \
  && harness evidence build && harness evidence unit_test \
  && harness requirement set REQ-001 --status verified --evidence unit_test \
  && harness transition REVIEWING && harness transition GATING && harness gate \
  && harness converge --apply ) >/dev/null 2>&1 || exit 2
# the agent changes the unit_test command in config.yaml (no human approves it)
sed -i 's/"pass"]/"pass;"]/' .harness/config.yaml
git diff --quiet -- .harness/config.yaml && exit 2
# follow Next: as an agent would, a few rounds
for round in 1 2 3 4; do
  cmd=$(harness status --json 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["next"][0]["command"])')
  echo "round $round: Next: $cmd"
  case "$cmd" in
    *"approve config-change"*|*"checkout HEAD -- .harness/config.yaml"*|*"restore"*config.yaml*)
      echo "OK: Next: names the approval or the revert of config.yaml"; exit 0 ;;
    "harness evidence "*|"harness gate") $cmd >/dev/null 2>&1 ;;
    *) echo "unexpected step"; exit 2 ;;
  esac
done
all=$(harness status --json 2>/dev/null | python3 -c 'import json,sys; print(" | ".join(n["command"] for n in json.load(sys.stdin)["next"]))')
state=$(harness status --json 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["state"])')
harness transition DONE >/dev/null 2>&1 && { echo "setup: DONE was allowed"; exit 2; }
case "$all" in *"approve config-change"*|*"checkout HEAD -- .harness/config.yaml"*) echo "OK"; exit 0 ;; esac
echo "DEFECT: still $state after 4 rounds of Next: ($all); the gate stays BLOCKED by the unapproved config.yaml change"
echo "        and no Next: names \`harness approve config-change\` or \`git checkout HEAD -- .harness/config.yaml\`"
exit 1
