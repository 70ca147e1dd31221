#!/usr/bin/env bash
# Defect: a hex dump of two groups a row, or of one row, keeps a token in clear: `od -An -tx8` ("<16 digits> <16
#   digits>" a row), a Node.js Buffer as `util.inspect`/jest prints it (`<Buffer 41 75 74 68 ...>`, one line), and
#   Python's `bytes.hex(" ")` (one line of space-separated bytes). harness/core/hex_dumps.py: ROW needs a first word
#   and two more groups (`{2,}`), so a row of two 8-byte words is no row; runs()/_keep() keep only runs of two rows or
#   more, so a dump on one line is never read. The token is spelled in hex digits with spaces between them, which
#   neither the dump reader nor the contiguous-hex rule reads.
# Correct (docs/threat-model.md: a secret "spelled as ... hex digits" or "printed as a hex dump" is redacted): the
#   token is redacted in these dumps too.
# Exit 1 while the defect is present (a dump's token rows are recorded as printed), 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
command -v harness >/dev/null || { echo "setup: no harness in $here/.venv"; exit 2; }
# setup_repo: a harness repository whose unit_test evidence runs python3 ci/out.py
setup_repo() {
  ( git init -q -b main && mkdir .harness \
    && printf '%s\n' 'version: 1' 'evidence:' '  build:' '    command: ["true"]' '  unit_test:' '    command: ["python3", "ci/out.py"]' \
         > .harness/config.yaml \
    && harness init && harness install && harness task new t && git add -A && git commit -qm init ) \
    >/dev/null 2>&1 || { echo "setup failed"; exit 2; }
}
# record: run the evidence and print the recorded log's path
record() {
  harness evidence unit_test >/dev/null 2>&1 || { echo "setup: evidence failed"; exit 2; }
  log=$(ls .harness/tasks/*/evidence/unit_test.log 2>/dev/null | head -1)
  [ -n "$log" ] && grep -q "END-OF-OUTPUT" "$log" || { echo "setup: the output was not recorded"; exit 2; }
}
mkdir ci && cat > ci/out.py <<'PY'
import json, os
TOKEN = "ghp_x7Kq2MvR9tLw4ZpN8sYb3Hc6Jd1Fg5Ae0Ui9"
data = f"GET / HTTP/1.1\r\nAuthorization: Bearer {TOKEN}\r\nAccept: */*\r\n".encode()
at = data.index(TOKEN.encode()); span = range(at, at + len(TOKEN))
pr = lambda b: "".join(chr(c) if 32 <= c < 127 else "." for c in b)
rows = {}
def show(name, width, fmt):
    print(name + ":")
    lines = []
    for off in range(0, len(data), width):
        line = fmt(off, data[off:off + width])
        print(line)
        if any(off <= i < off + width for i in span):
            lines.append(line)
    rows[name] = lines
show("od -An -tx8", 16, lambda o, b: " " + " ".join(b[i:i + 8][::-1].hex() for i in range(0, len(b), 8)))
show("node Buffer", len(data), lambda o, b: "Expected: <Buffer " + " ".join(f"{c:02x}" for c in b) + ">")
show("bytes.hex(' ')", len(data), lambda o, b: "sent: " + b.hex(" "))
json.dump(rows, open(os.path.join(os.environ["HOME"], "rows"), "w"))
print("END-OF-OUTPUT")
PY
setup_repo
record
found=$(python3 - "$log" "$HOME/rows" <<'PY'
import json, sys
log = open(sys.argv[1], encoding="utf-8", errors="replace").read().splitlines()
rows = json.load(open(sys.argv[2], encoding="utf-8"))
# a shape keeps the token when every row spelling a byte of it is recorded as printed
print(", ".join(name for name, lines in rows.items() if all(line in log for line in lines)))
PY
)
if [ -n "$found" ]; then echo "DEFECT: the token is recorded in clear in the dumps of: $found"; exit 1; fi
echo "OK: no recorded dump spells the token"; exit 0
