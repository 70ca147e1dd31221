#!/usr/bin/env bash
# Defect: harness/install/existing_hooks.py _place puts the shim in <stage>.d/harness for any hook whose text loops
#   over `"$0.d"/*` (_runs_every_file), at stdin stages too (pre-push, post-rewrite, pre-receive). A plain dispatcher
#   (`for f in "$0.d"/*; do "$f" "$@" || exit $?; done`, the test suite's own client example) does not give each file
#   the same stdin: a file sorted before `harness` that reads the pushed refs (git-lfs style `10-lfs`) leaves the shim
#   an empty stdin, so the push guard checks "0 commit(s)" and a forged DONE commit is pushed. Install reported
#   "your pre-push hook runs every file of pre-push.d/: the harness is pre-push.d/harness" and exit 0; docs/git.md's
#   "it must give each file the same stdin" is never checked.
# Correct: at a stdin stage install places the shim in a dispatcher's folder only when the dispatcher hands each file
#   the same stdin (as Gitea's `data=$(cat)` … `echo "$data" | "$hook"` does); otherwise it refuses, naming the line to
#   add, as for any hook it cannot chain. Either way a forged DONE is not pushed past a hook install said it covers.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"
# $1 label, $2 dispatcher text; prints and returns 0 (push refused / install refused), 1 (forged DONE pushed)
try() {
  local R="$T/$1"; mkdir "$R"; cd "$R" || exit 2
  ( git init -q -b main && git init -q --bare -b main "$T/$1.git" && git remote add origin "$T/$1.git" \
    && harness init && echo a > a.txt && git add -A && git commit -qm init ) >/dev/null 2>&1 || exit 2
  local H=.git/hooks; mkdir -p $H/pre-push.d
  printf '%s' "$2" > $H/pre-push; chmod +x $H/pre-push
  printf '#!/bin/sh\n# reads the refs being pushed, as `git lfs pre-push` does\nwhile read -r l; do :; done\n' > $H/pre-push.d/10-lfs
  chmod +x $H/pre-push.d/10-lfs
  if ! harness install >"$T/$1.install" 2>&1; then
    grep -q 'pre-push' "$T/$1.install" && { echo "ok ($1): install refused, naming pre-push"; cd "$T"; return 0; }
    cat "$T/$1.install"; exit 2
  fi
  ( harness task new t && git add -A && git commit -qm task ) >/dev/null 2>&1 || exit 2
  sed -i 's/^  state: .*/  state: DONE/' .harness/tasks/*/task.yaml   # a DONE typed by hand
  git add -A && git commit -q --no-verify -m "forged DONE" >/dev/null 2>&1 || exit 2
  if git push -q origin main >"$T/$1.push" 2>&1; then
    echo "($1) install said: $(grep -m1 'pre-push.d' "$T/$1.install")"
    echo "($1) push of a forged DONE went through: $(grep -m1 'push guard' "$T/$1.push")"; cd "$T"; return 1
  fi
  echo "ok ($1): the push of a forged DONE was refused"; cd "$T"; return 0
}
# Control: Gitea's way, each file given the same stdin.
try control $'#!/bin/sh\ndata=$(cat)\nfor f in "$0.d"/*; do\n  [ -x "$f" ] || continue\n  printf \'%s\\n\' "$data" | "$f" "$@" || exit $?\ndone\n' \
  || { echo "setup: control failed"; exit 2; }
try plain $'#!/bin/sh\nfor f in "$0.d"/*; do\n  [ -x "$f" ] || continue\n  "$f" "$@" || exit $?\ndone\n' && exit 0
echo "DEFECT: install put the harness behind a dispatcher that starves it of the pushed refs, and said it was in place"
exit 1
