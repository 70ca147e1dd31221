#!/usr/bin/env bash
# Defect: on a line bashlex cannot read (any `[[ … ]]`, `case`), a process substitution `<(…)` / `>(…)` is not
#   read as commands: `[[ -f a.txt ]] && cat <(git commit -n …)` is allowed. harness/agent/judge/shell_commands.py
#   `_fallback_commands` / `_set_aside` set aside `$(…)`, backticks and `$'…'` (F-0234) but not `<(`/`>(`: shlex lexes
#   `<` as a redirect whose target is `(`, and `git commit -n …` become words of `cat`.
# Correct: denied (rule no-verify), as `cat <(git commit -n -m x)` without the `[[ ]]` already is.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q -b main && harness init && harness install && harness task new t && echo a > a.txt && git add -A \
  && git commit -qm init ) >/dev/null 2>&1 || exit 2
guard() { python3 -c 'import json,sys,os; print(json.dumps({"session_id":"s","transcript_path":"/tmp/t","cwd":os.getcwd(),"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":sys.argv[1]}}))' "$1" | harness hook agent claude pre-tool-use; }
denied() { guard "$1" | grep -q '"permissionDecision": "deny"'; }
# a loosened gate is refused by the harness's commit hook (the control)
sed -i 's/unit_test: required/unit_test: optional/' .harness/gate.yaml
git commit -qam loosen >/dev/null 2>&1 && { echo "setup: hook did not refuse the loosened gate"; exit 2; }
# try CMD: denied -> exit 0; allowed -> run it in bash and show the loosened gate committed past the hook
try() {
  local CMD=$1
  if denied "$CMD"; then echo "OK: guard denies: $CMD"; exit 0; fi
  printf 'guard ALLOWS:\n%s\n---\n' "$CMD"
  bash -c "$CMD" >/dev/null 2>&1
  if [ "$(git log -1 --format=%s)" != init ] && git show HEAD --stat | grep -q gate.yaml; then
    echo "DEFECT: gate.yaml loosened (unit_test optional) was committed past the harness hook:"
    git show --stat --oneline HEAD | sed 's/^/  /'; exit 1
  fi
  echo "allowed, but the commit did not land"; exit 1
}
denied "cat <(git commit -n -qam x)" || { echo "setup: control (bashlex path) not denied"; exit 2; }
denied "[[ -f a.txt ]] && cat \$(git commit -n -qam x)" || { echo "setup: control \$(…) not denied"; exit 2; }
try "[[ -f a.txt ]] && cat <(git commit -n -qam loosen)"
