#!/usr/bin/env bash
# Defect: commands run through setpriv, unshare, sg, chroot, pkexec or systemd-run are not judged as what they run:
#   `setpriv git commit -n …` is allowed (and `unshare -r git commit -n`, `sg GROUP -c 'git commit -n'`,
#   `chroot / git commit -n`). harness/agent/judge/shell_prefixes.py PREFIXES lists sudo, doas, runuser (F-0235),
#   nice, … but none of these, and shell_commands.COMMAND_OPTION has no `sg -c`/`sg GROUP LINE`; `setpriv` with no
#   option needs no privilege at all.
# Correct: each is judged as the command (or, for sg, the command line) it runs: denied (rule no-verify).
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
denied "runuser -u root git commit -n -qam x" || { echo "setup: control (runuser) not denied"; exit 2; }
denied "setpriv git status" && { echo "setup: an ordinary setpriv line is denied"; exit 2; }
allowed=0
for CMD in "unshare -r git commit -n -qam x" "sg root -c 'git commit -n -qam x'" "sg root 'git commit -n -qam x'" \
           "chroot / git commit -n -qam x" "pkexec git commit -n -qam x" "systemd-run --user --wait git commit -n -qam x"; do
  if denied "$CMD"; then echo "denied: $CMD"; else echo "guard ALLOWS: $CMD"; allowed=1; fi
done
command -v setpriv >/dev/null || { [ $allowed = 1 ] && exit 1; exit 2; }
( try "setpriv git commit -n -qam loosen" ); rc=$?
[ $rc = 0 ] && [ $allowed = 1 ] && { echo "DEFECT: setpriv denied but others allowed"; exit 1; }
exit $rc
