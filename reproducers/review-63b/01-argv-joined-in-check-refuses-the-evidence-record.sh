#!/usr/bin/env bash
# Defect: the evidence writer redacts a recorded command's argv one element at a time (redact_argv), but the
# check that guards every write (secrets_check._values -> " ".join(argv)) reads the argv joined with spaces. A
# legitimate command whose words only look like `key: value` once joined -- `grep -rn "password:" config/` --
# is redacted in the one-line "command" but kept in "argv", and the harness then refuses to write its own record
# ("refusing to write ... a harness bug"). Nothing can ever record this command as evidence.
# Correct: the record is written (argv redacted the way the check reads it, or the check reading argv as the writer
# redacts it). Exit 1 while the recording is refused, 0 when it is written, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME" "$T/repo"; cd "$T/repo" || exit 2
( git init -q && mkdir config && echo 'user: app' > config/db.yaml && git add -A && git commit -qm init \
  && harness init && harness install && git add -A && git commit -qm harness && harness task new t ) >/dev/null 2>&1 || exit 2
out=$(harness evidence lint -- grep -rn "password:" config/ 2>&1); rc=$?
echo "harness evidence lint -- grep -rn \"password:\" config/  -> exit $rc"
echo "$out" | grep -i "refusing" 
if ls .harness/tasks/*/evidence/lint.json >/dev/null 2>&1; then
  echo "record written: $(grep -A5 '"argv"' .harness/tasks/*/evidence/lint.json | tr -d '\n ')"; exit 0
fi
echo "DEFECT: the harness refused to write its own record of a command that holds no secret"; exit 1
