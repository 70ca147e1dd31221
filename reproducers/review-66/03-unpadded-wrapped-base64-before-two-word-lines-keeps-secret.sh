#!/usr/bin/env bash
# Defect: read 65's F-0212 fix ends a wrapped block at its padding and otherwise retries the block without its LAST
# line only (Redactor._wrapped). A block whose length needs no padding (a file of 3n bytes) runs on over every
# following line that fits the alphabet: `Done` and `PASSED` printed after `base64 app.env` are both joined into
# it, the block without one of them still decodes to binary, and its two lines (the first ending in
# `DB_PASSWORD=`, the second starting with its value, split at the 76-column wrap) are written to the evidence log verbatim. The same block followed
# by one such line, or none, is redacted.
# Correct: the password in the wrapped block is redacted whatever lines follow it, and the commit check refuses a
# log that keeps it.
# Exit 1 while the password can be decoded from .harness/, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q -b main && harness init && harness install && harness task new t && echo a > a.txt && git add -A \
  && git commit -qm init ) >/dev/null 2>&1 || exit 2
command -v base64 >/dev/null || exit 2
printf 'APP_NAME=aaa\nDB_HOST=db.internal\nDB_USER=app\nDB_PASSWORD=Xy7Qm2Lp9Rt4Vb\n' > app.env   # 63 bytes: no padding
cat > dump.sh <<'EOF'
base64 app.env            # coreutils wraps at 76 columns
echo Done
echo PASSED
EOF
git add -A && git commit -qm dump >/dev/null 2>&1 || exit 2
echo "--- what the command prints:"; sh dump.sh | sed 's/^/  /'
harness evidence unit_test -- sh dump.sh > "$T/out" 2>&1
LOG=$(ls .harness/tasks/*/evidence/unit_test.log 2>/dev/null) || { echo "setup: no log" >&2; cat "$T/out"; exit 2; }
echo "--- the evidence log:"; sed 's/^/  /' "$LOG"
echo "--- the same block followed by one word line, redacted:"
python - <<'EOF'
import subprocess
from harness.store.secrets_check import redactor
print("  " + redactor().redact(subprocess.run(["base64", "app.env"], capture_output=True, text=True).stdout + "Done\n").replace("\n", "\n  "))
EOF
decoded=$(python3 - "$LOG" <<'EOF'
import base64, re, sys
lines = open(sys.argv[1]).read().splitlines()
for a, b in zip(lines, lines[1:]):
    if re.fullmatch(r"[A-Za-z0-9+/]{76}", a) and re.fullmatch(r"[A-Za-z0-9+/]{4,}", b):
        print(base64.b64decode(a + b).decode("latin1"))
EOF
)
echo "--- decoded from the log's kept lines:"; echo "$decoded" | grep -a PASSWORD | sed 's/^/  /'
git add -A .harness >/dev/null 2>&1
if git commit -qm evidence >/dev/null 2>&1; then committed=yes; else committed=no; fi
echo "--- commit of .harness/ accepted: $committed"
if echo "$decoded" | grep -q 'DB_PASSWORD=Xy7Qm2Lp9Rt4Vb'; then
  echo "DEFECT: an unpadded wrapped block before two word lines keeps DB_PASSWORD (commit accepted: $committed)"; exit 1
fi
echo "ok: no password decodable from the log"; exit 0
