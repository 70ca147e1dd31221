#!/usr/bin/env bash
# Found by read 42 (an adversarial read of F-0036 and F-0038's fixes).
# No Python, no link beforehand: `ln -s "$PWD/.harness/local" .harness/local/d/s` is allowed (its target is the
# scratch folder), and on the same line `.harness/local/d/s/..` is read textually as .harness/local (scratch)
# while the kernel, and git -C / cd -P, resolve it physically to .harness. F-0038's real-path check cannot see a
# link that does not exist yet when the line is judged.
# Exit 1 while such a line is allowed and writes the ledger or a git hook; 0 when all are denied.
D=$(cd "$(dirname "$0")" && pwd); source "$D/common.inc"  # the scratch repository and `ask`
MK='mkdir -p .harness/local/d && ln -s "$PWD/.harness/local" .harness/local/d/s'
status=0
for CMD in "$MK && echo x >> .harness/local/d/s/../tasks/T/events.jsonl" \
           "$MK && git -C .harness/local/d/s/.. checkout HEAD~1 -- tasks/T/events.jsonl" \
           "$MK && cd -P .harness/local/d/s/.. && git checkout HEAD~1 -- tasks/T/events.jsonl" \
           "$MK && printf '#!/bin/sh\nexit 0\n' > .harness/local/d/s/../../.git/hooks/pre-commit"; do
  reset_ledger; rm -rf .harness/local/d; before=$(cat .git/hooks/pre-commit 2>/dev/null | md5sum)
  ans=$(ask "$CMD"); bash -c "$CMD" >/dev/null 2>&1
  ch=no; ledger_changed && ch=ledger; [ "$(cat .git/hooks/pre-commit 2>/dev/null | md5sum)" != "$before" ] && ch=hook
  echo "guard: $ans; changed: $ch   $CMD"
  [ "$ans" = allow ] && [ $ch != no ] && status=1
done
exit $status
