#!/bin/bash
# Defect: `git init --template=DIR` (also `git -c init.templateDir=DIR init`) run in the existing repository is
#   allowed by the agent guard (harness/agent/judge/bypass_git.py judges no `init`), yet git copies every file of
#   DIR that .git/ lacks into .git/: a replace ref (.git/refs/replace/<HEAD>), .git/info/grafts, a new hook or a
#   .git/commondir — files the guard promises to refuse however written (troubleshooting.md: `plumbing` "a
#   replace ref however written", `hook-file` git's ref files and .git/info/grafts).
#   Here it plants refs/replace/HEAD -> HEAD~1, so git shows the older commit in HEAD's place.
# Correct: `git init` with a template (`--template`, `-c init.templateDir`, GIT_TEMPLATE_DIR) inside a guarded
#   repository is refused (or judged by what the template would add to .git/).
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q -b main && harness init && harness install && harness task new t && echo a > a.txt && git add -A \
  && git commit -qm init && echo b > b.txt && git add b.txt && git commit -qm second ) >/dev/null 2>&1 || exit 2

guard() {
  python3 -c 'import json,sys; print(json.dumps({"session_id":"s","tool_name":"Bash","tool_input":{"command":sys.argv[1]},"hook_event_name":"PreToolUse","cwd":sys.argv[2]}))' "$1" "$R" \
    | harness hook agent claude pre-tool-use | grep -q '"deny"' && echo DENY || echo ALLOW
}
H=$(git rev-parse HEAD) && P=$(git rev-parse HEAD~1) || exit 2
# Controls: the guard refuses a replace ref written by git replace or into .git/refs/replace directly.
[ "$(guard 'git replace HEAD HEAD~1')" = DENY ] || { echo "setup: control 1"; exit 2; }
[ "$(guard "echo $P > .git/refs/replace/$H")" = DENY ] || { echo "setup: control 2"; exit 2; }

TPL="$T/tpl"; mkdir -p "$TPL/refs/replace" && echo "$P" > "$TPL/refs/replace/$H" || exit 2
CMD="git init -q --template=$TPL"
verdict=$(guard "$CMD"); echo "guard on \`$CMD\`: $verdict"
[ "$verdict" = DENY ] && { echo "OK: refused"; exit 0; }
eval "$CMD" >/dev/null 2>&1
if [ -f ".git/refs/replace/$H" ] && [ "$(git log -1 --format=%s HEAD)" = init ]; then
  echo "DEFECT: the allowed command wrote .git/refs/replace/$H: git now shows commit 'init' as HEAD"
  echo "  (git --no-replace-objects log -1: $(git --no-replace-objects log -1 --format=%s))"
  exit 1
fi
echo "allowed, but no replace ref was written"; exit 0
