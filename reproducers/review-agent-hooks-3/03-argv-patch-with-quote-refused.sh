#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
D=$(cd "$(dirname "$0")" && pwd)  # this folder: common.inc, its helpers
# An honest call refused. Codex's exec tool may pass argv ["apply_patch", PATCH]; Codex applies that form
# itself (codex-rs apply-patch invocation.rs: `[cmd, body] if APPLY_PATCH_COMMANDS.contains(cmd)`), with PATCH
# literal. _shell_action shlex.joins the argv first. A patch with a `'` (any Python or shell source:
# `print('hi')`) then becomes `apply_patch '...'"'"'...'`, which _CANONICAL does not match. The call is
# refused as "a patch the guard cannot read", yet the guard holds it verbatim and it writes only a.py.
# Without the quote it is allowed. Exit 1 while the honest call is denied.
source "$D"/common.inc
hkv() { # TOOL_INPUT_JSON -> deny|allow, through the codex host's shell tool
  local out
  out=$(python - "$R" "$1" <<'PY' | harness hook agent codex pre-tool-use 2>/dev/null
import json, sys
print(json.dumps({"session_id": "s", "turn_id": "t", "cwd": sys.argv[1], "hook_event_name": "PreToolUse",
                  "tool_name": "shell", "tool_input": json.loads(sys.argv[2])}))
PY
) || { echo deny; return; }
  grep -q '"deny"' <<<"$out" && echo deny || echo allow
}
mk() { python -c 'import json,sys; print(json.dumps({"command": sys.argv[1:]}))' "$@"; }
plain=$'*** Begin Patch\n*** Add File: a.py\n+print("hi")\n*** End Patch'
quoted=$'*** Begin Patch\n*** Add File: a.py\n+print(\'hi\')\n*** End Patch'
forged=$'*** Begin Patch\n*** Add File: '"$L"$'\n+x\n*** End Patch'
[ "$(hkv "$(mk apply_patch "$forged")")" = deny ] || { echo "setup: forged argv patch not denied" >&2; exit 2; }
[ "$(hkv "$(mk apply_patch "$plain")")" = allow ] || { echo "setup: plain argv patch not allowed" >&2; exit 2; }
a=$(hkv "$(mk apply_patch "$quoted")"); echo "guard: $a : [\"apply_patch\", <patch adding a.py with print('hi')>]"
[ "$a" = allow ]
exit $?
