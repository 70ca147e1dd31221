#!/usr/bin/env bash
# Defect: Claude Code's PowerShell tool line is judged as bash reads it, plus harness/agent/judge/powershell_words.py's
#   refusal of lines holding a cmdlet / listed alias / $env: / `]::` and naming git/harness. PowerShell lines that
#   commit with --no-verify or delete .harness/ contents using none of those words are allowed:
#   `cmd /c "git commit --no-verify …"` (cmd is not read), splatting `$x='commit','--no-verify'; git @x`,
#   dot-invocation `. git commit --no-verify`, an expression argument `git commit ('--no-'+'verify')`,
#   a pipeline `gci .harness | rm -r -fo`, and `rm -r -fo ('.har'+'ness')` (no guarded word at all).
# Correct: each is refused like `Remove-Item -Recurse .harness` / Bash's `git commit --no-verify` (fail closed on a
#   PowerShell line the bash reading cannot vouch for).
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q -b main && harness init && harness install && harness task new t && echo a > a.txt && git add -A \
  && git commit -qm init ) >/dev/null 2>&1 || exit 2
ask() { # host tool cwd command -> allow|deny (real `harness hook agent HOST pre-tool-use`)
  python3 -c 'import json,sys; h,t,c,cmd=sys.argv[1:]; print(json.dumps({"session_id":"s1","transcript_path":"/tmp/t.jsonl","cwd":c,"permission_mode":"default","hook_event_name":"PreToolUse","tool_name":t,"tool_input":{"command":cmd,"description":"run"},"tool_use_id":"toolu_1"}))' "$@" \
  | harness hook agent "$1" pre-tool-use \
  | python3 -c 'import sys,json; s=sys.stdin.read(); print("deny" if s and json.loads(s).get("hookSpecificOutput",{}).get("permissionDecision")=="deny" else "allow")'
}
# Controls: the new rule works for its own words; an honest line stays allowed.
[ "$(ask claude PowerShell "$R" 'Remove-Item -Recurse -Force .harness')" = deny ] || { echo "setup: control deny failed"; exit 2; }
[ "$(ask claude PowerShell "$R" 'git commit --no-verify -m x')" = deny ] || { echo "setup: control deny failed"; exit 2; }
[ "$(ask claude PowerShell "$R" 'git commit -m x')" = allow ] || { echo "setup: honest commit refused"; exit 2; }
bad=0
while IFS= read -r c; do
  a=$(ask claude PowerShell "$R" "$c"); echo "$a | PowerShell: $c"; [ "$a" = deny ] || bad=1
done <<'L'
cmd /c "git commit --no-verify -m x"
$x='commit','--no-verify','-m','x'; git @x
. git commit --no-verify -m x
git commit ('--no-'+'verify') -m x
gci .harness | rm -r -fo
rm -r -fo ('.har'+'ness')
L
[ $bad = 0 ] && { echo "OK: all refused"; exit 0; }
echo "DEFECT: PowerShell lines that skip the hooks / delete .harness are allowed by the guard"; exit 1
