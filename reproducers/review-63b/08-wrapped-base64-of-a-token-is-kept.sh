#!/usr/bin/env bash
# Defect: core/redact.py decodes a base64 run (_BASE64) and redacts it whole when its text holds a secret, but a run
# ends at a line break, and base64(1) (like MIME, openssl base64, PEM-style tools) wraps at 76 columns. A
# ~/.git-credentials line `https://USER:ghp_…@github.com` whose token straddles the wrap is decoded line by line:
# neither piece holds a whole token, nor `scheme://user:…@`, and the whole base64 -- which decodes to the
# credential -- is kept in the evidence record and log, and committed.
# Correct: base64 wrapped over lines is read as one run; the credential's encoding is redacted.
# Exit 1 while the encoded token is kept, 0 when redacted, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME" "$T/repo"; cd "$T/repo" || exit 2
command -v base64 >/dev/null || { echo "setup: no base64" >&2; exit 2; }
( git init -q && echo a > a && git add -A && git commit -qm init \
  && harness init && harness install && git add -A && git commit -qm harness && harness task new t ) >/dev/null 2>&1 || exit 2
TOKEN=ghp_Ab3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6
printf 'https://octocat-deploy-bot-2024:%s@github.com\n' "$TOKEN" > "$T/git-credentials"
harness evidence integration_test -- base64 "$T/git-credentials" >/dev/null 2>&1 || exit 2
git add -A >/dev/null 2>&1; git commit -qm evidence >/dev/null 2>&1 && committed=yes || committed=no
kept=$(python -c "
import json,glob
rec = json.load(open(glob.glob('.harness/tasks/*/evidence/integration_test.json')[0]))
print(rec['stdout_tail'], end='')")
echo "stdout_tail recorded:"; echo "$kept"
if printf '%s' "$kept" | base64 -d 2>/dev/null | grep -qF "$TOKEN"; then
  echo "DEFECT: it decodes to the credential, token included (commit accepted: $committed)"; exit 1
fi
echo "the token's encoding is not kept"; exit 0
