#!/usr/bin/env bash
# Defect: a hex dump of 32-bit little-endian words keeps a token in clear. harness/core/hex_dumps.py spelled() reads
#   the groups as written, and swapped only "when every group is a 16-bit word" (hexdump without -C). `xxd -e`
#   ("00000000: 20544547 54482f2f ...  GET //HT...") and `od -tx4` / `od -X` ("0000000 20544547 ...") print 32-bit
#   words little-endian, so the bytes the redactor reads are the token reversed four bytes at a time and no rule
#   knows them; `od -tx8` (16-digit groups) is not even read as a dump (_HEX_GROUP takes 1 to 4 bytes). xxd -e's
#   characters column still shows the token in 16-byte pieces. `xxd -r -e`, or reversing each word, gives it back.
# Correct (docs/threat-model.md: a secret printed as a hex dump, xxd's included, is redacted): words of 4 (and 8)
#   bytes are read swapped too, as 16-bit words are; the recorded log spells no token.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
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
pad = data + b"\0" * (-len(data) % 8)
pr = lambda r: "".join(chr(b) if 32 <= b < 127 else "." for b in r)
print("xxd -e:")
for off in range(0, len(data), 16):
    r = data[off:off + 16]
    words = " ".join(r[i:i + 4][::-1].hex().rjust(8) for i in range(0, len(r), 4))
    print(f"{off:08x}: {words:<35}  {pr(r)}")
for width, name in ((4, "od -tx4:"), (8, "od -tx8:")):
    print(name)
    for off in range(0, len(pad), 16):
        print(f"{off:07o} " + " ".join(pad[i:i + width][::-1].hex() for i in range(off, off + 16, width)))
print("done")
PY
setup_repo
harness evidence unit_test >/dev/null 2>&1 || { echo "setup: evidence failed"; exit 2; }
log=$(ls .harness/tasks/*/evidence/unit_test.log 2>/dev/null | head -1)
[ -n "$log" ] && grep -q "od -tx8:" "$log" || { echo "setup: the output was not recorded"; exit 2; }
found=$(python3 - "$log" "$TOKEN" <<'PY'
import re, sys
text, token = open(sys.argv[1], encoding="utf-8", errors="replace").read(), sys.argv[2].encode()
hits = []
for name, start, end, width in (("xxd -e", "xxd -e:", "od -tx4:", 8), ("od -tx4", "od -tx4:", "od -tx8:", 8),
                                ("od -tx8", "od -tx8:", "done", 16)):
    data = b""
    for line in text.split(start, 1)[1].split(end, 1)[0].strip("\n").splitlines():
        for w in line.split()[1:]:
            if re.fullmatch(r"[0-9a-f]{%d}" % width, w):
                data += bytes.fromhex(w)[::-1]  # the words, little-endian, back to the bytes they are
    if token in data:
        hits.append(name)
print(", ".join(hits))
PY
)
if [ -n "$found" ]; then echo "DEFECT: the token is spelled by the recorded little-endian dump of: $found"; exit 1; fi
echo "OK: no recorded dump spells the token"; exit 0
