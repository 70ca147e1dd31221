#!/usr/bin/env bash
# Defect: a change of an evidence command in config.yaml that no human approved raises, beside the gate's
#   config_unapproved blocker, one `introduced_command` blocker per must requirement citing that type
#   ("REQ-001 cites unit_test, whose command is not the one config.yaml configured at the task's base … until a human
#   approves the configuration"). harness/core/next_step.py clearing() has no case for `introduced_command`, so
#   _gating() counts it as work that needs a code change and recommends `harness converge --apply` ("loop back
#   (iteration + 1) or escalate") — the in-place remedy the blocker itself names (`harness approve config-change`, or
#   `git checkout HEAD -- .harness/config.yaml`) is not among the Next: steps at all. Following Next: spends an
#   iteration (GATING → BLOCKED → IMPLEMENTING) and changes nothing: the blockers are all still there.
# Correct: an introduced command is cleared in place like config_unapproved (approval or revert, no iteration
#   spent); Next: in GATING names that first and does not send the task round the loop for it.
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
  && harness transition REVIEWING && harness transition GATING ) >/dev/null 2>&1 || exit 2
harness gate >/dev/null 2>&1 || { echo "setup: the gate does not pass before the change"; exit 2; }
sed -i 's/"pass"]/"pass;"]/' .harness/config.yaml      # the agent edits the test command; no human approves it
harness status --json > "$T/s.json" 2>/dev/null
python3 - "$T/s.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print("blockers:"); [print("  -", b[:110]) for b in d["gate_now"]["blockers"]]
print("Next:"); [print("  ", n["command"], "—", n["why"][:80]) for n in d["next"]]
PY
first=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["next"][0]["command"])' "$T/s.json")
all=$(python3 -c 'import json,sys; print(" | ".join(n["command"] for n in json.load(open(sys.argv[1]))["next"]))' "$T/s.json")
# follow it: an iteration is spent, and the same blockers come back
if [ "$first" = "harness converge --apply" ]; then
  harness converge --apply >/dev/null 2>&1
  echo "after \`harness converge --apply\`: $(harness status --json 2>/dev/null | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["state"], "iteration", d["iteration"], "-", len(d["gate_now"]["blockers"]), "blocker(s) still")')"
fi
case "$all" in
  *"approve config-change"*|*"checkout HEAD -- .harness/config.yaml"*)
    [ "$first" != "harness converge --apply" ] && { echo "OK: Next: clears the config change in place first"; exit 0; } ;;
esac
echo "DEFECT: Next: ($all) sends the task round the loop for an unapproved config.yaml change, and names neither"
echo "        \`harness approve config-change\` nor the revert of config.yaml first"
exit 1
