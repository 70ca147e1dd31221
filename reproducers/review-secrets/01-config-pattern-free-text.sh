#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# A secret matched only by .harness/config.yaml `redaction.patterns` is redacted in evidence output,
# but NOT in free text the CLI takes (requirement statement here; task title, finding claims go the same
# way: the store's redactor, secrets_check.redactor(), never loads the config's patterns). The commit hook's
# `secret-in-harness-files` check uses the same redactor, so the commit carrying the secret is accepted.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
python - <<'PY' || exit 2
p='.harness/config.yaml'; s=open(p).read()
assert "patterns: []" in s
open(p,'w').write(s.replace("patterns: []", "patterns: ['ACMEINT-[0-9]{10}']"))
PY
git commit -qam "redaction pattern" || exit 2
S=ACMEINT-4815162342
harness requirement add "Login works with service key $S" --priority must >/dev/null 2>&1 || exit 2
harness evidence build -- sh -c "echo $S" >/dev/null 2>&1 || exit 2
grep -q "$S" .harness/tasks/*/evidence/build.json .harness/tasks/*/evidence/build.log && { echo "setup: evidence not redacted either" >&2; exit 2; }
git add -A && git commit -qm "req" >/dev/null 2>&1; echo "commit rc=$?"
leaks=$(grep -rl "$S" .harness; git cat-file --batch-all-objects --batch | grep -c "$S")
echo "$leaks"
if grep -rq "$S" .harness || git cat-file --batch-all-objects --batch | grep -q "$S"; then
  echo "DEFECT: config redaction pattern value reached the ledger/requirements.yaml (and git)"; exit 1
fi
exit 0
