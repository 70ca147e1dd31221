#!/usr/bin/env bash
# Defect: a finding's reproducer argv (recommended_reproducer.command as a list) is written to the ledger redacted
# element by element (secrets_check.redact_data -> redact_argv), but the commit check reads an argv list joined
# with spaces (secrets_check._values / _in_data). `["grep", "-rn", "password:", "config/"]` holds no secret, yet the
# joined "grep -rn password: config/" matches secret_assignment, so `git commit` refuses the harness's own ledger
# line -- and a ledger line can never be corrected (hash chain): the task can never be committed.
# Correct: what the harness writes, the commit check accepts. Exit 1 while the commit is refused, 0 when accepted,
# 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME" "$T/repo"; cd "$T/repo" || exit 2
( git init -q && echo a > a && git add -A && git commit -qm init \
  && harness init && harness install && git add -A && git commit -qm harness && harness task new t ) >/dev/null 2>&1 || exit 2
cat > "$T/f.yaml" <<'Y'
severity: minor
category: config
title: a config holds a plain-text credential line
claim: config/ has a line naming a password
location: {file: a}
failure_scenario: [grep finds the line]
expected_behavior: no such line
recommended_reproducer:
  type: lint
  description: grep the configs
  command: ["grep", "-rn", "password:", "config/"]
Y
harness finding propose --file "$T/f.yaml" >/dev/null 2>&1 || exit 2
git add -A >/dev/null 2>&1
if out=$(git commit -qm finding 2>&1); then echo "commit of the proposed finding: accepted"; exit 0; fi
echo "commit of the proposed finding: REFUSED"; echo "$out" | grep -E "secret|events.jsonl" | head -3
echo "DEFECT: the commit check refuses a ledger line the harness wrote itself"; exit 1
