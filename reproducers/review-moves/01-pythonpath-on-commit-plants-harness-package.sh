#!/bin/bash
# F-0007's `-P` keeps the cwd off sys.path, but PYTHONPATH entries still count: `PYTHONPATH=. git commit`
# (which the agent guard allows) makes a work-tree harness/ package answer the native commit hook, so a
# task.yaml hand-edited to `state: DONE` is committed although the real commit check refuses it.
# exit 1: the defect exists; 0: fixed; 2: setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd)
export PATH="$here/.venv/bin:$PATH"
D=$(mktemp -d) || exit 2
trap 'rm -rf "$D"' EXIT
cd "$D" && git init -q && git -c user.name=t -c user.email=t@t commit -q --allow-empty -m init || exit 2
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@t
harness init >/dev/null 2>&1 && harness install >/dev/null 2>&1 || exit 2
grep -q -- '-P -m harness' .git/hooks/pre-commit || exit 2
harness task new x >/dev/null 2>&1 || exit 2
f=$(ls .harness/tasks/*/task.yaml) || exit 2
sed -i 's/^  state: .*/  state: DONE/' "$f" || exit 2
git add -A && if git commit -qm "hand edit" >/dev/null 2>&1; then echo "setup: the real hook accepted the edit"; exit 2; fi
mkdir harness && touch harness/__init__.py || exit 2
printf 'import sys\nprint("planted harness ran:", sys.argv[1:], file=sys.stderr)\nsys.exit(0)\n' > harness/__main__.py
git add -A
cmd='PYTHONPATH=. git commit -qm "hand edit + planted harness/"'
verdict=$(printf '{"session_id":"s","cwd":"%s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"%s"}}' \
          "$D" "$(printf '%s' "$cmd" | sed 's/"/\\"/g')" | harness hook agent claude pre-tool-use)
case "$verdict" in *'"deny"'*) echo "the guard denies: $cmd"; exit 0;; esac
if eval "$cmd" 2>&1; then
  echo "guard allowed and committed: a planted harness/ package answered the commit hook via PYTHONPATH"; exit 1
fi
exit 0
