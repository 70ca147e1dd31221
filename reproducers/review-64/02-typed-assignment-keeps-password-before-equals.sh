#!/usr/bin/env bash
# Defect: the typed-assignment alternative added to redact._ASSIGN (`: TYPE =`, read 63b's F-0172) is tried before
# the plain `:`/`=` one, so any `key: A=B` whose A is a word takes A for a type name and redacts only B. A command
# printing `password: Summer2024=Fun!x` (a YAML/INI config dump, a password holding `=`) has `Summer2024` -- most of
# the password -- written in clear to the evidence log and record, and the commit check (same rules) passes it;
# 35c53c4 redacted the whole value. The same split makes redaction non-idempotent: `password: <base64>=x` is
# redacted to `[REDACTED:base64]=[REDACTED:...]`, which the write check redacts again, so the harness refuses to
# write its own evidence record (exit 2, "a harness bug").
# Correct: the whole value after `password:` is redacted (no part of it reaches .harness/), and a record of a
# command printing `password: <base64>=x` is written.
# Exit 1 while either happens, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q -b main && harness init && harness install && harness task new t && echo a > a.txt && git add -A \
  && git commit -qm init ) >/dev/null 2>&1 || exit 2
TID=$(ls .harness/tasks) || exit 2; EV=.harness/tasks/$TID/evidence
fail=0
# 1. a config dump with a password holding '='
printf 'db:\n  user: app\n  password: Summer2024=Fun!x\n' > db.yml
harness evidence custom.dump -- cat db.yml >/dev/null 2>&1 || { echo "setup: evidence refused" >&2; exit 2; }
echo "log kept: $(grep password "$EV/custom.dump.log")"
if grep -rq 'Summer2024' .harness; then
  echo "DEFECT: 'Summer2024' (the password's first part) is in .harness/:"; grep -rn 'Summer2024' .harness | sed 's/^/  /'
  git add -A; if git commit -qm evidence >/dev/null 2>&1; then echo "  ... and the commit check passed it"; fi
  fail=1
fi
# 2. the write check refuses the harness's own record
if ! out=$(harness evidence custom.b64 -- printf 'password: cGFzc3dvcmQ9aHVudGVyMnh4=x\n' 2>&1 >/dev/null); then
  echo "DEFECT: the record of a command printing 'password: <base64>=x' was refused:"; echo "$out" | sed 's/^/  /'
  fail=1
fi
[ $fail = 0 ] && echo "ok: the whole value was redacted and the record written"
exit $fail
