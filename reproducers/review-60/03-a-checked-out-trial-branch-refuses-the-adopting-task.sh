#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# Read 60, of F-0136's fix (harness/gitio/adoption.py published_line): the published line is now "the upstream of
# EVERY local branch". Read 57's F-0125 (local branches are not read) and read 58's F-0130 (a teammate's pushed
# trial of `harness init` on origin is not read) both held that another line's adoption is no rival of HEAD's.
# A developer who merely looks at that teammate's branch (`git checkout try-harness`: git's DWIM makes a local
# branch tracking origin/try-harness) and goes back to main now has origin/try-harness read again, through the
# local branch's upstream, and the lookup on main refuses: "cannot tell where this history adopted the harness".
# The same holds for every local branch that tracks a fork's or an upstream's branch which ran `harness init`
# on its own line. Control: the same repository before the checkout names main's adoption (as at 1b4ef42, and
# as read 58/03 asks).
# Exit 1 while the lookup for main's HEAD is refused; 0 when it names main's adoption; 2 on setup failure.
export GIT_CONFIG_GLOBAL=/dev/null GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
git init -q --bare "$T/origin.git" || exit 2
( git init -q -b main && echo a > a.txt && git add -A && git commit -qm init \
  && git checkout -q -b try-harness && harness init && git add -A && git commit -qm "trying the harness" \
  && git remote add origin "$T/origin.git" && git push -q --no-verify origin try-harness \
  && git checkout -q main && git branch -q -D try-harness \
  && harness init && harness install && harness task new t && git add -A \
  && git commit -qm "adopt the harness" && git push -q -u --no-verify origin main && git fetch -q origin ) >/dev/null 2>&1 || exit 2
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
print("adoption:", str(rev)[:12], "(main's adoption: %s)" % sys.argv[1][:12]); sys.exit(0 if rev == sys.argv[1] else 3)
PY
}
echo -n "control (origin/try-harness fetched, never checked out): "; check; [ $? = 0 ] || { echo "setup: control failed" >&2; exit 2; }
( git checkout -q try-harness && git checkout -q main ) >/dev/null 2>&1 || exit 2
echo "git branch -vv: $(git branch -vv | tr -s ' ' | cut -c1-60 | tr '\n' ';')"
echo -n "after \`git checkout try-harness; git checkout main\`: "; check; r=$?
[ $r = 1 ] && exit 1; [ $r = 0 ] && exit 0; exit 2
