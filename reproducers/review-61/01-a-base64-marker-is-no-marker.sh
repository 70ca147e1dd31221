#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# Read 61, of F-0142's fix (harness/core/redact.py _OTHER_LABELS / _label_span): `base64` is listed as a label the
# harness writes, but _MARKER (`\[REDACTED:[a-z_]+(?::\w+)?\]`, like _MARKERS_ONLY and secrets_check's
# _WHOLE_MARKER) takes no digit in a label, so `[REDACTED:base64]` -- the marker Redactor._encoded writes for a
# base64 run that hides a secret -- is never recognised as a marker: a project pattern that matches `REDACTED` (or
# `base64`) rewrites it. Redacted a second time it reads `[[REDACTED:custom]:base64]` (nested markers; not the same
# text redacted again), and the store's own check then takes the harness's marker for a secret: `harness evidence`
# of a command that prints a base64-encoded `password=...` is refused ("line N holds a secret (custom) ... a
# harness bug"), nothing recorded. Control: the same secret printed plain is recorded.
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
export GIT_CONFIG_GLOBAL=/dev/null GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q && echo a > a.txt && git add -A && git commit -qm init && harness init && harness install \
  && harness task new t ) >/dev/null 2>&1 || exit 2
python - <<'PY' || exit 2
import re
p = ".harness/config.yaml"; s = open(p).read()
s2 = re.sub(r"redaction:\n  patterns: .*", "redaction:\n  patterns: ['[A-Z0-9]{8}']", s)  # e.g. 8-character licence codes
assert s2 != s
open(p, "w").write(s2)
PY
( git add -A && git commit -qm harness ) >/dev/null 2>&1 || { echo "setup: commit of the pattern refused" >&2; exit 2; }
rc=0
python - <<'PY' || rc=1
import sys
from harness.store.secrets_check import redactor
red = redactor(["[A-Z0-9]{8}"])
once = red.redact("blob cGFzc3dvcmQ9aHVudGVyMnh5eg== end")   # base64 of password=hunter2xyz
twice = red.redact(once)
print(f"redacted once: {once!r}; again: {twice!r}")
sys.exit(0 if once == twice else 1)
PY
export BLOB_TEXT="pass""word=hunter2xyz"
harness evidence unit_test -- python -c "import os; print('blob', os.environ['BLOB_TEXT'])" >/dev/null 2>&1 \
  || { echo "setup: the control (the secret printed plain) is refused" >&2; exit 2; }
echo "control: the secret printed plain: evidence recorded"
out=$(harness evidence unit_test -- python -c "import base64, os; print('blob', base64.b64encode(os.environ['BLOB_TEXT'].encode()).decode())" 2>&1)
e=$?
if [ $e -ne 0 ]; then
  echo "printed base64-encoded: harness evidence exit $e: $(printf '%s\n' "$out" | grep -m1 -o 'refusing to write.*holds a secret[^;]*' | sed 's/TASK-[^/]*/TASK-…/')"
  rc=1
else
  echo "printed base64-encoded: evidence recorded"
fi
if grep -rqF "hunter2xyz" .harness; then echo "and the secret is in clear under .harness/"; rc=1; fi
exit $rc
