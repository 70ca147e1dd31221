#!/usr/bin/env bash
# A `.harness` submodule entry naming a tree, then that tree put back as the folder: the second commit
# passed the change rules as code-only (ids compared, kinds not), so a forged ledger in that tree was
# never judged there. `harness audit` over just that commit: exit 0 while the defect lasts, 1 when fixed.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d /tmp/sf6.XXXXXX) || exit 2; trap 'rm -rf "$T"' EXIT
cd "$T" || exit 2
{ git init -q && echo x > app.py && harness init && harness task new "A task" && git add -A &&
  git commit -qm adopt --no-verify; } >/dev/null 2>&1 || exit 2
ledger=$(git ls-files '.harness/tasks/*/events.jsonl' | head -1); [ -n "$ledger" ] || exit 2
# The forged tree: a line no ledger may hold appended to the task's ledger.
export GIT_INDEX_FILE="$T/forged-index"
{ git read-tree HEAD && { cat "$ledger"; echo '{"not": "an event"}'; } > "$T/forged" &&
  blob=$(git hash-object -w "$T/forged") && git update-index --cacheinfo "100644,$blob,$ledger"; } >/dev/null 2>&1 || exit 2
forged=$(git write-tree):; forged=$(git rev-parse "${forged%:}:.harness") || exit 2
unset GIT_INDEX_FILE
{ git rm -rq --cached .harness && git update-index --add --cacheinfo "160000,$forged,.harness" &&
  git commit -qm "a submodule entry" --no-verify && base=$(git rev-parse HEAD) &&
  git rm -q --cached .harness && git read-tree --prefix=.harness/ "$forged" &&
  git commit -qm "the folder it names" --no-verify; } >/dev/null 2>&1 || exit 2
[ "$(git rev-parse HEAD:.harness)" = "$forged" ] || exit 2
harness audit --from "$base" --to HEAD >"$T/out" 2>&1; rc=$?
cat "$T/out"
case $rc in 0) exit 1 ;; 1) exit 0 ;; *) exit 2 ;; esac
