#!/usr/bin/env bash
# Defect: harness/agent/run.py _unplaced/_harness_below (F-0375): a Codex session started outside any harness
#   refuses a bypass line only when a harness repository lies below the session folder, found by a walk that does not
#   follow symlinks and skips NOT_SEARCHED names (`target`, `.cache`, `venv`, ...). A harness repository reached
#   through a symlink (~/code -> /data/code) or lying under a folder named `target` is not found, so
#   `git commit --no-verify` (which Codex may run with workdir = that repository) is allowed.
# Correct: refused as it is when the repository lies in a plain subfolder (follow links to folders / do not skip a
#   folder holding a harness repository, or refuse when any folder was skipped).
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/data/repo"; mkdir -p "$R"; cd "$R" || exit 2
( git init -q -b main && harness init && harness install && harness task new t && echo a > a.txt && git add -A \
  && git commit -qm init ) >/dev/null 2>&1 || exit 2
ask() { # host tool cwd command -> allow|deny (real `harness hook agent codex pre-tool-use`)
  python3 -c 'import json,sys; h,t,c,cmd=sys.argv[1:]; print(json.dumps({"session_id":"0199a7c2-0000-7000-8000-000000000001","turn_id":"1","transcript_path":None,"cwd":c,"hook_event_name":"PreToolUse","model":"gpt-5-codex","permission_mode":"default","tool_name":"Bash","tool_input":{"command":cmd},"tool_use_id":"call_1"}))' "$@" \
  | harness hook agent "$1" pre-tool-use \
  | python3 -c 'import sys,json; s=sys.stdin.read(); print("deny" if s and json.loads(s).get("hookSpecificOutput",{}).get("permissionDecision")=="deny" else "allow")'
}
BYPASS='git commit --no-verify -m x'
# Control: a harness repository in a plain subfolder of the session folder -> refused; a plain commit allowed.
C="$T/ctl"; mkdir -p "$C/code"; cp -a "$R" "$C/code/repo" || exit 2
[ "$(ask codex Bash "$C" "$BYPASS")" = deny ] || { echo "setup: control not refused"; exit 2; }
[ "$(ask codex Bash "$C" 'git commit -m x')" = allow ] || { echo "setup: honest commit refused"; exit 2; }
bad=0
S1="$HOME"; ln -s "$T/data" "$HOME/code"          # ~/code -> /data (repo at ~/code/repo)
a=$(ask codex Bash "$S1" "$BYPASS"); echo "$a | session ~ , repo at ~/code/repo through a symlink"; [ $a = deny ] || bad=1
S2="$T/ws"; mkdir -p "$S2/target"; cp -a "$R" "$S2/target/repo" || exit 2
a=$(ask codex Bash "$S2" "$BYPASS"); echo "$a | session ws/, repo at ws/target/repo"; [ $a = deny ] || bad=1
[ $bad = 0 ] && { echo "OK: refused"; exit 0; }
echo "DEFECT: Codex bypass line allowed when the harness repository below is behind a symlink or in a skipped folder"; exit 1
