#!/usr/bin/env bash
# Defect: a secret-named variable's value is redacted (env:NAME) from 8 characters on (MIN_LITERAL), and base64 runs
# are decoded to find such values -- but only runs of 16+ characters (_BASE64), i.e. 12+ bytes. A value of 8-11
# characters (DB_PASS=hunter22, base64 `aHVudGVyMjI=`) printed base64-encoded -- a Kubernetes Secret's `data:`, a
# config dump -- is kept in the evidence record and log, and committed. Its hex (16+ digits) is redacted.
# Correct: the base64 of a value the harness redacts is redacted too.
# Exit 1 while the encoded value is kept, 0 when redacted, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME" "$T/repo"; cd "$T/repo" || exit 2
( git init -q && echo a > a && git add -A && git commit -qm init \
  && harness init && harness install && git add -A && git commit -qm harness && harness task new t ) >/dev/null 2>&1 || exit 2
export DB_PASS=hunter22
harness evidence integration_test -- python -c "
import base64, os
print('apiVersion: v1\nkind: Secret\ndata:')
print('  db_pass:', base64.b64encode(os.environ['DB_PASS'].encode()).decode())
print('plain:', os.environ['DB_PASS'])" >/dev/null 2>&1 || exit 2
git add -A >/dev/null 2>&1; git commit -qm evidence >/dev/null 2>&1 && committed=yes || committed=no
grep -q 'plain: \[REDACTED:env:DB_PASS\]' .harness/tasks/*/evidence/integration_test.log \
  || { echo "setup: the plain value was not redacted" >&2; exit 2; }
enc=$(printf %s "$DB_PASS" | base64)
if hits=$(grep -rnF "$enc" .harness); then
  echo "DEFECT: base64 of DB_PASS ($enc) kept (plain value redacted; commit accepted: $committed):"
  echo "$hits" | cut -c1-160; exit 1
fi
echo "encoded value redacted"; exit 0
