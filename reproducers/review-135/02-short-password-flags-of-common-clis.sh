#!/usr/bin/env bash
# Defect: the password a common command-line client takes after a one-letter flag (or glued to the user) is kept
#   in clear in what the harness records, committed and pushed: a CI script's `set -x` trace (which prints each
#   command with its arguments expanded) of
#     redis-cli -a PASS, ldapsearch -w PASS, sqlcmd -P PASS, az login -u U -p PASS, oc login -u U -p PASS,
#     cf login -u U -p PASS, security unlock-keychain -p PASS (iOS CI), zip -P PASS, smbclient -U user%PASS
#   harness/core/redact.py knows a one-letter `-p` only after docker/podman/helm/... `login` and sshpass
#   (`password_flag`) and mysql's glued `-pPASS` (`mysql_password`); _FLAG_NAME needs a secret-named flag
#   (`--password`). The commit and push checks (harness/store/secrets_check.py) read with the same rules and let
#   the values through. The same text in free text (a requirement statement, a finding's failure_scenario) is kept
#   the same way. The passwords here are read from a file, as a CI job reads its secrets: no secret-named variable
#   of the harness's environment holds them. (Control: `docker login -u ci -p PASS` in the same trace is redacted.)
# Correct: each of these values is redacted where the harness records it (as docker's `-p` and mysql's `-p` are),
#   so none reaches the remote.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
# One password per client, each in a file of its own (a mounted CI secret).
names="redis ldap sqlcmd az oc cf keychain zip smb docker"
n=0; for name in $names; do n=$((n + 1)); printf 'Pw%dzK8qT3vLm7xR\n' "$n" > "$HOME/$name.pw"; done
mkdir ci && cat > ci/deploy-check.sh <<'SH'
# The clients are stubs (no server here): only the trace matters, as CI prints it with `set -x`.
for tool in redis-cli ldapsearch sqlcmd az oc cf security zip smbclient docker; do eval "$tool() { :; }"; done
s="$HOME"
set -x
redis-cli -h cache -a "$(cat "$s/redis.pw")" ping
ldapsearch -x -D cn=ci,dc=example,dc=com -w "$(cat "$s/ldap.pw")" -b dc=example,dc=com
sqlcmd -S db -U sa -P "$(cat "$s/sqlcmd.pw")" -Q "select 1"
az login --service-principal -u app-id -p "$(cat "$s/az.pw")" --tenant example
oc login -u ci -p "$(cat "$s/oc.pw")" https://api.example.com:6443
cf login -a https://api.example.com -u ci -p "$(cat "$s/cf.pw")"
security unlock-keychain -p "$(cat "$s/keychain.pw")" ci.keychain
zip -P "$(cat "$s/zip.pw")" artifacts.zip report.txt
smbclient //files/share -U "ci%$(cat "$s/smb.pw")" -c ls
docker login -u ci -p "$(cat "$s/docker.pw")" registry.example.com
SH
git init -q --bare "$T/remote.git" || exit 2
( git init -q -b main && git remote add origin "$T/remote.git" && mkdir .harness \
  && printf '%s\n' 'version: 1' 'evidence:' '  build:' '    command: ["true"]' '  unit_test:' '    command: ["bash", "ci/deploy-check.sh"]' \
       > .harness/config.yaml \
  && harness init && harness install && harness task new t && git add -A && git commit -qm init && git push -q origin main ) \
  >/dev/null 2>&1 || { echo "setup failed"; exit 2; }
harness evidence unit_test >/dev/null 2>&1 || { echo "setup: evidence failed"; exit 2; }
grep -q "redis-cli" .harness/tasks/*/evidence/unit_test.log || { echo "setup: the trace was not recorded"; exit 2; }
git add -A && git commit -qm "unit_test evidence" >/dev/null 2>&1 || echo "commit refused (hook)"
git push -q origin main >/dev/null 2>&1 || echo "push refused (guard)"
objects=$(git --git-dir "$T/remote.git" rev-list --objects --all | cut -d' ' -f1 | while read -r o; do
  git --git-dir "$T/remote.git" cat-file -p "$o" 2>/dev/null; done)
grep -q "redis-cli" <<<"$objects" || { echo "setup: the evidence commit did not reach the remote"; exit 2; }
if grep -qF "$(cat "$HOME/docker.pw")" <<<"$objects"; then echo "setup: the control (docker login -p) was not redacted"; exit 2; fi
bad=0
for name in $names; do
  [ "$name" = docker ] && continue
  if grep -qF "$(cat "$HOME/$name.pw")" <<<"$objects"; then echo "in clear on the remote: $name's password"; bad=1; fi
done
[ "$bad" = 1 ] && { echo "DEFECT: client passwords reached the remote in clear"; exit 1; }
echo "OK: all redacted"; exit 0
