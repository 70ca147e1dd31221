#!/usr/bin/env bash
# Defect: harness/agent/judge/powershell_words.py unread() refuses any PowerShell line that holds a cmdlet (any
#   approved verb, including read-only Get-/Select-/Out-String/Write-Host) and merely mentions "git"/"harness".
#   So honest read-only lines through Claude Code's PowerShell tool are refused: `git log --oneline | Select-Object
#   -First 5`, `git status; Get-Date`, `Get-Content .harness/config.yaml` (reading the config the docs tell agents to read).
# Correct: cmdlets that only read (Get-*, Select-*, Where-*, Format-*, Out-String, Write-Host/Output without a file)
#   do not make a line "unread"; only those that write, delete, move, run or set env should.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q -b main && harness init && harness install && harness task new t && echo a > a.txt && git add -A \
  && git commit -qm init ) >/dev/null 2>&1 || exit 2
ask() {
  python3 -c 'import json,sys; h,t,c,cmd=sys.argv[1:]; print(json.dumps({"session_id":"s1","transcript_path":"/tmp/t.jsonl","cwd":c,"permission_mode":"default","hook_event_name":"PreToolUse","tool_name":t,"tool_input":{"command":cmd,"description":"run"},"tool_use_id":"toolu_1"}))' "$@" \
  | harness hook agent "$1" pre-tool-use \
  | python3 -c 'import sys,json; s=sys.stdin.read(); print("deny" if s and json.loads(s).get("hookSpecificOutput",{}).get("permissionDecision")=="deny" else "allow")'
}
# Control: a writing cmdlet on the record stays refused.
[ "$(ask claude PowerShell "$R" 'Set-Content -Path .harness/tasks/t/events.jsonl -Value x')" = deny ] || { echo "setup: control"; exit 2; }
bad=0
while IFS= read -r c; do
  a=$(ask claude PowerShell "$R" "$c"); echo "$a | PowerShell: $c"; [ "$a" = allow ] || bad=1
done <<'L'
git log --oneline | Select-Object -First 5
git status; Get-Date
Get-Content .harness/config.yaml
L
[ $bad = 0 ] && { echo "OK: honest lines allowed"; exit 0; }
echo "DEFECT: honest read-only PowerShell lines refused because they name git/.harness next to a read-only cmdlet"; exit 1
