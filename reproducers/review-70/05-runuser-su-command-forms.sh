#!/usr/bin/env bash
# Defect: the guard knows `su` and `runuser` as programs that run a command line, but only through `-c`
#   (harness/agent/judge/shell_commands.py: COMMAND_OPTION = {"su": "c", "runuser": "c", …}). util-linux's
#   `runuser -u USER [--] CMD ARGS…` runs CMD directly, and `su --session-command=LINE` runs LINE, so
#   `runuser -u root -- git commit -n` and `su --session-command='git commit -n' root` are allowed, while
#   `runuser root -c 'git commit -n'` and `sudo -u root git commit -n` are denied. As root (an agent in a
#   container) they commit without the harness's pre-commit hook.
# Correct: `runuser -u USER [--] CMD…` is judged as CMD (a prefix, as sudo is), and `su --session-command` /
#   `runuser --session-command` as `-c`: all denied here.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q -b main && harness init && harness install && harness task new t && echo a > a.txt && git add -A \
  && git commit -qm init ) >/dev/null 2>&1 || exit 2

guard() {
  local payload out
  payload=$(python3 -c 'import json,sys; print(json.dumps({"session_id":"s","cwd":sys.argv[2],"hook_event_name":"PreToolUse",
    "tool_name":"Bash","tool_input":{"command":sys.argv[1]}}))' "$1" "$R") || exit 2
  out=$(printf '%s' "$payload" | harness hook agent claude pre-tool-use 2>/dev/null)
  case "$out" in *'"permissionDecision": "deny"'*) echo deny;; *) echo allow;; esac
}

# Controls: the forms the guard knows are denied.
[ "$(guard "runuser root -c 'git commit -n -qam loosen'")" = deny ] || { echo "setup: runuser -c not denied"; exit 2; }
[ "$(guard "sudo -u root git commit -n -qam loosen")" = deny ] || { echo "setup: sudo not denied"; exit 2; }

fail=0
for c in "runuser -u root -- git commit -n -qam loosen" "su --session-command='git commit -n -qam loosen' root"; do
  v=$(guard "$c"); echo "guard: $v   $c"; [ "$v" = allow ] && fail=1
done
# End to end where this machine allows it (root, util-linux runuser).
if [ $fail = 1 ] && [ "$(id -u)" = 0 ] && command -v runuser >/dev/null; then
  sed -i 's/unit_test: required/unit_test: optional/' .harness/gate.yaml || exit 2
  git commit -qam loosen >/dev/null 2>&1 && { echo "setup: the hook did not refuse the loosening"; exit 2; }
  c="runuser -u root -- git commit -n -qam loosen"
  if [ "$(guard "$c")" = allow ]; then
    bash -c "$c" >/dev/null 2>&1
    git show --stat HEAD | grep -q gate.yaml && echo "DEFECT: '$c' committed the loosened gate.yaml without the hook"
  fi
fi
[ $fail = 1 ] && { echo "DEFECT: runuser -u … CMD / su --session-command escape the no-verify rule"; exit 1; }
echo "OK: denied"; exit 0
