#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
D=$(cd "$(dirname "$0")" && pwd)  # this folder: common.inc, its helpers
# Codex's apply_patch run through its shell tool: `apply_patch <<'EOF' ... EOF`.
# Codex intercepts such a shell/exec_command call (codex-rs/core/src/tools/handlers/apply_patch.rs,
# intercept_apply_patch -> maybe_parse_apply_patch_verified) and applies the patch itself (warning the
# model to use the apply_patch tool next time); Codex also puts an `apply_patch` executable on the PATH of
# the commands it runs. The hook sees a shell call (tool_name Bash/shell, tool_input.command = that text).
# The same patch sent as the apply_patch tool is denied (hosts.tool_action reads its headers); sent as a
# shell line it is allowed: the shell judge takes `apply_patch` for an unknown reader and the heredoc for data.
# Exit 1 while the shell form of a ledger patch is allowed and the tool form denied; 0 when both are denied.
source "$D"/common.inc
ask() { # HOST TOOL KEY TEXT -> deny|allow
  local out rc
  out=$(python - "$R" "$@" <<'PY' | harness hook agent "$1" pre-tool-use 2>/dev/null
import json, sys
cwd, host, tool, key, text = sys.argv[1:6]
print(json.dumps({"session_id": "s", "turn_id": "t", "cwd": cwd, "hook_event_name": "PreToolUse",
                  "tool_name": tool, "tool_input": {key: text}}))
PY
); rc=$?
  { [ $rc = 2 ] || grep -q '"deny"' <<<"$out"; } && echo deny || echo allow
}
patch=$'*** Begin Patch\n*** Update File: '"$L"$'\n@@\n+{"forged": true}\n*** End Patch'
del=$'*** Begin Patch\n*** Delete File: '"$L"$'\n*** End Patch'
fail=0
for h in codex auto; do
  [ "$(ask $h apply_patch command "$patch")" = deny ] || { echo "setup: apply_patch tool form not denied ($h)" >&2; exit 2; }
  for tool in Bash shell; do
    a=$(ask $h $tool command "apply_patch <<'EOF'"$'\n'"$patch"$'\nEOF')
    b=$(ask $h $tool command "apply_patch <<'EOF'"$'\n'"$del"$'\nEOF')
    c=$(ask $h $tool command "apply_patch '$patch'")
    echo "$h/$tool: tool form=deny  heredoc update=$a  heredoc delete=$b  argument form=$c"
    { [ "$a" = allow ] || [ "$b" = allow ] || [ "$c" = allow ]; } && fail=1
  done
done
exit $fail
