#!/usr/bin/env bash
# Defect: `git config --typ bool --rename-section x core` (an abbreviated value-taking option before the action) is
#   allowed by the agent's pre-tool guard. harness/agent/judge/bypass_git.py `_check_config_at_once` judges only
#   `config_positional(rest)[:2]`, and config_positional skips the value of an option only when it is spelled exactly
#   as in CONFIG_WITH_VALUE (`--type`, `--file`, …). git's parse-options takes unique abbreviations (`--typ`, `--ty`,
#   `--fil`), so their value (`bool`) is counted as the first section and the real target section `core` (the third
#   positional) is never judged. x.hooksPath (allowed to set) becomes core.hooksPath: every harness hook is off.
# Correct: the guard denies it (rule hooks-path), as it denies `git config --rename-section x core`.
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

# controls: the exact spelling is denied, an ordinary key is allowed; a loosened gate is refused by the hook
denied "git config --rename-section x core" || { echo "setup: control rename not denied"; exit 2; }
denied "git config x.hooksPath $T/nohooks" && { echo "setup: x.hooksPath denied"; exit 2; }
sed -i 's/unit_test: required/unit_test: optional/' .harness/gate.yaml
git commit -qam loosen >/dev/null 2>&1 && { echo "setup: hook did not refuse the loosened gate"; exit 2; }

CMD="git config --typ bool --rename-section x core"
if denied "$CMD"; then echo "OK: guard denies: $CMD"; exit 0; fi
echo "guard ALLOWS: $CMD"
git config x.hooksPath "$T/nohooks" && $CMD || exit 2
echo "core.hooksPath is now: $(git config core.hooksPath)"
if git commit -qam "loosen the gate" >/dev/null 2>&1; then
  echo "DEFECT: gate.yaml loosened (unit_test optional) committed past the harness hook:"
  git show --stat --oneline HEAD | sed 's/^/  /'
  exit 1
fi
echo "commit still refused"; exit 0
