#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
D=$(cd "$(dirname "$0")" && pwd)  # this folder: common.inc, its helpers
# A root entry `.HARNESS/` beside `.harness/` (same name but for case) is let in by the commit hook, the
# push guard and the server's pre-receive hook: they judge only the exact name `.harness`, so to them it is
# code. On a case-insensitive checkout (macOS, Windows: core.ignorecase) both folders are one folder, and
# `.HARNESS/local/valid` (the cache of documents known valid, F-0147), `.HARNESS/local/current`, or a whole
# `.HARNESS/tasks/TASK-x/` appear under `.harness/`. The rule against exactly this (#28's F-0151: any case
# of `.harness/local`) covers a case variant inside `.harness/` but not one of `.harness` itself; the fsck
# check already refuses `.git` by any case for the same reason.
# Exit 1 while such a push is accepted by both hooks, 0 once refused, 2 on setup failure.
source "$D"/common.inc
B="$T/remote.git"
( git branch -M main && git init -q --bare -b main "$B" && cd "$B" && harness install --server ) >/dev/null 2>&1 || exit 2
git remote add origin "$B" && git push -q origin main >/dev/null 2>&1 || exit 2
# control: the same cache inside `.harness/` under another case is refused at commit
mkdir -p .harness/LOCAL && echo x > .harness/LOCAL/x && git add -f .harness/LOCAL/x || exit 2
if git commit -qm control >/dev/null 2>&1; then echo "setup: control .harness/LOCAL accepted" >&2; exit 2; fi
git rm -rq --cached .harness/LOCAL >/dev/null; rm -rf .harness/LOCAL
# the defect: the case-folded twin of .harness at the root
mkdir -p .HARNESS/local .HARNESS/tasks && cp -r .harness/local/valid .HARNESS/local/ && echo "$TID" > .HARNESS/local/current \
  && cp -r ".harness/tasks/$TID" .HARNESS/tasks/TASK-20990101-forged && git add -f .HARNESS || exit 2
git commit -qm "a folder named .HARNESS" >/dev/null 2>&1 || { echo "commit hook refused it (fixed)"; exit 0; }
new=$(git rev-parse HEAD)
git push origin main 2>&1 | sed 's/^/  push: /'   # the pre-push guard, then the server's pre-receive hook
if [ "$(git -C "$B" rev-parse refs/heads/main)" = "$new" ]; then
  echo "DEFECT: the server's main now holds .HARNESS/ beside .harness/:"; git -C "$B" ls-tree --name-only main | sed 's/^/  /'
  exit 1
fi
echo "refused (fixed)"; exit 0
