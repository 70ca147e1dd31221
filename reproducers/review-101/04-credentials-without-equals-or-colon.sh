#!/usr/bin/env bash
# Defect: passwords and tokens that common tools print or take with white space (not `=`/`:`) between the secret's
#   name and its value are kept in clear in evidence, committed and pushed:
#     - HashiCorp Vault's key/value tables (`vault login`, `vault token create`, `vault kv get`):
#         `token                hvs.CAES…`, `password    Zr8…`
#     - a .netrc line (git's and curl's credential file): `machine github.com login ci-bot password Zr8…`
#     - keytool's `-srcstorepass`/`-deststorepass`/`-storepass`/`-keypass VALUE`, openssl's `-passin pass:VALUE`
#   harness/core/redact.py's context rules (`secret_assignment`, `aws_secret_key`, `secret_variable`) need `=` or
#   `:` after the name; `secret_flag`'s _FLAG_NAME needs a separator before `pass` (`--store-pass`, not
#   `-storepass`) and knows no `pass:` argument; no rule knows a Vault token's `hvs.` prefix. The commit and push
#   checks (harness/store/secrets_check.py) read with the same rules and let it through.
# Correct: each of these values is redacted in what the harness records (and so never committed).
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
VAULT_TOKEN_VALUE=hvs.CAESIJlWh0Ls3xkzIGJgbXQ3xV2u8Bzq3xL9mQ5rT8uR2N4pGh4KHGh2cy5WcWpKb2hZU0pGMXBJWmZQd2xDbkNJTnM
KV_PASSWORD=Vq4nT8wLz2Rk7Hx3
NETRC_PASSWORD=Jm5sP9cXe3Wd6Fb1
STORE_PASSWORD=Ty7gN2qHv8Lk4Zr6
P12_PASSWORD=Bw3mK9xQs5Dj2Fv8
# What a test job prints (values read from files, as a CI job reads its secrets: no secret-named variable
# of the harness's environment holds them).
cat > "$HOME/out.txt" <<TXT
Key                  Value
---                  -----
token                $VAULT_TOKEN_VALUE
token_policies       ["default" "ci"]
====== Data ======
Key         Value
---         -----
password    $KV_PASSWORD
username    app
machine github.com login ci-bot password $NETRC_PASSWORD
+ keytool -importkeystore -srckeystore a.jks -srcstorepass $STORE_PASSWORD -destkeystore b.p12 -deststorepass $STORE_PASSWORD
+ openssl pkcs12 -in client.p12 -passin pass:$P12_PASSWORD -nodes
TXT
git init -q --bare "$T/remote.git" || exit 2
( git init -q -b main && git remote add origin "$T/remote.git" && mkdir .harness ci \
  && printf '%s\n' 'cat "$HOME/out.txt"' > ci/integration.sh \
  && printf '%s\n' 'version: 1' 'evidence:' '  build:' '    command: ["true"]' '  unit_test:' '    command: ["sh", "ci/integration.sh"]' \
       > .harness/config.yaml \
  && harness init && harness install && harness task new t && git add -A && git commit -qm init && git push -q ) >/dev/null 2>&1 || exit 2
harness evidence unit_test >/dev/null 2>&1 || exit 2
git add -A && git commit -qm "unit_test evidence" >/dev/null 2>&1 || echo "(the commit was refused)"
git push -q >/dev/null 2>&1
grep -q "token_policies" .harness/tasks/*/evidence/unit_test.json || { echo "setup: the output was not recorded"; exit 2; }
objects=$(for obj in $(git --git-dir "$T/remote.git" rev-list --objects --all | cut -d' ' -f1); do
  git --git-dir "$T/remote.git" cat-file -p "$obj" 2>/dev/null; done)
bad=0
for pair in "vault token:$VAULT_TOKEN_VALUE" "vault kv password:$KV_PASSWORD" ".netrc password:$NETRC_PASSWORD" \
            "keytool -srcstorepass:$STORE_PASSWORD" "openssl -passin pass::$P12_PASSWORD"; do
  name=${pair%:*}; value=${pair##*:}
  if grep -qF "$value" <<<"$objects" || grep -qF "$value" .harness/tasks/*/evidence/*; then
    echo "in clear on the remote: $name ($value)"; bad=1
  fi
done
if [ "$bad" = 1 ]; then echo "DEFECT: credentials reached the remote in clear"; exit 1; fi
echo "OK: all redacted"; exit 0
