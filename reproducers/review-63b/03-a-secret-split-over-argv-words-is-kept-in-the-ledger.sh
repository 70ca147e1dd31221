#!/usr/bin/env bash
# Defect: `harness finding reproduce F -- CMD...` records the run's argv redacted element by element
# (record.shown_command -> redact_argv). A credential given as the word after `Authorization:` is found by the
# harness's own authorization rule in the joined one-line "command" (redacted there), yet the "argv" list keeps it
# in clear in events.jsonl and in findings/F-0001.yaml. (The commit check, which joins argv, then refuses the
# ledger for good.) Correct: no value the redactor finds in the command line is kept anywhere in .harness/.
# Exit 1 while the value is in .harness/ in clear, 0 when it is not, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME" "$T/repo"; cd "$T/repo" || exit 2
( git init -q && echo a > a && git add -A && git commit -qm init \
  && harness init && harness install && git add -A && git commit -qm harness && harness task new t ) >/dev/null 2>&1 || exit 2
cat > "$T/f.yaml" <<'Y'
severity: minor
category: api
title: the API accepts a revoked token
claim: a revoked token still authenticates
location: {file: a}
failure_scenario: [call the API with the token]
expected_behavior: the API answers 401
recommended_reproducer: {type: integration_test, description: call it}
Y
harness finding propose --file "$T/f.yaml" >/dev/null 2>&1 || exit 2
SECRET=Zq8vT3kLmN0pQrStUv
harness finding reproduce F-0001 -- curl -sf -H "Authorization:" "$SECRET" http://127.0.0.1:9/api >/dev/null 2>&1
grep -q '"command":"curl -sf -H Authorization: .\?\[REDACTED:authorization\]' .harness/tasks/*/events.jsonl \
  || { echo "setup: no reproduce event with the redacted command" >&2; exit 2; }
echo 'recorded "command": curl -sf -H Authorization: [REDACTED:authorization] http://127.0.0.1:9/api'
if hits=$(grep -rnF "$SECRET" .harness); then
  echo "DEFECT: the value the redactor hid in \"command\" is kept in clear:"; echo "$hits" | cut -c1-160; exit 1
fi
echo "no copy of the value in .harness/"; exit 0
