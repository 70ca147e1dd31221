#!/usr/bin/env bash
# Defect: the rules read 63b added for JSON Web Keys (F-0179) and for passwords on command lines (F-0180) miss
# close forms of the very cases they were written for, and those secrets reach the evidence log and record in
# clear (the commit check, with the same rules, passes them):
#  - a symmetric JWK (`"kty":"oct"`) keeps its key in member `k`, which the private_key rule's (d|p|q|dp|dq|qi)
#    leaves out; the value decodes to no text, so the base64 pass keeps it too;
#  - `curl -uUSER:PASSWORD` (curl's glued short option) -- user_password wants a space or `=` after -u;
#  - `mysql -p'PASSWORD'` / `-p"PASSWORD"` as a logged command line spells it -- the value may not start with a quote;
#  - mysql's own tools `mysqlimport`/`mysqlcheck`/`mysqlshow -pPASSWORD` -- `\bmysql(?:dump|admin)?\b` ends at `mysql`.
# Correct: each password/key above is redacted before anything is written.
# Exit 1 while any of the four values is in .harness/, 0 when none is, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q -b main && harness init && harness install && harness task new t && echo a > a.txt && git add -A \
  && git commit -qm init ) >/dev/null 2>&1 || exit 2
cat > out.txt <<'EOF'
jwks: {"keys":[{"kty":"oct","kid":"hmac-1","alg":"HS256","k":"GawgguFyGrWKav7AX4VKUgBqGv8cN2pF"}]}
+ curl -sf -uci-bot:Wq7rT2zP9kLm4xVb https://artifacts.example.com/api/ping
+ mysql -h db -u root -p'Hx3vN8qL2wRt6yZk' -e 'select 1'
+ mysqlimport -u root -pJd5sK9mQ3tXv7bNw shop /tmp/orders.csv
EOF
harness evidence custom.deploy -- cat out.txt >/dev/null 2>&1 || { echo "setup: evidence refused" >&2; exit 2; }
git add -A; git commit -qm evidence >/dev/null 2>&1 && echo "commit check: passed"
fail=0
for s in GawgguFyGrWKav7AX4VKUgBqGv8cN2pF Wq7rT2zP9kLm4xVb Hx3vN8qL2wRt6yZk Jd5sK9mQ3tXv7bNw; do
  if grep -rqF "$s" .harness; then echo "DEFECT: kept in clear: $(grep -rhF "$s" .harness/tasks/*/evidence/*.log)"; fail=1; fi
done
[ $fail = 0 ] && echo "ok: every secret was redacted"
exit $fail
