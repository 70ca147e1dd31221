#!/usr/bin/env bash
# Defect: a secret a command prints as a hex DUMP (the shape `xxd FILE`, `hexdump -C FILE`, `od -An -tx1`, a test's
#   debug dump of a request body) is kept in the evidence log and JSON tail, committed, and let through by the commit
#   hook and the push guard. harness/core/redact.py decodes a contiguous run of hex digits (`xxd -p`, `.hex()`: fixed
#   as review-secrets' 03), but a dump spells the same bytes in groups ("6768 705f" / "67 68 70 5f") after an offset
#   column, and its ASCII column shows the token itself cut into 16-byte pieces on consecutive lines
#   (`|earer ghp_x7Kq2M|`, `|vR9tLw4ZpN8sYb3H|`, ...): no rule sees the token in either column. The committed log
#   turns back into the token with `xxd -r` (done here in Python). docs/threat-model.md says secrets "spelled as ...
#   hex digits" are redacted before any output reaches disk.
# Correct: the token is redacted (in the hex column and the ASCII column) before the log and the record are written,
#   or the commit / push check refuses the file; nothing on the remote decodes to the token.
# Exit 1 while the defect is present (the token is recoverable from what the remote holds), 0 when fixed, 2 on setup
# failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
TOKEN=ghp_x7Kq2MvR9tLw4ZpN8sYb3Hc6Jd1Fg5Ae0Ui9      # a GitHub token: a format the own rules know
printf 'Authorization: Bearer %s\r\n' "$TOKEN" > "$HOME/request.bin"   # read from a file: no secret-named variable
# The test prints the request it sent as xxd and as hexdump -C would (written in Python: the same text, no tool needed).
mkdir ci && cat > ci/dump.py <<'PY'
import os, sys
data = open(os.path.join(os.environ["HOME"], "request.bin"), "rb").read()
print("request sent (xxd):")
for off in range(0, len(data), 16):
    row = data[off:off + 16]
    groups = " ".join(row[i:i + 2].hex() for i in range(0, len(row), 2))
    text = "".join(chr(b) if 32 <= b < 127 else "." for b in row)
    print(f"{off:08x}: {groups:<39}  {text}")
print("request sent (hexdump -C):")
for off in range(0, len(data), 16):
    row = data[off:off + 16]
    left = " ".join(f"{b:02x}" for b in row[:8]); right = " ".join(f"{b:02x}" for b in row[8:])
    text = "".join(chr(b) if 32 <= b < 127 else "." for b in row)
    print(f"{off:08x}  {left:<23}  {right:<23}  |{text}|")
sys.exit(0)
PY
git init -q --bare "$T/remote.git" || exit 2
( git init -q -b main && git remote add origin "$T/remote.git" && mkdir .harness \
  && printf '%s\n' 'version: 1' 'evidence:' '  build:' '    command: ["true"]' '  unit_test:' '    command: ["python3", "ci/dump.py"]' \
       > .harness/config.yaml \
  && harness init && harness install && harness task new t && git add -A && git commit -qm init && git push -q origin main ) \
  >/dev/null 2>&1 || { echo "setup failed"; exit 2; }
harness evidence unit_test >/dev/null 2>&1 || { echo "setup: evidence failed"; exit 2; }
grep -q "request sent" .harness/tasks/*/evidence/unit_test.log || { echo "setup: the output was not recorded"; exit 2; }
git add -A && git commit -qm "unit_test evidence" >/dev/null 2>&1 || echo "commit refused (hook)"
git push -q origin main >/dev/null 2>&1 || echo "push refused (guard)"
# Everything the remote holds, decoded as xxd -r / a reader of the ASCII column would.
found=$(git --git-dir "$T/remote.git" rev-list --objects --all | cut -d' ' -f1 | while read -r o; do
  git --git-dir "$T/remote.git" cat-file -p "$o" 2>/dev/null; done | python3 -c '
import re, sys, json
text = sys.stdin.read()
# JSON string values hold the tails with escapes: read them as the text they stand for too
texts = [text] + [json.loads(m) for m in re.findall(r"\"(?:[^\"\\\\]|\\\\.)*\"", text) if "\\n" in m]
token = sys.argv[1]
hits = []
for t in texts:
    hexes, ascii_cols = [], []
    for line in t.splitlines():
        m = re.match(r"^[0-9a-f]{8}:? +((?:[0-9a-f]{2,4} ?)+)", line)
        if m:
            hexes.append(re.sub(r"[^0-9a-f]", "", m.group(1)))
        m = re.search(r"\|([^|]{1,16})\|\s*$", line)
        if m:
            ascii_cols.append(m.group(1))
    try:
        if token in bytes.fromhex("".join(hexes)).decode("latin-1"):
            hits.append("hex column")
    except ValueError:
        pass
    if token in "".join(ascii_cols):
        hits.append("ascii column")
print(" ".join(sorted(set(hits))))
' "$TOKEN")
[ -n "$(git --git-dir "$T/remote.git" rev-parse -q --verify refs/heads/main)" ] || { echo "setup: nothing pushed"; exit 2; }
if [ -n "$found" ]; then
  echo "DEFECT: the token is recoverable from the remote's objects ($found of the dump)"; exit 1
fi
echo "OK: no dump on the remote decodes to the token"; exit 0
