#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# The redactor decodes %XX, \uXXXX, \xNN, octal escapes and base64 (two levels) before matching, but not
# HTML/XML numeric character references (&#103;&#104;&#112;... as an HTML test report or templating
# prints them), nor hex (xxd -p, od, a hexdump of a request), nor quoted-printable (=67=68=70...).
# A GitHub token or a secret-named variable's value printed in these forms lands verbatim-recoverable
# in the committed evidence log and JSON tail.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
TOK=ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8
export MY_API_TOKEN=Zq9xW2vB7nM4kL8p
cat > "$T/enc.py" <<'PY'
import os, sys
for s in (sys.argv[1], os.environ["MY_API_TOKEN"]):
    print("html:", "".join("&#%d;" % ord(c) for c in s))
    print("hex:", s.encode().hex())
    print("qp:", "".join("=%02X" % ord(c) for c in s))
PY
harness evidence build -- python "$T/enc.py" "$TOK" >/dev/null 2>&1 || exit 2
E=.harness/tasks/$TID/evidence
fail=0
for s in "$TOK" "$MY_API_TOKEN"; do
  for form in "$(python -c 'import sys;print("".join("&#%d;"%ord(c) for c in sys.argv[1]))' "$s")" \
              "$(python -c 'import sys;print(sys.argv[1].encode().hex())' "$s")" \
              "$(python -c 'import sys;print("".join("=%02X"%ord(c) for c in sys.argv[1]))' "$s")"; do
    if grep -qF -- "$form" "$E/build.log" "$E/build.json"; then echo "leaked: ${form:0:40}..."; fail=1; fi
  done
done
[ $fail = 1 ] && { echo "DEFECT: encoded secrets recorded unredacted"; exit 1; }
exit 0
