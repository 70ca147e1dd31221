#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
D=$(cd "$(dirname "$0")" && pwd)  # this folder: common.inc, its helpers
# The server's pre-receive hook judges a pushed ref by the name the client sent. When that name is a
# symbolic ref on the server (an alias such as `git symbolic-ref refs/heads/trunk refs/heads/main`, kept
# after a rename), git updates the ref it points to: main, a protected ref. The hook sees
# `refs/heads/trunk` (unprotected), so a force push to trunk replaces main with an orphan history
# without .harness/ and without any `history-rewrite` approval (history-only-extends, no-orphan-history
# and harness-kept are all skipped). Server installed with --allow-non-fast-forward (the documented
# mode in which the hook, not git, guards protected refs).
# Exit 1 while main is rewritten through the alias, 0 once refused, 2 on setup failure.
source "$D"/common.inc
B="$T/remote.git"
( git branch -M main && git init -q --bare -b main "$B" && cd "$B" && harness install --server --allow-non-fast-forward ) \
  >/dev/null 2>&1 || exit 2
git remote add origin "$B" && git push -q origin main >/dev/null 2>&1 || exit 2
old=$(git -C "$B" rev-parse refs/heads/main) || exit 2
git checkout -q --orphan evil && git rm -rq --cached .harness && rm -rf .harness && echo x > b.txt && git add -A \
  && git commit -qm orphan --no-verify >/dev/null 2>&1 || exit 2
new=$(git rev-parse HEAD)
# control: the same force push straight to main is refused by the hook
if git push --no-verify -f origin evil:refs/heads/main >/dev/null 2>&1; then echo "setup: control accepted" >&2; exit 2; fi
[ "$(git -C "$B" rev-parse refs/heads/main)" = "$old" ] || exit 2
git -C "$B" symbolic-ref refs/heads/trunk refs/heads/main || exit 2
git push --no-verify -f origin evil:refs/heads/trunk 2>&1 | sed 's/^/  push: /'
if [ "$(git -C "$B" rev-parse refs/heads/main)" = "$new" ]; then
  echo "DEFECT: protected main went from ${old:0:12} to the orphan ${new:0:12} (no .harness/), unapproved"; exit 1
fi
echo "refused (fixed)"; exit 0
