#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
D=$(cd "$(dirname "$0")" && pwd)  # this folder: common.inc, its helpers
# Codex's shell-tool interception (codex-rs/apply-patch/src/invocation.rs, extract_apply_patch_from_bash)
# accepts two whole-script forms: `apply_patch <<'EOF' … EOF` AND `cd <path> && apply_patch <<'EOF' … EOF`;
# in the second, <path> qualifies the cwd the patch's headers are resolved against. The fix joins the
# headers to the tool's workdir only, so `cd .harness && apply_patch` with `*** Update File: tasks/ID/events.jsonl`
# is judged as a write to ./tasks/ID/events.jsonl (outside .harness/) and allowed; the shell judge sees only
# `cd .harness` and an unknown command. Control: the same patch with the header spelled from the top is denied.
# Checked for Codex's argv form (tool `shell`, ["bash","-lc",SCRIPT]) and Claude/Codex's `Bash` string form.
# Exit 1 while such a call is allowed, 0 when denied, 2 on setup failure.
source "$D"/common.inc
dec() { # HOST TOOL COMMAND-JSON -> deny|allow
  local out rc
  out=$(python - "$R" "$2" "$3" <<'PY' | harness hook agent "$1" pre-tool-use 2>/dev/null
import json, sys
print(json.dumps({"session_id": "s", "cwd": sys.argv[1], "hook_event_name": "PreToolUse", "turn_id": "t",
                  "tool_name": sys.argv[2], "tool_input": {"command": json.loads(sys.argv[3])}}))
PY
); rc=$?
  { [ $rc = 2 ] || grep -q '"deny"' <<<"$out"; } && echo deny || echo allow
}
patch() { printf "*** Begin Patch\n*** Update File: %s\n@@\n-x\n+y\n*** End Patch\n" "$1"; }
js() { python -c 'import json,sys; print(json.dumps(sys.argv[1]))' "$1"; }
argv() { python -c 'import json,sys; print(json.dumps(["bash","-lc",sys.argv[1]]))' "$1"; }
top="apply_patch <<'EOF'
$(patch "$L")
EOF"
via_cd="cd .harness && apply_patch <<'EOF'
$(patch "tasks/$TID/events.jsonl")
EOF"
[ "$(dec codex shell "$(argv "$top")")" = deny ] && [ "$(dec codex Bash "$(js "$top")")" = deny ] \
  || { echo "setup: control (header from the top) not denied" >&2; exit 2; }
a1=$(dec codex shell "$(argv "$via_cd")"); a2=$(dec codex Bash "$(js "$via_cd")"); a3=$(hk "$via_cd")
echo "codex shell argv: $a1   codex Bash: $a2   claude Bash: $a3   : cd .harness && apply_patch (Update File: tasks/$TID/events.jsonl)"
[ "$a1" = deny ] && [ "$a2" = deny ] && [ "$a3" = deny ] && exit 0
exit 1
