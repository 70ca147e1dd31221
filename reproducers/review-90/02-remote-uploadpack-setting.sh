#!/bin/bash
# Defect: harness/agent/judge/git_runs.py `_as_run` treats every `remote.*` key as a URL (only an `ext::` value
#   runs), although COMMAND_SETTINGS lists `remote.NAME.uploadpack` / `receivepack` as commands git runs. So
#   `git -c remote.x.uploadpack='CMD' fetch x` (and `git config remote.origin.uploadpack 'CMD'`, GIT_CONFIG_*)
#   is allowed while the same line as `git fetch --upload-pack='CMD'` is refused: git runs CMD through the shell,
#   here `rm -rf .harness`, which deletes the harness's record.
# Correct: the value of remote.*.uploadpack / remote.*.receivepack is judged as a command line (as --upload-pack's
#   is), so the line is refused.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q -b main && harness init && harness install && harness task new t && echo a > a.txt && git add -A \
  && git commit -qm init ) >/dev/null 2>&1 || exit 2

guard() {
  python3 -c 'import json,sys; print(json.dumps({"session_id":"s","tool_name":"Bash","tool_input":{"command":sys.argv[1]},"hook_event_name":"PreToolUse","cwd":sys.argv[2]}))' "$1" "$R" \
    | harness hook agent claude pre-tool-use | grep -q '"deny"' && echo DENY || echo ALLOW
}
# Control: the option form of the same thing is refused.
[ "$(guard "git fetch --upload-pack='rm -rf .harness; git upload-pack' .")" = DENY ] || { echo "setup: control not denied"; exit 2; }
[ -d .harness/tasks ] || exit 2

CMD="git -c remote.x.url=. -c remote.x.uploadpack='rm -rf .harness; git upload-pack' fetch x"
verdict=$(guard "$CMD"); echo "guard on \`$CMD\`: $verdict"
echo "guard on \`git config remote.origin.uploadpack 'rm -rf .harness; git upload-pack'\`: $(guard "git config remote.origin.uploadpack 'rm -rf .harness; git upload-pack'")"
[ "$verdict" = DENY ] && { echo "OK: refused"; exit 0; }
eval "$CMD" >/dev/null 2>&1
if [ ! -e .harness ]; then
  echo "DEFECT: the allowed command deleted .harness/ (git status: $(git status --short | wc -l) paths deleted)"
  exit 1
fi
echo "allowed but .harness/ survived"; exit 0
