#!/usr/bin/env bash
# Defect: F-0310 judges a remote's uploadpack from `-c`, GIT_CONFIG_*, `git config` and the repository's config
#   (harness/agent/judge/git_runs.py lines_run/_runs_setting, harness/gitio/guard_config.py QUERY), but a fetch run
#   under configuration the guard cannot read — `-c include.path=FILE` (or includeIf.*.path) or a line's
#   GIT_CONFIG_GLOBAL=FILE — is allowed: check_git() refuses opaque configuration only for MACHINERY/non-builtin
#   subcommands (`git push` under include.path IS refused), and fetch/pull/ls-remote are neither. git runs the
#   included `remote.origin.uploadpack` as a shell line: here `rm -rf .harness; git-upload-pack`, and .harness is gone.
# Correct: the commands that run a remote's uploadpack (fetch, pull, ls-remote, remote update/show/prune, …) are
#   refused under configuration the guard cannot see, as push is; a plain `git fetch origin` stays allowed.
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
git remote add origin "$R" || exit 2
cp -a "$R" "$T/pristine" || exit 2
printf '[remote "origin"]\n\tuploadpack = rm -rf .harness; git-upload-pack\n' > "$T/inc.cfg"

[ "$(guard "git -c remote.origin.uploadpack='rm -rf .harness; git-upload-pack' fetch origin")" = deny ] \
  || { echo "setup: the -c spelling is not refused"; exit 2; }
[ "$(guard "git -c include.path=$T/inc.cfg push origin main")" = deny ] || { echo "setup: push under include.path allowed"; exit 2; }
[ "$(guard "git fetch origin")" = allow ] || { echo "legitimate \`git fetch origin\` is refused"; exit 1; }

status=0
for line in "git -c include.path=$T/inc.cfg fetch origin" "GIT_CONFIG_GLOBAL=$T/inc.cfg git fetch origin" \
            "git -c includeIf.onbranch:main.path=$T/inc.cfg ls-remote origin"; do
  rm -rf "$R"; cp -a "$T/pristine" "$R"; cd "$R" || exit 2
  answer=$(guard "$line")
  eval "$line" >/dev/null 2>&1
  echo "${line//$T/\$T}: guard $answer; .harness $( [ -d .harness ] && echo kept || echo DELETED)"
  [ "$answer" = allow ] && [ ! -d .harness ] && status=1
done
[ $status = 1 ] && echo "DEFECT: the guard allowed a fetch whose uploadpack (from config it did not read) deleted .harness"
exit $status
