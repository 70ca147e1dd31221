#!/usr/bin/env bash
# Defect: a private key is recognised only as a PEM block (core/redact.py's private_key rules). detect-secrets'
# ds_private_key knows the header `PuTTY-User-Key-File-2` and redacts those words alone; PuTTY's current format
# (`PuTTY-User-Key-File-3`, PuTTY 0.75+) is not known at all. A command printing a .ppk key (its `Private-Lines:`
# block) or a JSON Web Key with its private member `"d"` (a JWKS test fixture) keeps the private key material in
# the evidence record and log, and the commit lets it through.
# Correct: the private parts are redacted. Exit 1 while key material is kept, 0 when redacted, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME" "$T/repo"; cd "$T/repo" || exit 2
( git init -q && echo a > a && git add -A && git commit -qm init \
  && harness init && harness install && git add -A && git commit -qm harness && harness task new t ) >/dev/null 2>&1 || exit 2
cat > "$T/deploy.ppk" <<'K'
PuTTY-User-Key-File-3: ssh-ed25519
Encryption: none
Comment: deploy@ci
Public-Lines: 2
AAAAC3NzaC1lZDI1NTE5AAAAIAk6XBY5tR2JHc3nN8i3RqkV6m6v1aUu3M4cYk0a
M2pQ
Private-Lines: 1
AAAAIFm3dUqO0CqkT6cJrfH1mSxYyR9Gj7WbQeZkP4sN5wKx
Private-MAC: 8f2c1a7e4b6d9f0e3a5c7b9d1f2e4a6c8b0d2f4e6a8c0e2f4a6b8d0f2e4a6c8b
K
cat > "$T/jwks.json" <<'K'
{"keys":[{"kty":"EC","crv":"P-256","kid":"test-1","x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU","y":"x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0","d":"jpsQnnGQmL-YBIffH1136cspYG6-0iY7X1fCE9-E9LI"}]}
K
harness evidence unit_test -- sh -c "cat '$T/deploy.ppk' '$T/jwks.json'" >/dev/null 2>&1 || exit 2
git add -A >/dev/null 2>&1; git commit -qm evidence >/dev/null 2>&1 && committed=yes || committed=no
if hits=$(grep -rnE "AAAAIFm3dUqO0CqkT6cJrfH1mSxYyR9Gj7WbQeZkP4sN5wKx|jpsQnnGQmL-YBIffH1136cspYG6-0iY7X1fCE9-E9LI" \
          .harness/tasks/*/evidence/unit_test.log); then
  echo "DEFECT: private key material kept (commit accepted: $committed):"; echo "$hits" | cut -c1-200; exit 1
fi
echo "private key material redacted"; exit 0
