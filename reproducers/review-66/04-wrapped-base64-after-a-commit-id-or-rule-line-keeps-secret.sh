#!/usr/bin/env bash
# Defect: _WRAPPED (harness/core/redact.py) starts a block at any line of 16+ base64-alphabet characters, so a line
# printed just before a wrapped base64 block -- a commit id (`git rev-parse HEAD`, 40 hex digits) or a rule of
# dashes (`----------------------------------------`) -- is taken as the block's first line. The block joined then
# decodes to binary, _hides finds nothing (it drops only the LAST line, read 65's F-0212), and finditer resumes
# after the whole match, so the real block is never decoded joined; each line alone holds only half of
# `DB_PASSWORD=...` (split `DB_PASSWOR|D=Xy7...` at the 76-column wrap), and both lines are written verbatim.
# The same block printed without the line before it is redacted.
# Correct: the password in a wrapped base64 block is redacted whatever line precedes the block (the evidence log
# holds markers for its lines), and the commit check refuses a log that keeps it.
# Exit 1 while the password can be decoded from .harness/, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q -b main && harness init && harness install && harness task new t && echo a > a.txt && git add -A \
  && git commit -qm init ) >/dev/null 2>&1 || exit 2
command -v base64 >/dev/null || exit 2
printf 'APP_NAME=aaaaa\nDB_HOST=db.internal\nDB_USER=app\nDB_PASSWORD=Xy7Qm2Lp9Rt4Vb\n' > app.env
cat > dump.sh <<'EOF'
echo "config (base64) of the build at:"; git rev-parse HEAD; base64 app.env   # coreutils wraps at 76 columns
echo "----------------------------------------"; base64 app.env
EOF
git add -A && git commit -qm dump >/dev/null 2>&1 || exit 2
echo "--- what the command prints:"; sh dump.sh | sed 's/^/  /'
harness evidence unit_test -- sh dump.sh > "$T/out" 2>&1
LOG=$(ls .harness/tasks/*/evidence/unit_test.log 2>/dev/null) || { echo "setup: no log" >&2; cat "$T/out"; exit 2; }
echo "--- the evidence log:"; sed 's/^/  /' "$LOG"
echo "--- the same block alone, redacted:"
python - <<'EOF'
import subprocess
from harness.store.secrets_check import redactor
print("  " + redactor().redact(subprocess.run(["base64", "app.env"], capture_output=True, text=True).stdout).replace("\n", "\n  "))
EOF
decoded=$(python3 - "$LOG" <<'EOF'
import base64, re, sys
lines = open(sys.argv[1]).read().splitlines()
out = []
for a, b in zip(lines, lines[1:]):
    if re.fullmatch(r"[A-Za-z0-9+/]{76}", a) and re.fullmatch(r"[A-Za-z0-9+/]+=*", b):
        out.append(base64.b64decode(a + b).decode("latin1"))
print("\n".join(out))
EOF
)
echo "--- decoded from the log's kept lines:"; echo "$decoded" | grep -a PASSWORD | sed 's/^/  /'
git add -A .harness >/dev/null 2>&1
if git commit -qm evidence >/dev/null 2>&1; then committed=yes; else committed=no; fi
echo "--- commit of .harness/ accepted: $committed"
if echo "$decoded" | grep -q 'DB_PASSWORD=Xy7Qm2Lp9Rt4Vb'; then
  echo "DEFECT: the wrapped base64 block after a commit-id/dashes line keeps DB_PASSWORD (commit accepted: $committed)"; exit 1
fi
echo "ok: no password decodable from the log"; exit 0
