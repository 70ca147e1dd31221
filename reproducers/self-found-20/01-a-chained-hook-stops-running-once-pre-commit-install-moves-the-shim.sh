#!/usr/bin/env bash
# Defect: hooks/native-hook chains the hook it replaced as "$0.pre-harness". `pre-commit install` (its migration mode,
#   which docs/git.md names for moving to the framework) moves the harness shim from .git/hooks/pre-commit to
#   pre-commit.legacy and runs it from there: the shim then looks for pre-commit.legacy.pre-harness, finds nothing, and
#   the user's own pre-commit hook, which `harness install` said it kept ("it runs first"), silently stops running.
#   Running `harness install` again is then refused ("pre-commit exists and so does pre-commit.pre-harness").
# Correct: the user's chained hook keeps running once the framework runs the shim as <stage>.legacy (without running
#   the framework's own hook twice or in a loop), and `harness install` again refreshes what it installed.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
export PRE_COMMIT_HOME="$T/pre-commit-cache"
git init -q -b main || exit 2
printf '#!/bin/sh\necho ran >> "%s/user-hook-ran"\n' "$T" > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit
printf 'repos: []\n' > .pre-commit-config.yaml
( harness init && harness install && echo a > a.txt && git add -A && git commit -qm init ) >/dev/null 2>&1 \
  || { echo "setup: adopt"; exit 2; }
[ -s "$T/user-hook-ran" ] || { echo "setup: the user's hook did not run after harness install"; exit 2; }
rm -f "$T/user-hook-ran"
pre-commit install >/dev/null 2>&1 || { echo "setup: pre-commit install"; exit 2; }
[ -f .git/hooks/pre-commit.legacy ] || { echo "setup: the framework kept no legacy hook"; exit 2; }
echo b >> a.txt && git add -A && git commit -qm "a change" >/dev/null 2>&1 || { echo "setup: commit"; exit 2; }
if [ ! -s "$T/user-hook-ran" ]; then
  echo "DEFECT: after pre-commit install moved the harness shim to pre-commit.legacy, the user's own pre-commit hook"
  echo "        (which harness install said it kept) no longer runs on a commit"
  exit 1
fi
if ! harness install > "$T/again.txt" 2>&1; then
  echo "DEFECT: harness install, run again, is refused:"; head -2 "$T/again.txt"; exit 1
fi
echo "OK: the user's hook still runs and harness install runs again"; exit 0
