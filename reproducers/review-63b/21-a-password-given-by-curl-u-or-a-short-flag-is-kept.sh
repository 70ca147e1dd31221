#!/usr/bin/env bash
# Defect: on a command line only long, password-named flags mark their value as a secret (_FLAG_NAME: --password,
# -token, --api-key, ...), and text only `scheme://user:pass@` or `password=`. The everyday spellings of a password
# on a command line -- `curl -u USER:PASSWORD` / `curl --user USER:PASSWORD`, `docker login -p PASSWORD`,
# `sshpass -p PASSWORD`, `mysql -pPASSWORD` -- are kept in the evidence record's command and argv, in the ledger's
# evidence.prepared event, and committed.
# Correct: the password is redacted in these spellings too (at least curl's user:password, whose shape is plain).
# Exit 1 while a password is in .harness/ in clear, 0 when none is, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME" "$T/repo"; cd "$T/repo" || exit 2
( git init -q && echo a > a && git add -A && git commit -qm init \
  && harness init && harness install && git add -A && git commit -qm harness && harness task new t ) >/dev/null 2>&1 || exit 2
# the smoke test: curl with basic auth against a local service (nothing listens: the run fails, and is recorded)
harness evidence integration_test -- curl -fsS -u admin:Hq7pW2xZr9Lm http://127.0.0.1:9/health >/dev/null 2>&1
harness evidence custom.registry -- sh -c 'echo docker login -u ci -p Vb4nQ8sKe2Yt registry.example.com' >/dev/null 2>&1
ls .harness/tasks/*/evidence/integration_test.json >/dev/null 2>&1 || { echo "setup: no record" >&2; exit 2; }
git add -A >/dev/null 2>&1; git commit -qm evidence >/dev/null 2>&1 && committed=yes || committed=no
if hits=$(grep -rnE "Hq7pW2xZr9Lm|Vb4nQ8sKe2Yt" .harness); then
  echo "DEFECT: passwords kept in clear (commit accepted: $committed):"; echo "$hits" | cut -c1-170; exit 1
fi
echo "passwords redacted"; exit 0
