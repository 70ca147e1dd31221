#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# Read 57's F-0125 ("any other branch or remote that ran harness init on its own line makes the working tree's
# adoption lookup refuse"; expected: "candidates off HEAD's history do not compete with an adoption HEAD holds")
# was fixed for local branches only: FsSource.adoption still reads every remote-tracking ref
# (first_holding(root, "HEAD", ("--remotes",), ...)). A teammate's trial branch pushed to origin, a fork's or
# upstream's remote whose line adopted the harness on its own, or a remote-tracking ref left stale by a force-push
# that re-did the adoption: each one is not in HEAD's history, and each still makes the lookup refuse ("cannot
# tell where this history adopted the harness"), so the gate of the task on main reports an invalid state
# (FsSource.adoption is read by gate/facts.py once a verified must requirement cites an evidence type).
# The agent can delete any remote-tracking ref itself, so reading them protects nothing the push guard and CI
# do not. Exit 1 while the lookup for main's HEAD is refused because of such a ref; 0 when it names main's
# adoption; 2 on setup failure.
export GIT_CONFIG_GLOBAL=/dev/null GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
git init -q --bare "$T/origin.git" || exit 2
( git init -q -b main && echo a > a.txt && git add -A && git commit -qm init \
  && git checkout -q -b try-harness && harness init && git add -A && git commit -qm "trying the harness" \
  && git remote add origin "$T/origin.git" && git push -q --no-verify origin try-harness \
  && git checkout -q main && git branch -q -D try-harness \
  && harness init && harness install && harness task new t && git add -A \
  && git commit -qm "adopt the harness" && git push -q --no-verify origin main && git fetch -q origin ) >/dev/null 2>&1 || exit 2
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
trial=$(git rev-parse refs/remotes/origin/try-harness) && git update-ref -d refs/remotes/origin/try-harness || exit 2
echo -n "control (no trial ref): "; check; [ $? = 0 ] || { echo "setup: control failed" >&2; exit 2; }
git update-ref refs/remotes/origin/try-harness "$trial" || exit 2
echo -n "with origin/try-harness (a teammate's pushed trial, or a stale ref): "; check; r=$?
[ $r = 1 ] && exit 1; [ $r = 0 ] && exit 0; exit 2
