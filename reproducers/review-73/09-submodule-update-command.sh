#!/usr/bin/env bash
# Defect: `submodule.NAME.update = !COMMAND` (a command `git submodule update` runs through the shell) is missing
#   from harness/agent/judge/git_runs.py COMMAND_SETTINGS (restructured today for F-0232), so neither
#   `git config submodule.sub.update '!… git commit -n …'` nor `git config --rename-section x submodule.sub` nor the
#   later `git submodule update` is judged: the line git runs is never seen. (`alias.x '!…'` and `core.fsmonitor`
#   values holding the same line are denied.)
# Correct: the setting's value is judged as the command line it is (denied here: rule no-verify), and the section
#   is judged when renamed or removed whole.
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
( cd "$T" && git init -q sub && git -C sub commit -q --allow-empty -m s1 && git -C sub commit -q --allow-empty -m s2 ) \
  || exit 2
LINE='!f(){ git -C .. commit -n -qam loosen; }; f'
denied "git config alias.x '$LINE'" || { echo "setup: control (alias) not denied"; exit 2; }
steps=("git -c protocol.file.allow=always submodule add -q ../sub sub" "git -C sub checkout -q HEAD~1"
       "git config submodule.sub.update '$LINE'" "git submodule update")
for s in "${steps[@]}"; do
  if denied "$s"; then echo "OK: guard denies: $s"; exit 0; fi
  echo "guard allows: $s"; bash -c "$s" >/dev/null 2>&1
done
if git log -1 --stat | grep -q gate.yaml; then
  echo "DEFECT: gate.yaml loosened (unit_test optional) was committed past the harness hook:"
  git show --stat --oneline HEAD | sed 's/^/  /'; exit 1
fi
echo "all allowed, but the commit did not land"; exit 1
