#!/usr/bin/env bash
# Defect: a hex dump whose lines do not start the text's lines keeps a token in clear. hex_dumps.BLOCK requires each
#   dump line to begin a line of the text (`^[ \t]*(?:0x)?OFFSET`), and Redactor.redact runs it only on the text as
#   written. `go test -json` (and any JSON-lines test reporter) wraps every line a test prints in a record:
#   {"Action":"output","Package":"x","Output":"00000010: 6561 7265 7220 6768 705f ...  earer ghp_x7Kq2M\n"} - the
#   dump's lines are still consecutive lines, but each starts with `{"Action"`, so no block is found; the characters
#   columns keep the token in 16-byte pieces and the hex columns spell it whole. The same holds for a dump a JSON
#   report keeps in one string with `\n` escapes ({"stdout": "00000000: ...\n00000010: ..."}).
# Correct (docs/threat-model.md: a hex dump's lines are read together, "inside JSON-escaped text" too): the token is
#   redacted; no recorded line, read as the JSON it is, spells it.
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
import json, os
data = open(os.path.join(os.environ["HOME"], "request.bin"), "rb").read()
pr = lambda r: "".join(chr(b) if 32 <= b < 127 else "." for b in r)
lines = []
for off in range(0, len(data), 16):
    r = data[off:off + 16]
    lines.append(f"{off:08x}: {' '.join(r[i:i + 2].hex() for i in range(0, len(r), 2)):<39}  {pr(r)}\n")
for line in lines:  # go test -json: one record per line the test printed
    print(json.dumps({"Action": "output", "Package": "example.com/x", "Test": "TestDump", "Output": line}))
print(json.dumps({"Test": "TestDump", "stdout": "".join(lines)}))  # a JSON report's captured stdout
PY
setup_repo
harness evidence unit_test >/dev/null 2>&1 || { echo "setup: evidence failed"; exit 2; }
log=$(ls .harness/tasks/*/evidence/unit_test.log 2>/dev/null | head -1)
[ -n "$log" ] && grep -q "TestDump" "$log" || { echo "setup: the output was not recorded"; exit 2; }
found=$(python3 - "$log" "$TOKEN" <<'PY'
import json, re, sys
token = sys.argv[2].encode()
outputs, reports = [], []
for line in open(sys.argv[1], encoding="utf-8", errors="replace"):
    try:
        rec = json.loads(line)
    except ValueError:
        continue
    if "Output" in rec: outputs.append(rec["Output"])
    if "stdout" in rec: reports.append(rec["stdout"])
def spelled(text):  # the dump's 4-digit groups, in order (a rule that took a line's offset leaves its groups)
    return bytes.fromhex("".join(re.findall(r"(?<![0-9A-Za-z])[0-9a-f]{4}(?![0-9A-Za-z])", text)))
hits = [name for name, text in (("go test -json records", "".join(outputs)), ("JSON report string", "".join(reports)))
        if token in spelled(text)]
print(", ".join(hits))
PY
)
if [ -n "$found" ]; then echo "DEFECT: the token is spelled by the recorded dump in: $found"; exit 1; fi
echo "OK: no recorded dump spells the token"; exit 0
