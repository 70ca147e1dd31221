#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# Read 62, of F-0145's fix (harness/gitio/adoption.py published_line): with no remote default line (a `develop`
# line pushed with -u: no origin/HEAD, main or master) the published line is HEAD's upstream plus the OTHER LOCAL
# BRANCHES' upstreams, and `--remotes` only when there is none. The agent branches `side` from before the adoption,
# pushes it with -u and deletes its local `develop` (origin/develop, the remote-tracking ref, is untouched): the
# published line is just origin/side, origin/develop is never read, and the agent's own `harness init` on the side
# line is taken for the adoption. Control: with the local develop branch still there, develop's adoption is named.
# Exit 1 while the side line's commit is named the adoption; 0 when develop's is (or the lookup refuses); 2 setup.
export GIT_CONFIG_GLOBAL=/dev/null GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
git init -q --bare "$T/origin.git" || exit 2
( git init -q -b develop && echo a > a.txt && git add -A && git commit -qm init && git remote add origin "$T/origin.git" \
  && harness init && harness install && git add -A && git commit -qm "adopt the harness" \
  && git push -q -u --no-verify origin develop ) >/dev/null 2>&1 || exit 2
adopt=$(git rev-parse HEAD)
check() { python - "$adopt" <<'PY'
import sys
from pathlib import Path
from harness.errors import HarnessError
from harness.store.source import FsSource
from harness.gitio.adoption import published_line
print("  published line:", " ".join(published_line(Path(".").resolve())))
try:
    found = FsSource(Path(".").resolve()).adoption()
except HarnessError as exc:
    print("  refused:", exc.message[:120]); sys.exit(0)
rev = getattr(found, "commit", None)
print("  adoption:", str(rev)[:12], "(develop's adoption: %s)" % sys.argv[1][:12]); sys.exit(0 if rev == sys.argv[1] else 1)
PY
}
( git checkout -q -b side HEAD~1 && git push -q -u --no-verify origin side \
  && harness init && harness install && git add -A && git commit -qm "my own adoption" ) >/dev/null 2>&1 || exit 2
echo "control (local develop still there):"; check || { echo "setup: control failed" >&2; exit 2; }
git branch -q -D develop || exit 2
git rev-parse -q --verify refs/remotes/origin/develop >/dev/null || exit 2
echo "after \`git branch -D develop\` (origin/develop kept):"; check
