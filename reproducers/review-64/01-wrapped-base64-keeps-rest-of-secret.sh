#!/usr/bin/env bash
# Defect: wrapped base64 (`base64`'s 76 columns) is decoded joined only after every line was decoded alone
# (redact.Redactor.redact: _BASE64.sub, then _WRAPPED.sub). When the first line alone already shows the secret's
# context and its first character (`...password=Z`), that line becomes [REDACTED:base64] and the block that
# _WRAPPED then sees starts at the next line, whose decoding (`q8vT3mW9xR2kL7pN4sB ...`) has no context left: the
# rest of the password stays in the log and the record, base64-encoded, and the commit check passes it. F-0166's
# fix (a secret straddling a wrap is decoded joined) does not cover the straddle it was meant for when the head of
# the line already names it.
# Correct: no line of the block that decodes to part of the secret is kept (the block is decoded joined, from its
# first line, before or instead of line by line).
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
# 57 bytes per 76-column line: `password=Z` ends the first line, the other 19 characters open the second
printf '#######connection settings for the staging db: password=%s (rotate monthly)\n' "$PW" > settings.txt
[ "$(head -c 57 settings.txt | tail -c 10)" = "password=Z" ] || { echo "setup: layout" >&2; exit 2; }
harness evidence custom.encoded -- base64 settings.txt >/dev/null 2>&1 || { echo "setup: evidence refused" >&2; exit 2; }
echo "recorded log:"; sed 's/^/  /' "$EV/custom.encoded.log"
leak=$(grep -v '^\[REDACTED' "$EV/custom.encoded.log" | base64 -d 2>/dev/null | tr -d '\0')
echo "what the kept lines decode to: $leak"
git add -A; git commit -qm evidence >/dev/null 2>&1 && echo "commit check: passed"
case "$leak" in *"${PW:1}"*) echo "DEFECT: 19 of the password's 20 characters are in .harness/ (base64)"; exit 1;; esac
echo "ok: no part of the password is kept"; exit 0
