#!/usr/bin/env bash
# Defect: harness/install/existing_hooks.py _place classifies a hook as "runs the harness itself" (placement.own: no
#   shim for that stage, install exits 0 saying "left as it is") by a text match alone
#   (`^[^#\n]*\bharness\s+hook\s+run\s+<stage>`). A hook whose `harness hook run pre-commit "$@"` line is not its
#   last command (no `set -e`, no `|| exit`) ignores the harness's refusal, yet install accepts it. That is exactly the
#   hook a user gets by following install's own refusal for a hook reading $0 - its hint for pre-commit says only
#   "add `harness hook run pre-commit "$@"` to it" (the "at the end" of docs/git.md is given only for stdin stages,
#   _stdin_note) - e.g. the line added at the top. Same for text that runs nothing (an echo, a heredoc).
#   Result: a commit the harness refuses is committed; install said the stage was covered.
# Correct: install never reports a stage as covered by the user's hook when the harness's failure cannot fail the
#   hook: it refuses (naming the line to add at the end / with `|| exit $?`) or still puts its shim in place; either
#   way the commit the harness refuses is refused.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"
bad=0
try() {  # $1 label, $2 hook text (with the harness line in it)
  local R="$T/$1"; mkdir "$R"; cd "$R" || exit 2
  ( git init -q -b main && harness init && echo a > a.txt && git add -A && git commit -qm init ) >/dev/null 2>&1 || exit 2
  printf '#!/bin/sh\necho "checks of $(basename "$0")" >&2\n' > .git/hooks/pre-commit; chmod +x .git/hooks/pre-commit
  harness install >"$T/$1.i1" 2>&1 && { echo "setup: install did not refuse the \$0 hook"; exit 2; }
  grep -q 'harness hook run pre-commit' "$T/$1.i1" || exit 2
  printf '%s' "$2" > .git/hooks/pre-commit
  harness install >"$T/$1.i2" 2>&1; local irc=$?
  echo 'not: [valid' > .harness/config.yaml; git add -A
  if git commit -qm "broken config" >"$T/$1.c" 2>&1; then
    if [ $irc -eq 0 ] && grep -q "runs the harness itself" "$T/$1.i2"; then
      echo "DEFECT ($1): install said 'your pre-commit hook runs the harness itself: left as it is', and a commit the harness refuses went in"
      bad=1
    else
      echo "DEFECT ($1): a commit the harness refuses went in (install rc=$irc)"; bad=1
    fi
  else
    echo "ok ($1): the commit the harness refuses was refused (install rc=$irc)"
  fi
  cd "$T"
}
# Control: the line at the end - the harness's failure is the hook's.
try control $'#!/bin/sh\necho "checks of $(basename "$0")" >&2\nharness hook run pre-commit "$@"\n'
[ $bad -eq 0 ] || { echo "setup: the control (line at the end) did not refuse the commit"; exit 2; }
# The hint followed literally: the line added at the top of the hook.
try line-on-top $'#!/bin/sh\nharness hook run pre-commit "$@"\necho "checks of $(basename "$0") done" >&2\n'
# The words in a message only.
try words-only $'#!/bin/sh\necho "checks of $(basename "$0"); the harness: harness hook run pre-commit is run by CI" >&2\n'
exit $bad
