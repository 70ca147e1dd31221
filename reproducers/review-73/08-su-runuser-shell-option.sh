#!/usr/bin/env bash
# Defect: `su USER -s PROGRAM -- ARGS…` and `runuser USER -s PROGRAM -- ARGS…` run PROGRAM with ARGS (su hands the
#   words after the user to the "shell" it names), yet the agent's pre-tool guard allows
#   `su root -s /usr/bin/git -- commit -n …` and `su root -s /bin/rm -- -rf .harness`. Today's F-0235 judges
#   runuser only with -u (shell_prefixes.py `strip_prefix`, `_leading_option(... "u", "--user")`) and su/runuser
#   otherwise only through a `-c`/`--command`/`--session-command` line (shell_commands.COMMAND_OPTION); `-s/--shell`
#   with arguments is read as neither. su from root needs no password (agents in containers often run as root).
# Correct: `-s PROGRAM USER ARGS` is judged as `PROGRAM ARGS` (or, where PROGRAM is unknown, left unresolved and
#   denied): denied (rule no-verify / delete-harness).
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
denied "su root -c 'git commit -n -qam x'" || { echo "setup: control (su -c) not denied"; exit 2; }
denied "su root -s /bin/bash" && { echo "setup: a plain su is denied"; exit 2; }
allowed=0
for CMD in "runuser root -s /usr/bin/git -- commit -n -qam x" "su root -s /bin/rm -- -rf .harness"; do
  if denied "$CMD"; then echo "denied: $CMD"; else echo "guard ALLOWS: $CMD"; allowed=1; fi
done
if [ "$(id -u)" != 0 ]; then
  denied "su root -s /usr/bin/git -- commit -n -qam x" && [ $allowed = 0 ] && exit 0
  echo "DEFECT: allowed (not root here: the end-to-end run is skipped)"; exit 1
fi
( try "su root -s /usr/bin/git -- commit -n -qam loosen </dev/null" ); rc=$?
[ $rc = 0 ] && [ $allowed = 1 ] && { echo "DEFECT: su -s git denied but the others allowed"; exit 1; }
exit $rc
