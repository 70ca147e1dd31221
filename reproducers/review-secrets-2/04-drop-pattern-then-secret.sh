#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# change_rules._redaction_patterns: "a commit that drops a pattern and brings its value is read with the
# parent's". Split the same change into two commits: commit 1 only drops the project pattern from
# config.yaml (no approval asked, nothing refused), commit 2 records a requirement holding the value.
# Commit 2 is read with its own and its parent's config (neither has the pattern): the commit hook,
# the pre-push guard and `harness audit` over the range from a commit that HAD the pattern all pass,
# and the secret reaches the remote. Control: the same change as one commit is refused.
# Exit 1 while the two-commit push/audit pass with the secret; 0 when fixed; 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
setp() { python - "$1" <<'PY'
import re, sys
p = '.harness/config.yaml'; s = open(p).read()
s2 = re.sub(r'redaction:\n  patterns: .*', 'redaction:\n  patterns: [' + sys.argv[1] + ']', s)
assert s2 != s or sys.argv[1] in s
open(p, 'w').write(s2)
PY
}
setp '"zqx[0-9]{6}"' && git add -A && git commit -qm "project pattern" || exit 2
base=$(git rev-parse HEAD)
git init -q --bare "$T/remote.git" && git push -q "$T/remote.git" HEAD:refs/heads/main 2>/dev/null || exit 2
# control: one commit dropping the pattern and bringing the value is refused
setp '' && harness requirement add "statement zqx123461" --priority must >/dev/null 2>&1 || exit 2
git add -A; if git commit -qm one >/dev/null 2>&1; then echo "setup: one-commit control accepted" >&2; exit 2; fi
git reset -q --hard "$base"
# the same in two commits
setp '' && git add -A && git commit -qm "drop pattern" >/dev/null 2>&1 || { echo "c1 refused"; exit 0; }
harness requirement add "statement zqx123462" --priority must >/dev/null 2>&1 || exit 2
git add -A; git commit -qm "req" >/dev/null 2>&1 || { echo "c2 refused"; exit 0; }
git show HEAD:.harness/tasks/$TID/requirements.yaml | grep -q zqx123462 || exit 2
git push -q "$T/remote.git" HEAD:refs/heads/main >/dev/null 2>&1; prc=$?
harness audit --from "$base" --to HEAD >/dev/null 2>&1; arc=$?
pushed=$(git -C "$T/remote.git" show main:.harness/tasks/$TID/requirements.yaml 2>/dev/null | grep -c zqx123462)
echo "push rc=$prc audit rc=$arc remote holds secret lines: $pushed"
[ "$prc" = 0 ] && [ "$pushed" != 0 ] && exit 1
[ "$arc" = 0 ] && exit 1
exit 0
