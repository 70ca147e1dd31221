#!/usr/bin/env bash
# Defect: a one-letter password flag glued to its value is kept in clear for the clients F-0476 added. The new
#   password_flag rule of harness/core/redact.py wants white space or `=` after `-w`/`-P`/`-a`/`-p`
#   (`(?:[ \t]+|=)`), but the OpenLDAP tools parse their options with getopt(3) and go-sqlcmd with pflag, where
#   `-wPASSWORD` and `-PPASSWORD` are the same as the spaced form:
#     ldapsearch -x -D cn=ci,dc=example,dc=com -wS3cretPassw0rd -b dc=example,dc=com   -> kept in clear
#     ldapmodify -H ldap://ldap -D cn=admin -wS3cretPassw0rd -f change.ldif            -> kept in clear
#     sqlcmd -S db -U sa -PS3cretPassw0rd -Q 'select 1'                                -> kept in clear
#   The same file's own rules redact the glued spelling elsewhere (mysql's -pPASS, security unlock-keychain -pPASS).
# Correct: the glued value is redacted as the spaced one is (`-w[REDACTED:password_flag]`).
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
pw = "S3cret" + "Passw0rd"
print(f"+ ldapsearch -x -D cn=ci,dc=example,dc=com -w{pw} -b dc=example,dc=com")
print(f"+ ldapmodify -H ldap://ldap -D cn=admin -w{pw} -f change.ldif")
print(f"+ sqlcmd -S db -U sa -P{pw} -Q 'select 1'")
PY
setup_repo
harness evidence unit_test >/dev/null 2>&1 || { echo "setup: evidence failed"; exit 2; }
log=$(ls .harness/tasks/*/evidence/unit_test.log 2>/dev/null | head -1)
[ -n "$log" ] && grep -q "ldapsearch" "$log" || { echo "setup: the output was not recorded"; exit 2; }
if grep -q "S3cretPassw0rd" "$log"; then
  echo "DEFECT: the glued password is recorded in clear:"; grep "S3cretPassw0rd" "$log" | sed 's/^/  log: /'; exit 1
fi
echo "OK: the glued password is redacted"; exit 0
