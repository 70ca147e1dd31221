#!/usr/bin/env bash
# F-0048 one level down: a task folder as a submodule entry naming a forged task tree (B), then that tree back
# as the folder (C). The change rules skipped a task folder whose id a parent held, whatever its kind.
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
. "$(dirname "$0")/common.inc"
ledger=$(git ls-files '.harness/tasks/*/events.jsonl' | head -1); task=$(dirname "$ledger")
{ cat "$ledger"; echo '{"not": "an event"}'; } > "$T/forged"; blob=$(git hash-object -w "$T/forged")
forged=$(git ls-tree "HEAD:$task" | sed "s/[0-9a-f]\{40\}\tevents.jsonl/$blob\tevents.jsonl/" | git mktree) || exit 2
{ git rm -rq --cached "$task" && git update-index --add --cacheinfo "160000,$forged,$task" &&
  git commit -qm B --no-verify; } >/dev/null 2>&1 || exit 2; B=$(git rev-parse HEAD)
{ git rm -q --cached "$task" && git read-tree --prefix="$task/" "$forged" &&
  git commit -qm C --no-verify; } >/dev/null 2>&1 || exit 2; C=$(git rev-parse HEAD)
judged "$B" "$C"
