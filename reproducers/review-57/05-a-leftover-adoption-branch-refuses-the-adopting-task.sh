#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# F-0119's fix: the working tree's source asks where the harness was adopted in the histories of HEAD and of
# every branch and remote-tracking ref (harness/store/source.py FsSource.adoption -> first_holding(root, "HEAD",
# ("--branches", "--remotes"))), and refuses when the earliest commit adding .harness/config.yaml is not an
# ancestor of every later one. Any other line that ran `harness init` on its own — an abandoned trial branch,
# a teammate's branch on origin, a fork's or upstream's remote-tracking ref — now refuses the task that adopts
# the harness on main (the gate reads the adoption for a task whose base has no config.yaml), although that
# line is not in HEAD's history at all and nothing about the judged change is ambiguous.
# Exit 1 while the adoption read for main's HEAD is refused because of the unrelated branch; 0 when it names
# main's adoption; 2 on setup failure.
export GIT_CONFIG_GLOBAL=/dev/null GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q -b main && echo a > a.txt && git add -A && git commit -qm init \
  && git checkout -q -b try-harness && harness init && git add -A && git commit -qm "trying the harness" \
  && git checkout -q main && harness init && harness install && harness task new t && git add -A \
  && git commit -qm "adopt the harness" ) >/dev/null 2>&1 || exit 2
adopt=$(git rev-parse HEAD)
check() { python - "$adopt" <<'PY'
import sys
from pathlib import Path
from harness.errors import HarnessError
from harness.store.source import FsSource
try:
    found = FsSource(Path(".").resolve()).adoption()
except HarnessError as exc:
    print("REFUSED:", exc.message[:160]); sys.exit(1)
rev = getattr(found, "rev", None) or getattr(found, "commit", None)
print("adoption:", str(rev)[:12], "(main's adoption: %s)" % sys.argv[1][:12]); sys.exit(0 if rev == sys.argv[1] else 3)
PY
}
trial=$(git rev-parse try-harness) && git update-ref -d refs/heads/try-harness || exit 2
# control: without the trial branch, main's adoption is found
echo -n "control (trial branch deleted): "; check; [ $? = 0 ] || { echo "setup: control failed" >&2; exit 2; }
git update-ref refs/heads/try-harness "$trial" || exit 2
echo -n "with the unrelated trial branch kept: "; check; r=$?
[ $r = 1 ] && exit 1; [ $r = 0 ] && exit 0; exit 2
