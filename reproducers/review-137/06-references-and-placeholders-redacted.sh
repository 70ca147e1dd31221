#!/usr/bin/env bash
# Defect: the new password_flag rules of harness/core/redact.py (read 135's F-0476) redact a reference or a
#   placeholder as if it were the password: their value is `["']?(?P<secret>[^\s"'-][^\s"']*)`, any word at all.
#     redis-cli -h cache -a "$REDIS_PASSWORD" ping   -> -a "[REDACTED:password_flag]"
#     sqlcmd -S db -U sa -P ${SA_PASSWORD} -Q 'select 1' -> -P [REDACTED:password_flag]
#     zip -P **** artifacts.zip report.txt           -> -P [REDACTED:password_flag]
#     oc login -u ci -p <password> https://api:6443  -> -p [REDACTED:password_flag]
#     ldapsearch -x -w "$(cat /run/secrets/ldap)"    -> -w "[REDACTED:password_flag] /run/secrets/ldap)"  (garbled)
#   docs/threat-model.md: "Where no `=` says that a value follows, the value's shape must: a placeholder (`<redacted>`,
#   `****`, `<none>`), a reference to where the secret is kept (`${VAR}`, `"$(cat file)"`, ...) ... are kept", as the
#   aws_secret_key and secret_table rules already do. (The older docker login / sshpass alternative has the same
#   shape; F-0476 extended it to nine more clients.)
# Correct: these lines, which hold no secret, are recorded as written; a literal password after the same flags is
#   still redacted.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
# setup_repo CMD...: a harness repository whose unit_test evidence runs python3 ci/out.py, pushed to a bare remote
setup_repo() {
  git init -q --bare "$T/remote.git" || exit 2
  ( git init -q -b main && git remote add origin "$T/remote.git" && mkdir .harness \
    && printf '%s\n' 'version: 1' 'evidence:' '  build:' '    command: ["true"]' '  unit_test:' '    command: ["python3", "ci/out.py"]' \
         > .harness/config.yaml \
    && harness init && harness install && harness task new t && git add -A && git commit -qm init && git push -q origin main ) \
    >/dev/null 2>&1 || { echo "setup failed"; exit 2; }
}
mkdir ci && cat > ci/out.py <<'PY'
print('+ redis-cli -h cache -a "$REDIS_PASSWORD" ping')
print("+ sqlcmd -S db -U sa -P ${SA_PASSWORD} -Q 'select 1'")
print("+ zip -P **** artifacts.zip report.txt")
print("+ oc login -u ci -p <password> https://api.example.com:6443")
print('+ ldapsearch -x -w "$(cat /run/secrets/ldap)" -b dc=example,dc=com')
PY
setup_repo
harness evidence unit_test >/dev/null 2>&1 || { echo "setup: evidence failed"; exit 2; }
log=$(ls .harness/tasks/*/evidence/unit_test.log 2>/dev/null | head -1)
[ -n "$log" ] && grep -q "redis-cli" "$log" || { echo "setup: the output was not recorded"; exit 2; }
bad=0
for want in '-a "$REDIS_PASSWORD"' '-P ${SA_PASSWORD}' '-P ****' '-p <password>' '-w "$(cat /run/secrets/ldap)"'; do
  grep -qF -- "$want" "$log" || { echo "DEFECT: '$want' was not kept"; bad=1; }
done
grep "REDACTED" "$log" | sed 's/^/  log: /'
[ "$bad" = 1 ] && exit 1
echo "OK: references and placeholders are kept"; exit 0
