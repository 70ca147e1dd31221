#!/usr/bin/env bash
# Defect: core/redact.py's _SECRET_ENV (`TOKEN|SECRET|PASS|KEY|CRED|AUTH(?!OR)`) means to skip git's GIT_AUTHOR_*,
# but `AUTH(?!OR)` also skips every *AUTHORIZATION* variable (HTTP_AUTHORIZATION, PROXY_AUTHORIZATION, AUTHORIZATION),
# whose value is a credential by name -- the harness's own `authorization` rule treats the text after that word as
# one. So no env:NAME literal rule is made for it, and a command printing the value (a request log, a debug dump)
# leaves it in clear in the evidence record and log, and `git commit` lets it through.
# Correct: the value of a variable named *AUTHORIZATION* is redacted like any secret-named variable's.
# Exit 1 while the value is kept in .harness/ (and committed), 0 when redacted, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME" "$T/repo"; cd "$T/repo" || exit 2
( git init -q && echo a > a && git add -A && git commit -qm init \
  && harness init && harness install && git add -A && git commit -qm harness && harness task new t ) >/dev/null 2>&1 || exit 2
export HTTP_AUTHORIZATION=Zq8vT3kLmN0pQrStUvW2
harness evidence integration_test -- python -c "
import os; print('replaying request as', os.environ['HTTP_AUTHORIZATION'])" >/dev/null 2>&1 || exit 2
git add -A >/dev/null 2>&1; git commit -qm evidence >/dev/null 2>&1 && committed=yes || committed=no
if hits=$(grep -rnF "$HTTP_AUTHORIZATION" .harness); then
  echo "DEFECT: HTTP_AUTHORIZATION's value is in .harness/ in clear (commit accepted: $committed):"
  echo "$hits" | cut -c1-160; exit 1
fi
echo "value redacted"; exit 0
