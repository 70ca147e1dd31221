#!/usr/bin/env bash
# Defect: a hex dump whose rows carry a log prefix with a time (Python logging's `2024-05-01 10:00:00,123 DEBUG`,
#   syslog/journal's `May 01 10:00:00 host app[1]:`, `[2024-05-01 10:00:00]`, `10:00:00.123`) keeps a token in clear,
#   in both columns. harness/core/hex_dumps.py: ROW now accepts an offset or group followed by ONE more group
#   (`(?:sep group)+`, was `{2,}`), so `ROW.search` in runs() first matches the time's digits (`01 10`, `123 0000`);
#   runs() reads only that first match of a line, `_groups()` rejects it (`10:00:00,123` is no group), and the
#   whole line is taken for no row, though the dump follows on it. At 5e533b1f (before b9230eda) the same rows were
#   read and the dump replaced; this is a regression of the read-139 fix (F-0494/F-0495).
# Correct (docs/threat-model.md: a secret "printed as a hex dump" is redacted): the rows spelling the token are
#   replaced by [REDACTED:hexdump] whatever prefix a logger puts before each row.
# Exit 1 while the defect is present (a prefixed dump's token rows are recorded as printed), 0 when fixed, 2 on
#   setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
command -v harness >/dev/null || { echo "setup: no harness in $here/.venv"; exit 2; }
setup_repo() {
  ( git init -q -b main && mkdir .harness \
    && printf '%s\n' 'version: 1' 'evidence:' '  build:' '    command: ["true"]' '  unit_test:' '    command: ["python3", "ci/out.py"]' \
         > .harness/config.yaml \
    && harness init && harness install && harness task new t && git add -A && git commit -qm init ) \
    >/dev/null 2>&1 || { echo "setup failed"; exit 2; }
}
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
asc = lambda b: "".join(chr(c) if 32 <= c < 127 else "." for c in b)
hexC = lambda o, b: (f"{o:08x}  " + " ".join(f"{c:02x}" for c in b[:8]) + "  " + " ".join(f"{c:02x}" for c in b[8:])
                     + "  |" + asc(b) + "|")
xxd = lambda o, b: f"{o:08x}: " + " ".join(b[i:i + 2].hex() for i in range(0, len(b), 2)) + "  " + asc(b)
rows = {}
for pname, prefix in [("python logging", "2024-05-01 10:00:0{s},123 DEBUG wire: "),
                      ("journal", "May 01 10:00:0{s} ci-runner app[4242]: "),
                      ("bracketed time", "[2024-05-01 10:00:0{s}] ")]:
    for fname, fmt in [("hexdump -C", hexC), ("xxd", xxd)]:
        name = f"{pname} + {fname}"
        print(name + ":")
        kept = []
        for off in range(0, len(data), 16):
            line = prefix.format(s=off // 16 % 10) + fmt(off, data[off:off + 16])
            print(line)
            if any(off <= i < off + 16 for i in span):
                kept.append(line)
        rows[name] = kept
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
print("; ".join(name for name, lines in rows.items() if all(line in log for line in lines)))
PY
)
if [ -n "$found" ]; then echo "DEFECT: the token is recorded in clear in the dumps of: $found"; exit 1; fi
echo "OK: no recorded dump spells the token"; exit 0
