#!/usr/bin/env bash
# Defect: every `git config KEY VALUE` rule of the agent's pre-tool guard is evaded by abbreviating a value-taking
#   option: `git config --typ path include.path FILE` (also `--ty`, `--fil FILE`, `set --typ …`) is allowed while
#   `--type path` and `--type=path` are denied. harness/agent/judge/bypass_git.py CONFIG_WITH_VALUE /
#   `config_positional` (and git_runs.py CONFIG_VALUED for the command keys: `--typ path core.fsmonitor 'rm -rf
#   .harness'`, `--typ path alias.x '!…'`) skip an option's value only when spelled exactly, so `path` is read as the
#   key and the real key is read as its value. git's parse-options accepts any unique prefix of a long option.
# Correct: the guard reads `--typ`/`--ty`/`--fil`/`--defa` as git does and denies include.path (rule config-source).
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

EVIL="$T/evil.cfg"
denied "git config --type path include.path $EVIL" || { echo "setup: control (--type) not denied"; exit 2; }
denied "git config alias.ci '!rm -rf .harness'" || { echo "setup: control alias not denied"; exit 2; }
sed -i 's/unit_test: required/unit_test: optional/' .harness/gate.yaml
git commit -qam loosen >/dev/null 2>&1 && { echo "setup: hook did not refuse the loosened gate"; exit 2; }

fail=0
for CMD in "git config --typ path include.path $EVIL" "git config --typ path alias.ci '!rm -rf .harness'" \
           "git config --typ path core.fsmonitor 'rm -rf .harness'"; do
  if denied "$CMD"; then echo "denied: $CMD"; else echo "guard ALLOWS: $CMD"; fail=1; fi
done
[ $fail = 0 ] && { echo "OK: all denied"; exit 0; }

# end to end: the first one, then a commit of the loosened gate
printf '[core]\n\thooksPath = %s\n' "$T/nohooks" > "$EVIL"
denied "git commit -qam x" && { echo "(the commit itself is denied: not a bypass)"; exit 0; }
git config --typ path include.path "$EVIL" || exit 2
if git commit -qam "loosen the gate" >/dev/null 2>&1; then
  echo "DEFECT: with include.path set via --typ, gate.yaml loosened (unit_test optional) was committed past the hook:"
  git show --stat --oneline HEAD | sed 's/^/  /'
  exit 1
fi
exit 1
