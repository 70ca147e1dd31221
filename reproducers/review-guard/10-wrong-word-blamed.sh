#!/usr/bin/env bash
# A denial of 'git commit -m "$MSG" "$f"' names $MSG (the message, which is allowed) instead of the pathspec $f.
set -u
source "$(cd "$(dirname "$0")" && pwd)/lib.sh"
json=$(python3 -c 'import json,sys; print(json.dumps({"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":sys.argv[1]},"cwd":sys.argv[2],"session_id":"s"}))' 'git commit -m "$MSG" "$f"' "$REPO")
out=$(printf '%s' "$json" | "$H" hook agent claude pre-tool-use 2>/dev/null)
echo "$out"
echo "control: $(verdict 'git commit -m "$MSG"') for git commit -m \"\$MSG\""
if printf '%s' "$out" | grep -q 'cannot work out `\$MSG`'; then echo 'DEFECT: the reason blames $MSG, which the guard allows on its own'; exit 1; fi
exit 0
