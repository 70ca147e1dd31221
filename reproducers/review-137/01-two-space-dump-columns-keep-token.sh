#!/usr/bin/env bash
# Defect: a hex dump whose columns are set apart by TWO spaces keeps a token in clear. harness/core/hex_dumps.py
#   _groups() reads a line without `|` only up to its first run of two spaces (`re.split(r" {2,}", ..., maxsplit=1)[0]`),
#   taking that as where xxd's characters column starts. But tcpdump -X ("\t0x0010:  4175 7468 ...  Auth..."),
#   tshark/Wireshark -x ("0010  41 75 74 68 ...   Auth...") put two spaces right after the offset, and Python's
#   `hexdump` module ("00000010: 41 75 74 68 41 41 41 41  41 41 ...  Auth...") two spaces between the 8-byte halves:
#   the line is read as no dump's (tcpdump, tshark) or as its first eight bytes only (hexdump module), so the bytes
#   the redactor reads never hold the token, and the characters column keeps it in 16-byte pieces.
# Correct (docs/threat-model.md: a secret "printed as a hex dump ... its lines are read together and replaced line for
#   line, both columns"): the token is redacted in such dumps too; no line of the recorded log spells it.
# Exit 1 while the defect is present (the token is rebuilt from the evidence log's dump lines), 0 when fixed, 2 on
# setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
# setup_repo CMD...: a harness repository whose unit_test evidence runs python3 ci/out.py, pushed to a bare remote
setup_repo() {
  git init -q --bare "$T/remote.git" || exit 2
  ( git init -q -b main && git remote add origin "$T/remote.git" && mkdir .harness \
    && printf '%s\n' 'version: 1' 'evidence:' '  build:' '    command: ["true"]' '  unit_test:' '    command: ["python3", "ci/out.py"]' \
         > .harness/config.yaml \
    && harness init && harness install && harness task new t && git add -A && git commit -qm init && git push -q origin main ) \
    >/dev/null 2>&1 || { echo "setup failed"; exit 2; }
}
TOKEN=ghp_x7Kq2MvR9tLw4ZpN8sYb3Hc6Jd1Fg5Ae0Ui9
printf 'GET / HTTP/1.1\r\nAuthorization: Bearer %s\r\nAccept: */*\r\n' "$TOKEN" > "$HOME/request.bin"
mkdir ci && cat > ci/out.py <<'PY'
import os
data = open(os.path.join(os.environ["HOME"], "request.bin"), "rb").read()
pr = lambda r: "".join(chr(b) if 32 <= b < 127 else "." for b in r)
print("tcpdump -X:")
for off in range(0, len(data), 16):
    r = data[off:off + 16]
    print(f"\t0x{off:04x}:  {' '.join(r[i:i + 2].hex() for i in range(0, len(r), 2)):<39}  {pr(r)}")
print("tshark -x:")
for off in range(0, len(data), 16):
    r = data[off:off + 16]
    print(f"{off:04x}  {' '.join(f'{b:02x}' for b in r):<47}   {pr(r)}")
print("python hexdump module:")
for off in range(0, len(data), 16):
    r = data[off:off + 16]
    h = " ".join(f"{b:02X}" for b in r)
    line = f"{off:08X}: " + h[:24] + (" " + h[24:] if len(r) > 8 else "")
    print(line + " " * (2 + 3 * (16 - len(r)) + (1 if len(r) <= 8 else 0)) + pr(r))
print("done")
PY
setup_repo
harness evidence unit_test >/dev/null 2>&1 || { echo "setup: evidence failed"; exit 2; }
log=$(ls .harness/tasks/*/evidence/unit_test.log 2>/dev/null | head -1)
[ -n "$log" ] && grep -q "python hexdump module" "$log" || { echo "setup: the output was not recorded"; exit 2; }
found=$(python3 - "$log" "$TOKEN" <<'PY'
import re, sys
text, token = open(sys.argv[1], encoding="utf-8", errors="replace").read(), sys.argv[2]
hits = []
for name, start, end in (("tcpdump -X", "tcpdump -X:", "tshark -x:"), ("tshark -x", "tshark -x:", "python hexdump module:"),
                         ("python hexdump", "python hexdump module:", "done")):
    part = text.split(start, 1)[1].split(end, 1)[0]
    hexes, chars = "", ""
    for line in part.strip("\n").splitlines():
        body = line[:-16] if len(line) > 16 else ""  # full lines: the characters column is the last 16
        words = body.split()
        if len(words) < 2:
            continue
        hexes += "".join(w for w in words[1:] if re.fullmatch(r"[0-9A-Fa-f]{2,4}", w)); chars += line[-16:]
    try:
        in_hex = token.encode() in bytes.fromhex(hexes)
    except ValueError:
        in_hex = False
    if in_hex or token[4:] in chars.replace("\n", ""):
        hits.append(name)
print(", ".join(hits))
PY
)
if [ -n "$found" ]; then echo "DEFECT: the token is spelled by the recorded dump lines of: $found"; exit 1; fi
echo "OK: no recorded dump spells the token"; exit 0
