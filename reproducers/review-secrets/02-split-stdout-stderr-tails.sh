#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# A command writes a GitHub token's first half to stdout and its second half to stderr (as a terminal
# shows it: one line). The combined build.log is redacted, but the evidence JSON's stdout_tail and
# stderr_tail are redacted one stream at a time (outputcut.tail_text), so neither half matches a rule and
# the committed build.json holds the whole token in two adjacent fields.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
TOK=ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8
cat > "$T/split.py" <<PY
import os, time
t = "$TOK"
os.write(1, t[:20].encode()); time.sleep(0.3); os.write(2, t[20:].encode() + b"\n")
PY
harness evidence build -- python "$T/split.py" >/dev/null 2>&1 || exit 2
J=$(ls .harness/tasks/*/evidence/build.json) || exit 2
grep -q "${TOK:0:20}" .harness/tasks/*/evidence/build.log && { echo "setup: log itself not redacted" >&2; exit 2; }
python - "$J" "$TOK" <<'PY'
import json, sys
r = json.load(open(sys.argv[1])); tok = sys.argv[2]
print("stdout_tail:", repr(r["stdout_tail"])); print("stderr_tail:", repr(r["stderr_tail"]))
if tok[:20] in r["stdout_tail"] and tok[20:] in r["stderr_tail"]:
    print("DEFECT: both halves of the token are in the committed evidence JSON"); sys.exit(1)
sys.exit(0)
PY
