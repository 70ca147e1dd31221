#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# A project pattern (config.yaml redaction.patterns) names a lowercase secret, e.g. `zqx[0-9]{6}`.
# An agent records evidence under a custom type whose name it chooses: `harness evidence custom.zqx123462`.
# The type lands under the key `type` (HARNESS_WRITTEN: project patterns skipped) in events.jsonl and
# task.yaml, in the evidence record, and as the evidence FILE NAME; the commit check
# (secret-in-harness-files) lets the commit through too.
# Exit 1 while the project-pattern secret reaches .harness/ (and git) unredacted; 0 when fixed; 2 setup.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
python - <<'PY' || exit 2
import re
p='.harness/config.yaml'; s=open(p).read()
s2=re.sub(r'redaction:\n  patterns: \[\]', 'redaction:\n  patterns: ["zqx[0-9]{6}"]', s)
assert s2 != s
open(p,'w').write(s2)
PY
git add -A && git commit -qm cfg || exit 2
# control: the same value in free text is redacted
harness requirement add "statement zqx123461" --priority must >/dev/null 2>&1 || exit 2
grep -rq 'zqx123461' .harness/ && { echo "setup: control not redacted" >&2; exit 2; }
harness evidence custom.zqx123462 -- echo hi >/dev/null 2>&1
leaks=$(grep -rl 'zqx123462' .harness/; find .harness -name '*zqx123462*')
git add -A >/dev/null 2>&1; git commit -qm x >/dev/null 2>&1; crc=$?
committed=$(git log --name-only --format= -1 | grep -c zqx123462)
echo "files holding/named with the secret:"; echo "$leaks" | sort -u
echo "commit rc=$crc, committed paths naming it: $committed"
[ -n "$leaks" ] && exit 1
exit 0
