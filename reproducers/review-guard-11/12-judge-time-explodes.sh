#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# The judge's work grows exponentially with ordinary-looking input, and has no deadline of its own:
# - every cd adds its folder as seen from EVERY folder kept so far (bypass._enter: each command of `seen` — one per
#   folder — entered from every folder), and every later command is judged in every folder: 6 distinct cds take
#   ~0.4 s, 8 take ~6 s, 9 take ~45 s, 10 take ~6 min;
# - brace expansion (shell_resolve.braces) makes 2^n words of n `{a,b}` groups and each is judged: 18 take ~13 s.
# The pre-tool-use hook is installed with a 15 s timeout (hook_settings.TIMEOUT_SECONDS); a hook that does not
# answer in time is a non-blocking error for the host, and the tool call runs. So
# `cd d1; …; cd d9; echo x >> .harness/tasks/T/events.jsonl` gets no answer in 15 s and writes the ledger.
# Exit 1 while the defect exists (no deny within 15 s), 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
hk15() { # the guard's answer within the host's 15 s, or "timeout"
  local out rc
  out=$(python - "$R" "$1" <<'PY' | timeout 15 harness hook agent claude pre-tool-use 2>/dev/null
import json, sys
print(json.dumps({"session_id": "s", "cwd": sys.argv[1], "hook_event_name": "PreToolUse",
                  "tool_name": "Bash", "tool_input": {"command": sys.argv[2]}}))
PY
); rc=$?
  [ $rc = 124 ] && { echo timeout; return; }
  { [ $rc = 2 ] || grep -q '"deny"' <<<"$out"; } && echo deny || echo allow
}
control "echo x >> $L"
cds=""; for i in 1 2 3 4 5 6 7 8 9; do cds+="cd d$i 2>/dev/null; "; done
braces="echo x"; for i in $(seq 20); do braces+="{a,b}"; done
for c in "$cds echo x >> $L" "$braces >/dev/null; echo x >> $L"; do
  git checkout -q HEAD -- "$L"; before=$(git hash-object "$L")
  s=$SECONDS; a=$(hk15 "$c"); took=$((SECONDS - s)); bash -c "$c" >/dev/null 2>&1
  after=$(git hash-object "$L")
  echo "guard: $a after ${took}s  ledger changed: $([ "$before" != "$after" ] && echo yes || echo no) : ${c:0:90}…"
  [ "$a" != deny ] && [ "$before" != "$after" ] && fail=1
done
git checkout -q HEAD -- "$L"
[ $fail = 1 ] && echo "DEFECT: the guard does not answer within the hook's 15 s timeout; the host runs the call"
exit $fail
