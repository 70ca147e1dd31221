#!/usr/bin/env bash
# Defect: F-0171's rule (secret_variable) redacts an upper-case secret-named variable only as a shell's
# `NAME=value`: the same variables in the spelling every CI and compose file gives them -- a YAML map
# (`environment:` of docker-compose, `env:` of GitHub Actions and Kubernetes: `DB_PASS: value`,
# `SESSION_KEY: value`, `DB_CREDENTIALS: value`) -- keep their values, since secret_assignment's words do not hold
# PASS, KEY or CREDENTIALS. Neither does it know mysql's own `MYSQL_PWD=`. `docker compose config` or
# `cat docker-compose.yml` as evidence records them in .harness/, and the commit check passes them.
# Correct: a value of a variable the rule names secret is redacted in `NAME: value` as in `NAME=value`.
# Exit 1 while any of the values is in committed .harness/, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q -b main && harness init && harness install && harness task new t && echo a > a.txt && git add -A \
  && git commit -qm init ) >/dev/null 2>&1 || exit 2
TID=$(ls .harness/tasks) || exit 2; EV=.harness/tasks/$TID/evidence
cat > docker-compose.yml <<'EOF'
services:
  app:
    environment:
      DB_PASS: Qx1Pw1aaaaa
      SESSION_KEY: "Qx2Pw2bbbbb"
      DB_CREDENTIALS: Qx3Pw3ccccc
  db:
    environment:
      - MYSQL_PWD=Qx4Pw4ddddd
EOF
printf 'control: DB_PASS=Qx0Pw0zzzzz\n' > control.txt
harness evidence custom.compose -- cat docker-compose.yml control.txt >/dev/null 2>&1 || { echo "setup: evidence refused" >&2; exit 2; }
echo "recorded log:"; sed 's/^/  /' "$EV/custom.compose.log"
grep -rq Qx0Pw0zzzzz .harness/ && { echo "setup: control not redacted" >&2; exit 2; }
git add -A; committed=no; git commit -qm evidence >/dev/null 2>&1 && committed=yes; echo "commit check passed: $committed"
kept=$(grep -rhoE 'Qx[0-9]Pw[0-9][a-f]{5}' .harness/ | sort -u | tr '\n' ' ')
if [ "$committed" = yes ] && [ -n "$kept" ]; then echo "DEFECT: values in committed .harness/: $kept"; exit 1; fi
echo "ok: no value kept"; exit 0
