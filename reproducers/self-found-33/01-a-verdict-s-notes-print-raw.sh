#!/usr/bin/env bash
# Defect (harness/history/audit_fanout.py _judge, harness/cli/audit.py _aggregate): the notes of a fan-out job's
# verdict file are printed by `harness audit --aggregate` as they are, control characters and line breaks included:
# a forged verdict's note can end the line and print a line of the aggregate's own ("harness: audit: 2 planned
# commit(s) reproduced, 0 refused, 0 without a verdict") or terminal escapes to whoever reads the CI log (read 173's
# note). Each note is also looked for in a list, once per note: a verdict of 10^5 notes costs 10^10 comparisons.
# Correct: a note is printed on its one line, its control characters shown escaped, each said once.
# Exit 1 while the defect is present, 0 when fixed, 2 on a setup failure.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
python - <<'PY' || exit $?
import sys
from pathlib import Path
try:
    from harness.history.audit_fanout import Aggregate, _judge
except ImportError as exc:
    print(f"setup failed: {exc}"); sys.exit(2)
forged = "the fingerprint stops\nharness: audit: 2 planned commit(s) reproduced, 0 refused, 0 without a verdict\x1b[2K"
doc = {"rerun_only": "a" * 40, "results": [{"commit": "a" * 40, "ok": True, "reruns": []}], "range": {},
       "failed": 0, "history": [], "could_not_run": 0, "notes": [forged]}
out = Aggregate()
_judge("a" * 40, [(Path("v.json"), doc)], out)
bad = [n for n in out.notes if "\n" in n or "\x1b" in n]
if bad:
    print(f"defect: a verdict's note reaches the output with a line break or an escape: {bad[0]!r}")
    sys.exit(1)
print("ok: the note is kept on its one line, escaped")
PY
