#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# Redactor._plain (harness/core/redact.py) applies its rules one after another, each on the text the
# rules before it left. A rule that runs earlier can replace the context a later rule needs to see:
#  A. `s3://AKIA…:<secret access key>@bucket` (Hadoop s3a/s3n, duplicity, … URLs with credentials):
#     aws_access_key_id replaces the user part with `[REDACTED:aws_access_key_id]`, whose brackets the
#     url_password rule does not accept in a user name, so the secret access key after the colon stays.
#  B. a secret-named environment variable whose value is an ordinary word — the postgres image's
#     POSTGRES_HOST_AUTH_METHOD=password — becomes a literal rule that runs first: every `password`
#     in the output turns into `[REDACTED:env:POSTGRES_HOST_AUTH_METHOD]`, and `password=VALUE`,
#     `--password VALUE`, `"password": "VALUE"` lose the word the secret_assignment/secret_flag rules
#     key on, so VALUE stays. Free text (a requirement statement) is redacted by the same redactor.
# The commit check reads the file with the same rules and sees no secret: the commit passes.
# Exit 1 while any secret reaches .harness/ in clear; 0 when fixed; 2 on setup failure.
export GIT_CONFIG_GLOBAL=/dev/null GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q && echo a > a.txt && git add -A && git commit -qm init && harness init && harness install \
  && harness task new t && git add -A && git commit -qm harness ) >/dev/null 2>&1 || exit 2
AK=AKIAQWERTYUIOPASDFGH
SK=wJalrXUtnFEMIK7MDENGbPxRfiCYzQ8xK2mP9vL4   # an AWS secret access key
PW=Tr0ub4dor-and-3-horses
rc=0
base=$(git rev-parse HEAD)
check() { # LABEL VALUE: where the secret is in clear, whether the commit hook lets it through; then back to base
  local hits; hits=$(grep -rl -- "$2" .harness/tasks 2>/dev/null | sed "s|^$R/||" | tr '\n' ' ')
  if [ -n "$hits" ]; then
    echo "LEAK ($1): the secret in clear in: $hits"; rc=1
    git add -A >/dev/null; git commit -qm x >/dev/null 2>&1 && echo "   commit holding it: accepted" || echo "   commit holding it: refused"
  else echo "ok ($1): redacted"; fi
  git reset -q --hard "$base"; git clean -qfd .harness/tasks
}
printf 'print("reading s3a://%s:%s@bucket/data")\n' "$AK" "$SK" > "$T/s3.py"
printf 'print("connecting with password=%s")\nprint("--password %s")\nprint(%s)\n' "$PW" "$PW" "'{\"password\": \"$PW\"}'" > "$T/pg.py"
# controls: the same secret after a plain user name / with the variable unset is redacted
printf 'print("reading s3a://backup-user:%s@bucket/data")\n' "$SK" > "$T/s3ctl.py"
harness evidence unit_test -- python "$T/s3ctl.py" >/dev/null 2>&1 || exit 2
grep -rq -- "$SK" .harness/tasks && { echo "setup: control (plain user) leaked" >&2; exit 2; }
git reset -q --hard "$base"; git clean -qfd .harness/tasks
env -u POSTGRES_HOST_AUTH_METHOD harness evidence unit_test -- python "$T/pg.py" >/dev/null 2>&1 || exit 2
grep -rq -- "$PW" .harness/tasks && { echo "setup: control (no variable) leaked" >&2; exit 2; }
git reset -q --hard "$base"; git clean -qfd .harness/tasks
# A. evidence output and a requirement statement with an s3a URL
harness evidence unit_test -- python "$T/s3.py" >/dev/null 2>&1 || exit 2
check "A: evidence output s3a://AKIA…:SECRET@bucket" "$SK"
harness requirement add "backups go to s3a://$AK:$SK@bucket/data" --priority must >/dev/null 2>&1 || exit 2
check "A: requirement statement s3a://AKIA…:SECRET@bucket" "$SK"
# B. POSTGRES_HOST_AUTH_METHOD=password in the environment
export POSTGRES_HOST_AUTH_METHOD=password
harness evidence unit_test -- python "$T/pg.py" >/dev/null 2>&1 || exit 2
check "B: evidence output password=… with POSTGRES_HOST_AUTH_METHOD=password" "$PW"
harness requirement add "the test database takes password=$PW" --priority must >/dev/null 2>&1 || exit 2
check "B: requirement statement password=… with POSTGRES_HOST_AUTH_METHOD=password" "$PW"
exit $rc
