#!/usr/bin/env bash
# Found re-reading this session's diff: published_line asks `git symbolic-ref -q HEAD` for HEAD's branch and then
# runs two `git for-each-ref` with that branch as the pattern. On a detached HEAD (a CI checkout, a bisect, a
# `git checkout <commit>`) the branch is empty and for-each-ref, given no pattern, lists every ref: every local
# branch becomes "published", and a local trial of `harness init` makes the lookup refuse on main's own commit.
# Exit 1 while the lookup refuses (or reads local branches); 0 when it names main's adoption; 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; cd "$T" || exit 2
( git init -q --bare o.git && git init -q -b main r && cd r && echo a > a && git add a && git commit -qm pre \
  && harness init && git add -A && git commit -qm adopt && git remote add origin ../o.git \
  && git push -q --no-verify -u origin main && git checkout -q -b try main~1 && harness init && git add -A \
  && git commit -qm "trying the harness" && git checkout -q --detach main ) >/dev/null 2>&1 || exit 2
cd r || exit 2
python - "$(git rev-parse main)" <<'PY'
import sys
from pathlib import Path
from harness.errors import HarnessError
from harness.gitio.adoption import published_line
from harness.store.source import FsSource
line = published_line(Path("."))
print("published line on a detached HEAD:", line)
try:
    found = FsSource(Path(".").resolve()).adoption().commit
except HarnessError as exc:
    print("REFUSED:", exc.message[:120]); sys.exit(1)
print("adoption:", found[:12], "(main's:", sys.argv[1][:12] + ")")
sys.exit(0 if found == sys.argv[1] and not any(r.startswith("refs/heads/") for r in line) else 1)
PY
