#!/usr/bin/env bash
# Defect: a secret given in context (`password=V`, `DB_PASSWORD=V`, `scheme://user:V@host`, `Bearer V`) is left in clear
#   when V is written in the shape of a redaction marker with any label and the secret as its suffix:
#   `postgres://app:[REDACTED:db:Sup3rS3cretPw]@db…`. harness/core/redact.py _secret_span skips a captured secret that
#   `_MARKERS_ONLY` fullmatches, and `_MARKERS_ONLY` accepts any label and any `:suffix`, while _label_span trusts only
#   the harness's own labels and the recording's own variables (docs/threat-model.md: "text a command prints in the
#   shape of a marker (`[REDACTED:env:…]`) is redacted like any other unless it names a variable of the recording's own
#   environment"). The commit check (secrets_check._flagged) reads it the same way, so task titles and evidence logs
#   carrying the password are committed and pushed.
# Correct: only a marker the harness itself writes (one of its labels; an env: suffix naming a variable of the
#   recording's environment, or, for the commit check, a secret-named variable) counts as already redacted; the
#   password in `postgres://app:[REDACTED:db:Sup3rS3cretPw]@…` is redacted when written (or the commit refused).
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
git init -q --bare "$T/remote.git" || exit 2
mkdir .harness && cat > .harness/config.yaml <<'YAML'
version: 1
evidence:
  build:
    command: ["sh", "print.sh"]
YAML
echo 'echo ok' > print.sh
( git init -q -b main && git remote add origin "$T/remote.git" && harness init && harness install && harness task new t \
  && git add -A && git commit -qm init && git push -q origin main ) >/dev/null 2>&1 || exit 2
PW=Sup3rS3cretPw

# Control: the password in clear, in a title and in a command's output, is redacted when written.
harness task new "db at postgres://app:$PW@db.example.com/app" >/dev/null 2>&1 || exit 2
printf 'echo "DB_PASSWORD=%s"\n' "$PW" > print.sh
harness evidence build >/dev/null 2>&1
if grep -rq "$PW" .harness/; then echo "setup: the control password reached .harness/ in clear"; exit 2; fi

# The same password, wrapped in a marker's shape with a label the harness never writes.
harness task new "db at postgres://app:[REDACTED:db:$PW]@db.example.com/app" >/dev/null 2>&1 || exit 2
printf 'echo "DB_PASSWORD=[REDACTED:x:%s]"\n' "$PW" > print.sh
harness evidence build >/dev/null 2>&1
git add -A
if ! git commit -qm "work" >"$T/out" 2>&1; then
  if grep -q secret-in-harness-files "$T/out"; then echo "OK: the commit check refused it"; exit 0; fi
  echo "setup: the commit was refused for another reason:"; cat "$T/out"; exit 2
fi
git push -q origin main >/dev/null 2>&1 || { echo "OK: the push was refused"; exit 0; }
where=$(git --git-dir="$T/remote.git" grep -l "$PW" main -- .harness 2>/dev/null | sed 's/^main://' | tr '\n' ' ')
if [ -z "$where" ]; then echo "OK: the password was redacted before it reached .harness/"; exit 0; fi
echo "DEFECT: the password $PW reached the remote in clear, in: $where"
echo "        (written as postgres://app:[REDACTED:db:$PW]@… and DB_PASSWORD=[REDACTED:x:$PW]; in clear it is redacted)"
exit 1
