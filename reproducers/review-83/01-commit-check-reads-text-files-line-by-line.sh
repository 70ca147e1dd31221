#!/usr/bin/env bash
# Defect: the commit check (harness/store/secrets_check.py flagged_values -> _lines) reads a `.harness/` file that is
#   neither JSON nor YAML one line at a time, while the redactor (harness/core/redact.py Redactor.redact) needs the
#   whole text for the secrets it knows across lines: curl's `-u user:PASSWORD` on a line continued with `\`
#   (user_password rule), a hex dump wrapped at 60 columns (`xxd -p`, _WRAPPED), a quoted-printable soft line
#   break. `flagged_values` sees that the whole text redacts differently, then `_lines` finds nothing in any single
#   line and returns [], so the commit (and the push) carry the secret in clear.
# Correct: a `.harness/` file whose whole text the harness's own rules find a secret in is refused by the commit
#   check (naming a line), as the same text on one line is, and as the evidence writer redacts it.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
git init -q --bare "$T/remote.git" || exit 2
( git init -q -b main && git remote add origin "$T/remote.git" && harness init && harness install && harness task new t \
  && echo a > a.txt && git add -A && git commit -qm init && git push -q origin main ) >/dev/null 2>&1 || exit 2

PW=Hunter2Secret
TOK=ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8
# Control 1: the curl line whole is refused by the commit check.
printf 'curl -u admin:%s https://api.example.com/v1/items\n' "$PW" > .harness/notes.md
git add -A
if git commit -qm control >/dev/null 2>&1; then echo "setup: the one-line control was not refused"; exit 2; fi
# Control 2: the same bytes printed by a command are redacted by the evidence writer (it reads the whole text).
printf 'curl https://api.example.com/v1/items \\\n  -u admin:%s\n' "$PW" > notes.txt
printf 'export GH=%s\n' "$TOK" | xxd -p >> notes.txt
cat > .harness/config.yaml <<'YAML'
version: 1
evidence:
  build:
    command: ["cat", "notes.txt"]
YAML
harness evidence build >/dev/null 2>&1
log=$(ls .harness/tasks/*/evidence/build.log 2>/dev/null) || exit 2
if grep -q "$PW" "$log" || ! grep -q 'REDACTED' "$log"; then echo "setup: the writer did not redact the control"; exit 2; fi
git checkout -q -- .harness/config.yaml && rm -rf .harness/tasks/*/evidence/* && git checkout -q -- .harness/tasks
rm -f notes.txt

# The defect: the same secrets across two lines of a .harness/ text file.
printf 'curl https://api.example.com/v1/items \\\n  -u admin:%s\n' "$PW" > .harness/notes.md
printf 'export GH=%s\n' "$TOK" | xxd -p >> .harness/notes.md
git add -A
if ! git commit -qm "notes" >"$T/out" 2>&1; then
  echo "OK: the commit check refused the file:"; head -3 "$T/out"; exit 0
fi
git push -q origin main >/dev/null 2>&1 && pushed=" and pushed to the remote" || pushed=""
if git --git-dir="$T/remote.git" show main:.harness/notes.md 2>/dev/null | grep -q "$PW"; then :; fi
echo "DEFECT: .harness/notes.md with curl's password on a continued line ($PW) and a wrapped hex dump of $TOK"
echo "        was committed$pushed; the same curl on one line is refused, and the evidence writer redacts both."
exit 1
