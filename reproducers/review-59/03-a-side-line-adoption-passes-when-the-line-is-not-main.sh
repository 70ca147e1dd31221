#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# Read 59: F-0130's fix (harness/gitio/adoption.py published_line, harness/store/source.py FsSource.adoption) reads
# the working tree's adoption from HEAD plus HEAD's upstream, `refs/remotes/*/HEAD` and `refs/remotes/*/{HEAD's
# branch, main, master}`. A project whose line is `develop` (or `trunk`, `dev`...), pushed to a remote added by
# hand (`git remote add` + `git push -u`: no refs/remotes/origin/HEAD, which only a clone or `git remote set-head`
# writes), has none of these for a branch the agent makes: `git checkout -b side <pre-adoption commit>`, a commit
# that adds .harness/ with its own commands, and FsSource.adoption() names that commit (its commands count as
# adopted: F-0119's side-line trick, read 56a). At 5b1792a (`--remotes`) origin/develop was read and the lookup
# refused; with the line named `main` (the control) it still refuses.
# Exit 1 while the side line's own commit is taken for the adoption; 0 when it is refused or the real adoption
# is named; 2 on setup failure.
export GIT_CONFIG_GLOBAL=/dev/null GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"
lookup() { python - "$1" "$2" <<'PY'
import sys
from pathlib import Path
from harness.errors import HarnessError
from harness.store.source import FsSource
try:
    found = FsSource(Path(".").resolve()).adoption()
except HarnessError as exc:
    print("refused:", exc.message[:110]); sys.exit(0)
rev = str(getattr(found, "commit", None))
if rev == sys.argv[1]:
    print("adoption = the real one", rev[:12]); sys.exit(0)
if rev == sys.argv[2]:
    print("adoption = the side line's own commit", rev[:12]); sys.exit(1)
print("adoption = ?", rev[:12]); sys.exit(2)
PY
}
scenario() {  # $1: the project's line
  R="$T/$1"; mkdir "$R"; cd "$R" || exit 2
  git init -q --bare "$T/$1-origin.git" || exit 2
  ( git init -q -b "$1" && echo a > a.txt && git add -A && git commit -qm init \
    && harness init && harness install && harness task new t && git add -A && git commit -qm "adopt the harness" \
    && git remote add origin "$T/$1-origin.git" && git push -q -u --no-verify origin "$1" ) >/dev/null 2>&1 || exit 2
  adopt=$(git rev-parse HEAD); pre=$(git rev-parse HEAD~1)
  ( git checkout -q -b side "$pre" && git checkout -q "$adopt" -- .harness \
    && sed -i 's/^  ref: refs\/notes\/harness$/  ref: refs\/notes\/harness/' .harness/config.yaml \
    && git add -A && git commit -q --no-verify -m "side: adopt the harness with my own commands" ) >/dev/null 2>&1 || exit 2
  side=$(git rev-parse HEAD)
  echo -n "line '$1' (no origin/HEAD), HEAD on the agent's side line: "; lookup "$adopt" "$side"
}
scenario main; [ $? = 0 ] || { echo "setup: the control takes the side line's commit" >&2; exit 2; }
scenario develop; exit $?
