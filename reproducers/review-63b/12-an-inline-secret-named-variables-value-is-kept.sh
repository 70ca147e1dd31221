#!/usr/bin/env bash
# Defect: a secret-named variable (by the harness's own _SECRET_ENV: TOKEN|SECRET|PASS|KEY|CRED|AUTH) has its value
# redacted only when it is in the harness's own environment (env:NAME literal rules). Given on the command line --
# `harness evidence integration_test -- env DB_PASS=… API_TOKEN_V2=… ./run-tests` -- the assignment is read only by
# secret_assignment, whose key must END in password/secret/token/api_key/... right before the `=`: `DB_PASS=`,
# `API_TOKEN_V2=`, `DB_PASSWORD_PROD=`, `MY_SECRET_VALUE=`, `SESSION_KEY=` are not. The values are kept in clear in
# the record's command/argv, the ledger's evidence.prepared event, and the commit lets them through (an `env` dump
# in the output is the same). Correct: `NAME=value` with a secret-named NAME has its value redacted wherever it is.
# Exit 1 while a value is in .harness/ in clear, 0 when none is, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME" "$T/repo"; cd "$T/repo" || exit 2
( git init -q && echo a > a && git add -A && git commit -qm init \
  && harness init && harness install && git add -A && git commit -qm harness && harness task new t ) >/dev/null 2>&1 || exit 2
harness evidence integration_test -- env DB_PASS=Hq7pW2xZr9 API_TOKEN_V2=Kd83jfLq02mZ \
  sh -c 'echo "connecting with DB_PASS=$DB_PASS"' >/dev/null 2>&1 || exit 2
git add -A >/dev/null 2>&1; git commit -qm evidence >/dev/null 2>&1 && committed=yes || committed=no
if hits=$(grep -rnE "Hq7pW2xZr9|Kd83jfLq02mZ" .harness); then
  echo "DEFECT: secret-named variables' values kept in clear (commit accepted: $committed):"
  echo "$hits" | cut -c1-170; exit 1
fi
echo "values redacted"; exit 0
