#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# Found by the suite's property test (tests/test_secrets_committed.py, hypothesis): an AWS key id split by a
# colour code right after its first letter, behind "=b" (`=bA<ESC>[31mKIA…`). A terminal shows `=bAKIA…`,
# the key whole. The redactor's view removes the colour code and decodes quoted-printable in the same round,
# so `=bA` is read as the byte 0xBA and the key's `A` goes with it: `AKIA…` is never seen, and the key is
# kept in evidence, the ledger and what reaches the remote.
# Exit 1 while the key survives redaction; 0 when it is redacted.
out=$(python - <<'PY'
from harness.core.redact import compile_patterns
print(compile_patterns([]).redact("see =bA\x1b[31mKIA222222222234567B here"))
PY
) || exit 2
echo "redacted: $out"
case "$out" in *234567B*) exit 1;; *) exit 0;; esac
