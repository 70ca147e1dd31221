#!/usr/bin/env bash
# Defect: an Azure Storage SAS URL (`https://ACCOUNT.blob.core.windows.net/...?sv=...&sp=rwdl&...&sig=SIGNATURE`),
#   which is a bearer credential by itself (whoever holds the URL can read/write the blob until `se=`), is kept in
#   clear in evidence, committed and pushed. harness/core/redact.py knows the SAS only after the words
#   `SharedAccessSignature=` (rule `azure_key`, inside a connection string); the `sig=` query parameter of the same
#   signature, as `az storage blob generate-sas --full-uri`, azcopy and SDK logs print it, matches no rule (nor any
#   detect-secrets plugin), so the commit and push checks (harness/store/secrets_check.py) pass it too.
# Correct: the `sig=` value of a SAS query (at least where `sv=`/`se=`/`sp=` accompany it) is redacted, as the
#   threat model's "cloud tokens" promises.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
SIG='Qx7vJb2Lm9TzR4kWc1NpY8sHd3FgA6eU0oKi5MrXtVw%3D'
URL="https://acmeprod.blob.core.windows.net/releases/app.tar.gz?sv=2022-11-02&ss=b&srt=o&sp=rwdlac&se=2030-01-01T00:00:00Z&st=2024-01-01T00:00:00Z&spr=https&sig=$SIG"
printf '%s\n' "$URL" > "$HOME/sas-url"
git init -q --bare "$T/remote.git" || exit 2
( git init -q -b main && git remote add origin "$T/remote.git" && mkdir .harness ci \
  && printf '%s\n' 'echo "uploading artifact to $(cat "$HOME/sas-url")"' > ci/upload-test.sh \
  && printf '%s\n' 'version: 1' 'evidence:' '  build:' '    command: ["true"]' '  unit_test:' '    command: ["sh", "ci/upload-test.sh"]' \
       > .harness/config.yaml \
  && harness init && harness install && harness task new t && git add -A && git commit -qm init && git push -q ) >/dev/null 2>&1 || exit 2
harness evidence unit_test >/dev/null 2>&1 || exit 2
git add -A && git commit -qm "unit_test evidence" >/dev/null 2>&1 || echo "(the commit was refused)"
git push -q >/dev/null 2>&1
grep -q "acmeprod.blob.core.windows.net" .harness/tasks/*/evidence/unit_test.json || { echo "setup: the URL was not recorded"; exit 2; }
echo "kept: $(grep -o '"stdout_tail": "[^"]*"' .harness/tasks/*/evidence/unit_test.json)"
for obj in $(git --git-dir "$T/remote.git" rev-list --objects --all | cut -d' ' -f1); do
  if git --git-dir "$T/remote.git" cat-file -p "$obj" 2>/dev/null | grep -qF "$SIG"; then
    echo "DEFECT: the SAS signature reached the remote in clear"; exit 1
  fi
done
if grep -qF "$SIG" .harness/tasks/*/evidence/*; then echo "DEFECT: the SAS signature is in the evidence"; exit 1; fi
echo "OK: the SAS signature is redacted"; exit 0
