#!/usr/bin/env bash
# Defect: the commit/push/CI secret scan (harness/store/secrets_check.py `_flagged`, commit 6dc61b9) masks every
#   whole word the harness uses (`_OWN_WORD` words in `_harness_words()`: unit_test, integration_test, run_id, os_user,
#   ...) as `[REDACTED:custom]` and, if the project's pattern then matches nothing, reports nothing. A project
#   pattern whose match *contains* such a word as a part (a DSN `user:password@host`, a bucket path) no longer matches
#   the masked text, so the whole value, password included, is let through: a hand-written `.harness/NOTES.md` line
#   `integration_test:S3cr3tPass@db.acme.internal` under the project's pattern `[a-z_]+:[^@\s]+@db\.acme\.internal`
#   is committed, pushed and passes `harness audit` (the previous commit refused it; `qa_user:…` is still refused).
# Correct: the value is refused (secret-in-harness-files): masking may only drop matches that lie wholly inside a
#   harness word, never a match that also covers text that is not one.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
git init -q --bare "$T/remote.git" || exit 2
( git init -q -b main && git remote add origin "$T/remote.git" && harness init && harness install \
  && python3 - <<'PY'
p = '.harness/config.yaml'; t = open(p).read()
assert "  patterns: []" in t
open(p, 'w').write(t.replace("  patterns: []", "  patterns: ['[a-z_]+:[^@\\s]+@db\\.acme\\.internal']"))
PY
) >/dev/null 2>&1 || exit 2
( harness task new t && echo a > a.txt && git add -A && git commit -qm adopt && git push -q origin main ) >/dev/null 2>&1 || exit 2
base=$(git rev-parse HEAD)

# Control: the same DSN with a user name that is no harness word is refused.
printf 'test database: qa_user:S3cr3tPass@db.acme.internal\n' > .harness/NOTES.md
git add -A
if git commit -qm control >/dev/null 2>&1; then echo "setup: the control value was not refused"; exit 2; fi

printf 'test database: integration_test:S3cr3tPass@db.acme.internal\n' > .harness/NOTES.md
git add -A
if git commit -qm notes >"$T/out" 2>&1; then
  pushed=refused; git push -q origin main >/dev/null 2>&1 && pushed=accepted
  audit=refused; harness audit --from "$base" --to HEAD >/dev/null 2>&1 && audit=passed
  echo "DEFECT: .harness/NOTES.md holding the project-named value 'integration_test:S3cr3tPass@db.acme.internal'"
  echo "        was committed (push $pushed, audit $audit); 'qa_user:S3cr3tPass@…' is refused: masking the harness"
  echo "        word 'integration_test' hid the whole match of the project's pattern, password included."
  git show origin/main:.harness/NOTES.md 2>/dev/null | sed 's/^/        remote holds: /'
  exit 1
fi
grep -q secret-in-harness-files "$T/out" || { echo "commit refused for another reason:"; cat "$T/out"; exit 2; }
echo "OK: the value is refused at commit"; exit 0
