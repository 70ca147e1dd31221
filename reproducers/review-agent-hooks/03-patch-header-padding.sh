#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
D=$(cd "$(dirname "$0")" && pwd)  # this folder: common.inc, its helpers
# Codex apply_patch: a hunk header with leading whitespace (" *** Update File: PATH") hides the path.
# Codex's own parser (codex-rs/apply-patch/src/parser.rs, parse_one_hunk) trims each hunk header line
# ("Be tolerant of ... extra padding around marker strings") and applies the hunk; the harness's
# hosts._patch_paths matches headers with line.startswith(header) on the raw line, so the padded header
# names no path, the tool action has no writes, and the guard answers allow (silent, exit 0).
# Exit 1 while the padded patch of the ledger is allowed and the unpadded one denied; 0 when both are denied.
source "$D"/common.inc
ask() { # HOST PATCH-TEXT -> deny|allow
  local out rc
  out=$(python - "$R" "$2" <<'PY' | harness hook agent "$1" pre-tool-use 2>/dev/null
import json, sys
print(json.dumps({"session_id": "s", "turn_id": "t", "cwd": sys.argv[1], "hook_event_name": "PreToolUse",
                  "tool_name": "apply_patch", "tool_input": {"command": sys.argv[2]}}))
PY
); rc=$?
  { [ $rc = 2 ] || grep -q '"deny"' <<<"$out"; } && echo deny || echo allow
}
plain=$'*** Begin Patch\n*** Update File: '"$L"$'\n@@\n+{"forged": true}\n*** End Patch'
padded=$'*** Begin Patch\n *** Update File: '"$L"$'\n@@\n+{"forged": true}\n*** End Patch'
tabbed=$'*** Begin Patch\n\t*** Delete File: '"$L"$'\n*** End Patch'
fail=0
for h in codex auto claude gemini; do
  a=$(ask $h "$plain"); [ "$a" = deny ] || { echo "setup: plain patch not denied for $h" >&2; exit 2; }
  b=$(ask $h "$padded"); c=$(ask $h "$tabbed")
  echo "$h: plain=$a padded-update=$b tab-padded-delete=$c"
  [ "$b" = allow ] || [ "$c" = allow ] && fail=1
done
exit $fail
