#!/usr/bin/env bash
# Defect: an AWS secret access key written in the AWS CLI's own form, `aws configure set aws_secret_access_key
#   SECRET` (the key's name, a space, the value), is kept in clear in evidence (stdout_tail, the .log), committed
#   and pushed; the access key id beside it is redacted, the secret is not. harness/core/redact.py's
#   `aws_secret_key` rule (and `secret_assignment`) require `=` or `:` after the name (_ASSIGN); `secret_flag`
#   requires a leading dash. The commit check (harness/store/secrets_check.py) reads with the same rules, so the
#   pre-commit and pre-push guards let it through too.
# Correct: the value after `aws_secret_access_key` / `aws_session_token` separated by white space (as
#   `aws configure set` takes it, and as a `set -x` trace of a CI script prints it) is redacted like `=`'s.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
KEY_ID=AKIA4Q7XK2M9ZP3RT6WB
SECRET=q8Vb3mZ1Xr9LwT2kPq7Yd4Hs6Ne0Gu5Cj1Af8Rb2
printf '%s\n' "$KEY_ID" > "$HOME/.aws-id"; printf '%s\n' "$SECRET" > "$HOME/.aws-secret"
git init -q --bare "$T/remote.git" || exit 2
# A CI-style test script with a shell trace: it configures a profile from files, as many do.
cat > "$T/setup-profile.sh" <<'SH'
aws() { :; }   # the real CLI is not needed to show what the trace prints
set -x
aws configure set aws_access_key_id "$(cat "$HOME/.aws-id")" --profile ci
aws configure set aws_secret_access_key "$(cat "$HOME/.aws-secret")" --profile ci
SH
( git init -q -b main && git remote add origin "$T/remote.git" && mkdir .harness && mkdir ci && cp "$T/setup-profile.sh" ci/ \
  && printf '%s\n' 'version: 1' 'evidence:' '  build:' '    command: ["true"]' '  unit_test:' '    command: ["bash", "ci/setup-profile.sh"]' \
       > .harness/config.yaml \
  && harness init && harness install && harness task new t && git add -A && git commit -qm init && git push -q ) >/dev/null 2>&1 || exit 2
harness evidence unit_test >/dev/null 2>&1 || exit 2
git add -A && git commit -qm "unit_test evidence" >/dev/null 2>&1 || { echo "commit refused (the check found it: fixed?)"; }
git push -q >/dev/null 2>&1
rec=$(cat .harness/tasks/*/evidence/unit_test.json) || exit 2
grep -q "REDACTED" <<<"$rec" || { echo "setup: nothing redacted at all (the key id should be)"; exit 2; }
echo "stdout/stderr kept: $(grep -o '"stderr_tail": "[^"]*"' <<<"$rec")"
found=0
for obj in $(git --git-dir "$T/remote.git" rev-list --objects --all | cut -d' ' -f1); do
  if git --git-dir "$T/remote.git" cat-file -p "$obj" 2>/dev/null | grep -q "$SECRET"; then found=1; break; fi
done
if grep -q "$KEY_ID" <<<"$rec"; then echo "(the key id is in clear too)"; fi
if [ "$found" = 1 ]; then echo "DEFECT: the AWS secret access key reached the remote in clear"; exit 1; fi
if grep -q "$SECRET" .harness/tasks/*/evidence/*; then echo "DEFECT: the secret is in the evidence files"; exit 1; fi
echo "OK: the secret is redacted"; exit 0
