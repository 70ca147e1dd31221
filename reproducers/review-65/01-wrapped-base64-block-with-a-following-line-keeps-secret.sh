#!/usr/bin/env bash
# Defect: F-0203's fix decodes a block of wrapped base64 lines joined (redact._WRAPPED/_wrapped), but the block the
# regex takes runs on over ANY following short word line (`done`, `OK`, the next command's output). When base64's
# last line ends in `=` padding, the joined text holds `=` mid-run, _BASE64.fullmatch fails, the block is returned
# unchanged, and the lines are then decoded one by one: the first line (`...password=Z`) is hidden, the second
# keeps 19 of the password's 20 characters, base64-encoded, in the evidence log; the commit check passes it.
# `base64 settings.txt; echo done` is enough.
# Correct: the wrapped block is decoded joined whatever line follows it (the block ends at the padding, or a
# non-decoding tail is dropped), so no line decoding to part of the secret is kept.
# Exit 1 while the recorded log still decodes to the password's tail, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q -b main && harness init && harness install && harness task new t && echo a > a.txt && git add -A \
  && git commit -qm init ) >/dev/null 2>&1 || exit 2
TID=$(ls .harness/tasks) || exit 2; EV=.harness/tasks/$TID/evidence
PW=Zq8vT3mW9xR2kL7pN4sB
printf '#######connection settings for the staging db: password=%s (rotate monthly)\n' "$PW" > settings.txt
[ "$(head -c 57 settings.txt | tail -c 10)" = "password=Z" ] || { echo "setup: layout" >&2; exit 2; }
harness evidence custom.encoded -- sh -c 'base64 settings.txt; echo done' >/dev/null 2>&1 \
  || { echo "setup: evidence refused" >&2; exit 2; }
echo "recorded log:"; sed 's/^/  /' "$EV/custom.encoded.log"
leak=$(grep -v -e '^\[REDACTED' -e '^done' -e '^\[harness' "$EV/custom.encoded.log" | base64 -d 2>/dev/null | tr -d '\0')
echo "what the kept lines decode to: $leak"
git add -A; git commit -qm evidence >/dev/null 2>&1 && echo "commit check: passed"
case "$leak" in *"${PW:1}"*) echo "DEFECT: 19 of the password's 20 characters are in .harness/ (base64)"; exit 1;; esac
echo "ok: no part of the password is kept"; exit 0
