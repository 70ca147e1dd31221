#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# Claim 3: the redactor decodes quoted-printable runs and hex runs before matching. Common spellings
# of the same encodings are not decoded, so an own-rule secret (the AWS example key) survives in
# the command output the harness records (stdout_tail, the .log) and the commit check passes it:
#   - hex with the usual `0x` prefix (0x414b49...), or a hex run glued after a letter/digit
#   - quoted-printable in lower case (=4b, which quopri and mail clients decode)
#   - quoted-printable with a soft line break (`=\n`, how QP wraps every line over 76 chars)
#   - a QP-encoded secret with only one escaped character (AKIAIOSF=4FDNN7EXAMPLE)
# Controls: the plain key, its bare hex and its upper-case QP run are redacted.
# Exit 1 while any variant is kept in .harness/; 0 when fixed; 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
python3 - > "$T/variants" <<'PY'
s = "AKIAIOSFODNN7EXAMPLE"; h = s.encode().hex()
qp = "".join(f"={b:02X}" for b in s.encode())
print("CTRL " + s); print("CTRL " + h); print("CTRL " + qp)
print("LEAK 0x" + h)
print("LEAK g" + h)
print("LEAK " + qp.lower())
print("LEAK " + qp[:30] + "=")   # soft line break: the run continues on the next line
print(qp[30:])
print("LEAK AKIAIOSF=4FDNN7EXAMPLE")
PY
harness evidence unit_test -- cat "$T/variants" >/dev/null 2>&1 || exit 2
log=$(ls .harness/tasks/$TID/evidence/unit_test.log 2>/dev/null); rec=.harness/tasks/$TID/evidence/unit_test.json
[ -f "$rec" ] || exit 2
python3 - "$rec" "$T/variants" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); tail = d.get("stdout_tail") or ""
lines = open(sys.argv[2]).read().splitlines()
rc = 0
for line in lines:
    kept = line in tail.splitlines()
    print(("kept     " if kept else "redacted ") + line)
    if line.startswith("CTRL") and kept: print("setup: control kept"); sys.exit(2)
    if line.startswith("LEAK") and kept: rc = 1
print("stdout_tail:", tail)
sys.exit(rc)
PY
rc=$?
git add -A >/dev/null 2>&1; git commit -qm ev >/dev/null 2>&1 && echo "commit accepted"
exit $rc
