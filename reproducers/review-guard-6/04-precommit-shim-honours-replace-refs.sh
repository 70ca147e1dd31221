#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# f5ac62b: "every git the harness starts reads objects as stored (GIT_NO_REPLACE_OBJECTS=1)". The native
# pre-commit shim (harness/hook_files.py -> .git/hooks/pre-commit) asks `git diff --cached --quiet -- :(top).harness`
# WITHOUT it, before Python starts. A replace ref from HEAD's .harness tree to the staged (forged) .harness tree
# (made with `git update-ref --stdin`, which the tool guard allows) makes that diff quiet: the shim exits 0 and
# `git commit --allow-empty` commits a hand-edited ledger with no commit-time check (post-commit only warns; the
# push guard is left as the one line of defence). Without the replace ref the same commit is refused.
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q && harness init && harness install && harness task new t && git add -A && git commit -qm init ) >/dev/null 2>&1 || exit 2
L=$(ls .harness/tasks/*/events.jsonl | head -1); [ -n "$L" ] || exit 2
echo '{"data":{},"prev":"x","seq":2,"ts":"2026-12-04T12:44:00Z","type":"task.forged"}' >> "$L"
git add -A || exit 2
# control: the forged ledger is refused at commit time
if git commit -q --allow-empty -m control >/dev/null 2>&1; then echo "setup: control commit not refused" >&2; exit 2; fi
X=$(git rev-parse HEAD:.harness) && Y=$(git write-tree --prefix=.harness/) || exit 2
echo "create refs/replace/$X $Y" | git update-ref --stdin || exit 2
if git commit -q --allow-empty -m forged >"$T/out" 2>&1; then
  echo "DEFECT: commit with a hand-edited ledger accepted at pre-commit:"
  GIT_NO_REPLACE_OBJECTS=1 git show --stat --format=%s HEAD | sed 's/^/  /'
  exit 1
fi
echo "refused at commit time"; exit 0
