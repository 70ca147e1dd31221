#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# shell_resolve.braces recurses once per brace group: a word of ~1000 nested groups (`{{{…a,b}…,b},b}`: bash
# expands it to ~1000 words in no time) raises RecursionError in the judge. The hook's failure policy then
# ALLOWS the call unless its text mentions git/harness/events.jsonl/… (run._pre_tool_use / mentions_guarded),
# and a ledger write need not: `cd .harn?ss && echo x >> tasks/*/events.json?` (denied on its own) is allowed
# with the crashing word in front, and writes the ledger.
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
w=$(python -c 'n=1000; print("{"*n + "a" + ",b}"*n)')
control "cd .harn?ss && echo x >> tasks/*/events.json?"
ledger_case ": $w; cd .harn?ss && echo x >> tasks/*/events.json?"
python - "$R" ": $w; cd .harn?ss && echo x >> tasks/*/events.json?" <<'PY' | harness hook agent claude pre-tool-use 2>/dev/null | grep -o 'the guard failed ([A-Za-z]*' | sed 's/^/hook says: /'
import json, sys
print(json.dumps({"session_id": "s", "cwd": sys.argv[1], "hook_event_name": "PreToolUse",
                  "tool_name": "Bash", "tool_input": {"command": sys.argv[2]}}))
PY
[ $fail = 1 ] && echo "DEFECT: deep brace nesting crashes the judge (RecursionError) and the failure policy allows the call"
exit $fail
