#!/usr/bin/env bash
# Defect: the value of an environment variable whose name ends in `_PWD` (MySQL's own `MYSQL_PWD`, a `DB_PWD`) is
#   committed and pushed in clear when the evidence command prints it without its name ("connecting with VALUE").
#   harness/core/redact.py's `secret_variable` rule names `_PWD` a secret's word (`MYSQL_PWD=VALUE` is redacted), but
#   `_SECRET_ENV` (TOKEN|SECRET|PASS|KEY|CRED|AUTH), which secret_env() uses to pick the variables whose values are
#   redacted wherever they appear, has no PWD: the value alone is no literal rule, and neither the recording nor the
#   commit or push check finds it (docs/threat-model.md: "the values of secret-named environment variables" are
#   redacted before any output reaches disk).
# Correct: every variable the harness's own rules call secret-named (`*_PWD` included) has its value redacted
#   wherever the output prints it, as `MY_API_TOKEN`'s is here (the control line).
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
git init -q --bare "$T/remote.git" || exit 2
mkdir ci && cat > ci/show.py <<'PY2'
import os
print("control:", os.environ["MY_API_TOKEN"])
print("connecting to mysql with", os.environ["MYSQL_PWD"])
print("db password is", os.environ["DB_PWD"])
print("1 passed")
PY2
git init -q -b main && git remote add origin "$T/remote.git" && mkdir .harness \
  && printf '%s\n' 'version: 1' 'evidence:' '  build:' '    command: ["true"]' '  unit_test:' '    command: ["python3", "ci/show.py"]' \
       > .harness/config.yaml \
  && { harness init && harness install && harness task new t && git add -A && git commit -qm init && git push -q origin main; } >/dev/null 2>&1 \
  || { echo "setup failed"; exit 2; }
# Random values made here: no secret in this file.
rnd() { python3 -c "import random,string;r=random.Random($1);print(''.join(r.choice(string.ascii_letters+string.digits) for _ in range(20)))"; }
export MY_API_TOKEN=$(rnd 1) MYSQL_PWD=$(rnd 2) DB_PWD=$(rnd 3)
harness evidence unit_test >/dev/null 2>&1 || { echo "setup: evidence failed"; exit 2; }
log=$(ls .harness/tasks/*/evidence/unit_test.log 2>/dev/null | head -1)
grep -q "1 passed" "$log" || { echo "setup: the output was not recorded"; exit 2; }
grep -qF -- "$MY_API_TOKEN" "$log" && { echo "setup: even the control value was kept"; exit 2; }
git add -A && git commit -qm "unit_test evidence" >/dev/null 2>&1 || { echo "OK: the commit check refused the evidence"; exit 0; }
git push -q origin main >/dev/null 2>&1 || { echo "OK: the push check refused the evidence"; exit 0; }
status=0
for v in MYSQL_PWD DB_PWD; do
  if git --git-dir="$T/remote.git" grep -qF -- "${!v}" main -- .harness; then
    echo "DEFECT: the value of \$$v is committed and pushed in clear under .harness/"; status=1
  else echo "ok: \$$v's value redacted"; fi
done
[ $status = 1 ] && { echo "--- the pushed log:"; git --git-dir="$T/remote.git" show "main:$log"; }
exit $status
