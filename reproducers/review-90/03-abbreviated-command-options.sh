#!/bin/bash
# Defect: harness/agent/judge/git_runs.py `_option_lines` finds the options whose value git runs as a shell line
#   (`fetch/pull/ls-remote/clone --upload-pack`, `push --receive-pack`, `rebase --exec`, `difftool --extcmd`,
#   `archive --exec`, filter-branch's filters) only by their full names; git's option parser takes any unique
#   prefix (`--upl=`, `--exe`). `git fetch --upl='rm -rf .harness; git upload-pack' .` and
#   `git rebase --exe 'rm -rf .harness' HEAD~1` are allowed and delete the harness's record, while the
#   spelled-out options are refused.
# Correct: a long option is matched by any prefix git accepts for it (as the guard already does for
#   `git config`'s options and for `--no-verify`), so both lines are refused.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q -b main && harness init && harness install && harness task new t && echo a > a.txt && git add -A \
  && git commit -qm init && echo b > b.txt && git add b.txt && git commit -qm two ) >/dev/null 2>&1 || exit 2

guard() {
  python3 -c 'import json,sys; print(json.dumps({"session_id":"s","tool_name":"Bash","tool_input":{"command":sys.argv[1]},"hook_event_name":"PreToolUse","cwd":sys.argv[2]}))' "$1" "$R" \
    | harness hook agent claude pre-tool-use | grep -q '"deny"' && echo DENY || echo ALLOW
}
# Controls: the full option names are refused.
[ "$(guard "git fetch --upload-pack='rm -rf .harness; git upload-pack' .")" = DENY ] || { echo "setup: control 1"; exit 2; }
[ "$(guard "git rebase --exec 'rm -rf .harness' HEAD~1")" = DENY ] || { echo "setup: control 2"; exit 2; }

bad=0
for CMD in "git fetch --upl='rm -rf .harness; git upload-pack' ." "git rebase --exe 'rm -rf .harness' HEAD~1"; do
  git reset -q --hard; git checkout -q -- . 2>/dev/null; [ -d .harness/tasks ] || exit 2
  verdict=$(guard "$CMD"); echo "guard on \`$CMD\`: $verdict"
  [ "$verdict" = DENY ] && continue
  eval "$CMD" >/dev/null 2>&1
  if [ ! -e .harness ]; then echo "  DEFECT: allowed, and running it deleted .harness/"; bad=1; fi
done
exit $bad
