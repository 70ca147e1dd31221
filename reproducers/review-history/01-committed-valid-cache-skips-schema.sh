#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# Defect: `harness audit` (CI) trusts schema-valid digests read from the AUDITED checkout.
# harness/history/hook_checks.py:hook_git calls validate.use_cache(<worktree>/.harness/local/valid),
# which loads every digest in that file into the process-wide "known valid" set
# (harness/store/validate.py:_seen). check_events (validate.py) then skips the event-schema check
# of any whole ledger whose digest is listed, and reader.parse_ledger / ledger_memo remember the
# result as fully validated. `.harness/local/` is only .gitignored, never refused by the change
# rules, so a commit can `git add -f .harness/local/valid` holding the digest (sha256 of
# "2\0event\0" + ledger bytes, first 32 hex: computable by anyone) of its own forged ledger.
# A CI checkout of that commit then ACCEPTS a ledger whose event carries an unknown field
# (schema: "unknown field(s) ... refused, not ignored"); the same audit without the planted file
# refuses it.
# Scenario: a new task whose task.created has an extra data key "x" (chain re-hashed, canonical),
# plus the forced-in digest file, committed --no-verify; fresh clone; audit the one commit.
# Exit 1 while the planted cache makes the audit pass, 0 when it is refused, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
harness task new u >/dev/null 2>&1 || exit 2
U=$(ls .harness/tasks | grep -v "^$TID$") || exit 2
UL=.harness/tasks/$U/events.jsonl
python - "$UL" "$here" <<'PY' || exit 2
import json, sys
sys.path.insert(0, sys.argv[2])
from harness.core.chain import GENESIS, canonical, line_hash
from harness.store.validate import _key
p = sys.argv[1]
evs = [json.loads(l) for l in open(p, "rb").read().decode().splitlines()]
evs[0]["data"]["x"] = 1            # an unknown field: the rules ignore it, the schema refuses it
prev, out = GENESIS, []
for e in evs:
    e["prev"] = prev
    line = canonical(e); out.append(line); prev = line_hash(line)
raw = "".join(l + "\n" for l in out).encode()
open(p, "wb").write(raw)
open(".harness/local/valid", "w").write(_key("event", raw) + "\n")   # the planted "known valid" digest
PY
{ git add -A && git add -f .harness/local/valid && git commit -qm forged --no-verify; } >/dev/null 2>&1 || exit 2
git clone -q "$R" "$T/ci" >/dev/null 2>&1 && cd "$T/ci" || exit 2     # what CI checks out
# control: the same audit on a checkout without the planted file refuses the ledger
git clone -q "$R" "$T/ci0" >/dev/null 2>&1 || exit 2
rm -f "$T/ci0/.harness/local/valid"
( cd "$T/ci0" && harness audit --from HEAD~1 --to HEAD ) >"$T/c.out" 2>&1; c=$?
grep -q "unknown field" "$T/c.out" && [ $c = 1 ] || { echo "setup: control not refused (rc=$c)"; cat "$T/c.out"; exit 2; }
harness audit --from HEAD~1 --to HEAD >"$T/a.out" 2>&1; a=$?
echo "audit without planted cache: rc=$c (refused: unknown field x); with it: rc=$a"; tail -2 "$T/a.out"
[ $a = 0 ] && exit 1
exit 0
