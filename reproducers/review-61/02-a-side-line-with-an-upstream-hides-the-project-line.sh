#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# Read 61, of F-0140's fix (harness/gitio/adoption.py published_line): the other local branches' upstreams are
# read only when HEAD's own line has none of its refs ("own": HEAD's branch's existing upstream, any
# refs/remotes/*/HEAD, refs/remotes/*/{HEAD's branch, main, master}). Read 59's F-0136 scenario (the project's line
# is `develop`, pushed with `git push -u` to a remote added by hand: no origin/HEAD, no origin/main) is fixed only
# while the agent's side line has no upstream. Any upstream of HEAD's branch now stands for "the published line"
# alone and origin/develop (develop's upstream, which holds the real adoption) is no longer read:
#   push-u:          `git push -u origin side` (the push guard lets it through: a new branch, "no problems");
#   local-upstream:  `git branch -u base`, base a local branch at the pre-adoption commit (an upstream that is
#                    not a remote-tracking ref at all: branch.side.remote = ".").
# FsSource.adoption() then names the side line's own commit: its commands count as adopted (F-0119's side-line
# trick, read 56a). At b0b8958 (F-0136 fixed: every local branch's upstream read) both were refused.
# Control: the same side line without an upstream is refused.
# Exit 1 while a variant takes the side line's own commit for the adoption; 0 when refused or the real adoption
# is named; 2 on setup failure.
export GIT_CONFIG_GLOBAL=/dev/null GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"
lookup() { python - "$1" "$2" <<'PY'
import sys
from pathlib import Path
from harness.errors import HarnessError
from harness.gitio.adoption import published_line
from harness.store.source import FsSource
line = published_line(Path(".").resolve())
try:
    found = FsSource(Path(".").resolve()).adoption()
except HarnessError as exc:
    print(f"published line {line}: refused:", exc.message[:90]); sys.exit(0)
rev = str(getattr(found, "commit", None))
if rev == sys.argv[1]:
    print(f"published line {line}: adoption = the real one", rev[:12]); sys.exit(0)
if rev == sys.argv[2]:
    print(f"published line {line}: adoption = the side line's own commit", rev[:12]); sys.exit(1)
print("adoption = ?", rev[:12]); sys.exit(2)
PY
}
scenario() {  # $1: control | push-u | local-upstream
  R="$T/$1"; mkdir "$R"; cd "$R" || exit 2
  git init -q --bare "$T/$1-origin.git" || exit 2
  ( git init -q -b develop && echo a > a.txt && git add -A && git commit -qm init \
    && harness init && harness install && harness task new t && git add -A && git commit -qm "adopt the harness" \
    && git remote add origin "$T/$1-origin.git" && git push -q -u origin develop ) >/dev/null 2>&1 || exit 2
  adopt=$(git rev-parse HEAD); pre=$(git rev-parse HEAD~1)
  ( git checkout -q -b side "$pre" && git checkout -q "$adopt" -- .harness \
    && git add -A && git commit -q --no-verify -m "side: adopt the harness with my own commands" ) >/dev/null 2>&1 || exit 2
  side=$(git rev-parse HEAD)
  case $1 in
    push-u) git push -q -u origin side >/dev/null 2>&1 || { echo "setup: the push guard refused the push" >&2; exit 2; } ;;
    local-upstream) ( git branch -q base "$pre" && git branch -q -u base ) >/dev/null 2>&1 || exit 2 ;;
  esac
  echo -n "$1: git branch -vv: $(git branch -vv | tr -s ' ' | cut -c1-40 | tr '\n' ';'); "; lookup "$adopt" "$side"
}
( scenario control ); [ $? = 0 ] || { echo "setup: the control takes the side line's commit" >&2; exit 2; }
rc=0
for v in push-u local-upstream; do
  ( scenario $v ); r=$?; [ $r = 2 ] && exit 2; [ $r = 1 ] && rc=1
done
exit $rc
