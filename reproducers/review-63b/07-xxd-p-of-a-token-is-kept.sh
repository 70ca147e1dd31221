#!/usr/bin/env bash
# Defect (F-0155/F-0158's hex decoding is incomplete): core/redact.py decodes a run of hex digits (_HEX) and redacts
# it whole when its text holds a secret -- the CHANGELOG names `xxd -p` as the case. But `xxd -p` writes 30 bytes a
# line, and a GitHub token is 40: each line is decoded alone, neither half is a token, and the whole hex dump of the
# token is kept in the evidence record and log, and committed. (Plain `xxd` and `hexdump -C` are the same.)
# Correct: hex (and base64) broken over lines is read across its line breaks; no part of the token's encoding is kept.
# Exit 1 while the token's hex is kept, 0 when redacted, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME" "$T/repo"; cd "$T/repo" || exit 2
command -v xxd >/dev/null || { echo "setup: no xxd" >&2; exit 2; }
( git init -q && echo a > a && git add -A && git commit -qm init \
  && harness init && harness install && git add -A && git commit -qm harness && harness task new t ) >/dev/null 2>&1 || exit 2
TOKEN=ghp_Ab3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6
printf '%s\n' "$TOKEN" > "$T/token.txt"
harness evidence integration_test -- xxd -p "$T/token.txt" >/dev/null 2>&1 || exit 2
git add -A >/dev/null 2>&1; git commit -qm evidence >/dev/null 2>&1 && committed=yes || committed=no
kept=$(python -c "
import json,glob,sys
rec = json.load(open(glob.glob('.harness/tasks/*/evidence/integration_test.json')[0]))
print(rec['stdout_tail'], end='')")
echo "stdout_tail recorded:"; echo "$kept"
decoded=$(printf '%s' "$kept" | tr -d '\n' | xxd -r -p 2>/dev/null)
if [ "$decoded" = "$TOKEN" ]; then echo "DEFECT: it decodes to the token (commit accepted: $committed)"; exit 1; fi
echo "the token's hex is not kept"; exit 0
