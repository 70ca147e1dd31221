#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# Read 62, of F-0145's fix (harness/gitio/adoption.py published_line): read 60's F-0140 (a developer who merely
# checks out a teammate's pushed trial of `harness init` and goes back has the lookup refused) is fixed only where a
# remote has a default line. On a `develop` line pushed with -u (no origin/HEAD, main or master: read 59's F-0136
# setup) every local branch's upstream is read, origin/try-harness among them, and the adopting task's lookup on
# develop refuses again: "cannot tell where this history adopted the harness". The docstring says a teammate's
# trial, "checked out or not", is no rival. Control: before the checkout, develop's adoption is named.
# Exit 1 while the lookup for develop's HEAD is refused; 0 when it names develop's adoption; 2 on setup failure.
export GIT_CONFIG_GLOBAL=/dev/null GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
git init -q --bare "$T/origin.git" || exit 2
( git init -q -b develop && echo a > a.txt && git add -A && git commit -qm init \
  && git checkout -q -b try-harness && harness init && git add -A && git commit -qm "trying the harness" \
  && git remote add origin "$T/origin.git" && git push -q --no-verify origin try-harness \
  && git checkout -q develop && git branch -q -D try-harness \
  && harness init && harness install && harness task new t && git add -A \
  && git commit -qm "adopt the harness" && git push -q -u --no-verify origin develop && git fetch -q origin ) >/dev/null 2>&1 || exit 2
adopt=$(git rev-parse HEAD)
git rev-parse -q --verify refs/remotes/origin/try-harness >/dev/null || exit 2
check() { python - "$adopt" <<'PY'
import sys
from pathlib import Path
from harness.errors import HarnessError
from harness.store.source import FsSource
try:
    found = FsSource(Path(".").resolve()).adoption()
except HarnessError as exc:
    print("REFUSED:", exc.message[:160]); sys.exit(1)
rev = getattr(found, "commit", None)
print("adoption:", str(rev)[:12], "(develop adoption: %s)" % sys.argv[1][:12]); sys.exit(0 if rev == sys.argv[1] else 3)
PY
}
echo -n "control (origin/try-harness fetched, never checked out): "; check; [ $? = 0 ] || { echo "setup: control failed" >&2; exit 2; }
( git checkout -q try-harness && git checkout -q develop ) >/dev/null 2>&1 || exit 2
echo "git branch -vv: $(git branch -vv | tr -s ' ' | cut -c1-60 | tr '\n' ';')"
echo -n "after \`git checkout try-harness; git checkout develop\`: "; check; r=$?
[ $r = 1 ] && exit 1; [ $r = 0 ] && exit 0; exit 2
