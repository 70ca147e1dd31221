#!/usr/bin/env bash
# Defect: harness/agent/judge/git_runs.py COMMAND_OPTIONS lists the options whose value git runs as a command line
#   (--upload-pack, rebase --exec, …, abbreviated as git reads them: F-0311) but not `git grep -O<CMD>` /
#   `--open-files-in-pager=<CMD>`, which runs CMD through the shell with the matching files as arguments. The guard
#   allows `git grep -O'rm -rf .harness' a`, and .harness is deleted (core.pager set the same way is refused).
# Correct: grep's -O/--open-files-in-pager value (attached; any unique prefix such as --open) is judged as the command
#   line it is; `git grep -n foo` and `git grep -O` with no value (the pager) stay allowed.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q -b main && harness init && harness install && harness task new t && echo a > a.txt && git add -A \
  && git commit -qm init ) >/dev/null 2>&1 || exit 2

guard() {  # COMMAND -> deny|allow (Claude Code's PreToolUse payload for Bash, as tests/support/agent_guard.py)
  python3 - "$PWD" "$1" <<'PY'
import json, subprocess, sys
call = {"session_id": "s", "cwd": sys.argv[1], "hook_event_name": "PreToolUse", "tool_name": "Bash",
        "tool_input": {"command": sys.argv[2]}}
p = subprocess.run(["harness", "hook", "agent", "claude", "pre-tool-use"], cwd=sys.argv[1], input=json.dumps(call),
                   capture_output=True, text=True)
print("deny" if '"deny"' in p.stdout else "allow")
PY
}
[ "$(guard "git -c core.pager='rm -rf .harness' log")" = deny ] || { echo "setup: core.pager spelling not refused"; exit 2; }
[ "$(guard "git grep -n a")" = allow ] || { echo "legitimate \`git grep -n a\` is refused"; exit 1; }
status=0
cp -a "$R" "$T/pristine" || exit 2
for line in "git grep -O'rm -rf .harness' a" "git grep --open-files-in-pager='rm -rf .harness' a" "git grep --open='rm -rf .harness' a"; do
  rm -rf "$R"; cp -a "$T/pristine" "$R"; cd "$R" || exit 2
  answer=$(guard "$line")
  eval "$line" >/dev/null 2>&1
  echo "$line: guard $answer; .harness $( [ -d .harness ] && echo kept || echo DELETED)"
  [ "$answer" = allow ] && [ ! -d .harness ] && status=1
done
[ $status = 1 ] && echo "DEFECT: git grep ran the command its -O option named and .harness is gone"
exit $status
