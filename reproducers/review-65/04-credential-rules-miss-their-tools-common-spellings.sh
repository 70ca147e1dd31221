#!/usr/bin/env bash
# Defect: the credential rules F-0180/F-0205 added cover only some spellings of the commands they name:
# mysql_password requires the command to start a line or follow whitespace, `/`, `;`, `&`, `|` or `(` -- so the
# shell script's usual `DUMP="mysqldump -uroot -pPW db"` or `` `mysql -uroot -pPW` `` keeps the password -- and its
# list of tools omits `mariadb-admin`, `mariadb-import` and `mysqlbinlog`; user_password reads `-u`/`--user`
# only, so curl's `--proxy-user user:PW` and `-U user:PW` keep it. A deploy script shown as evidence
# (`cat deploy.sh`, or a `set -x` trace) records each password in .harness/, and the commit check passes it.
# Correct: each password is redacted in the evidence log, or the commit check refuses the file.
# Exit 1 while any of the passwords is in .harness/ after a successful commit, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q -b main && harness init && harness install && harness task new t && echo a > a.txt && git add -A \
  && git commit -qm init ) >/dev/null 2>&1 || exit 2
TID=$(ls .harness/tasks) || exit 2; EV=.harness/tasks/$TID/evidence
cat > deploy.sh <<'EOF'
DUMP="mysqldump -h db -uroot -pQx1Pw1aaaaa appdb"
VERSION=`mysql -h db -uroot -pQx2Pw2bbbbb -N -e 'select version()'`
mariadb-admin -h db -uroot -pQx3Pw3ccccc status
mysqlbinlog -h db -uroot -pQx4Pw4ddddd binlog.000001
curl --proxy-user deploy:Qx5Pw5eeeee https://example.test/
curl -U deploy:Qx6Pw6fffff https://example.test/
EOF
harness evidence custom.deploy -- cat deploy.sh >/dev/null 2>&1 || { echo "setup: evidence refused" >&2; exit 2; }
echo "recorded log:"; sed 's/^/  /' "$EV/custom.deploy.log"
git add -A; committed=no; git commit -qm evidence >/dev/null 2>&1 && committed=yes; echo "commit check passed: $committed"
kept=$(grep -rhoE 'Qx[0-9]Pw[0-9][a-f]{5}' .harness/ | sort -u | tr '\n' ' ')
if [ "$committed" = yes ] && [ -n "$kept" ]; then echo "DEFECT: passwords in committed .harness/: $kept"; exit 1; fi
echo "ok: no password kept"; exit 0
