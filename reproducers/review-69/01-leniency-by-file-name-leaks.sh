#!/usr/bin/env bash
# Defect: the commit/push check's leniency for the harness's own words (an `[REDACTED:env:NAME]` marker of a
#   secret-named variable another shell had; the byte counts of a `[harness: N bytes of output omitted here; M bytes
#   in all]` note) is granted by file NAME alone (harness/store/secrets_check.py `_HARNESS_WRITES` /
#   `flagged_values`), not by whether the harness wrote the text. So hand-written text reaches the remote with a
#   project secret (config.yaml `redaction.patterns`) shaped like those words when it sits in
#     (a) a free-form field a person edits by hand in a rendered file (a requirement's `statement` in
#         requirements.yaml: docs/concepts.md "free-form text you write in them ... is kept"), or
#     (b) a file that merely has an evidence file's name, e.g. `.harness/tasks/NOTES/evidence/x.log` (no task, no
#         record binds it).
#   The identical line in `.harness/NOTES.md` is refused; docs/threat-model.md: "a file written by hand is read
#   strictly".
# Correct: both commits are refused (secret-in-harness-files); the leniency holds only for text the harness wrote
#   (a log/listing a record's digest binds, values the ledger holds), so a real recording made in a shell that had
#   a secret-named variable and committed from a shell without it still commits (checked here as a control).
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
  unit_test:
    command: ["sh", "-c", "echo \"exported to ${key_acct_12345678:-nowhere}\""]
redaction:
  patterns: ["acct_[0-9]{8}", "(?<![0-9])4[0-9]{15}(?![0-9])"]
YAML
( git init -q -b main && git remote add origin "$T/remote.git" && harness init && harness install \
  && harness task new t && echo a > a.txt && git add -A && git commit -qm init && git push -q origin main ) >/dev/null 2>&1 || exit 2
TID=$(cat .harness/local/current) || exit 2
LINE='account [REDACTED:env:key_acct_12345678], card [harness: 4111111111111111 bytes of output omitted here; 1 bytes in all]'
fail=0

# Control 1 (must stay accepted): a real recording in a shell with a secret-named variable, committed from one without.
for s in SPECIFYING PLANNED IMPLEMENTING VERIFYING; do harness transition $s >/dev/null 2>&1 || exit 2; done
env key_acct_12345678=/srv/export/ledger.csv harness evidence unit_test >/dev/null 2>&1 || exit 2
grep -q 'REDACTED:env:key_acct_12345678' ".harness/tasks/$TID/evidence/unit_test.log" || exit 2
git add -A
if ! git commit -qm "evidence" >/dev/null 2>"$T/err"; then
  echo "CONTROL BROKEN: the harness's own recording (env marker of another shell's variable) is refused:"; cat "$T/err"; fail=1
  git reset -q
fi
# Control 2 (must stay refused): the line hand-written in a file of another name.
printf '%s\n' "$LINE" > .harness/NOTES.md; git add -A
if git commit -qm notes >/dev/null 2>&1; then echo "CONTROL BROKEN: .harness/NOTES.md with the line was committed"; exit 2; fi
git reset -q; rm .harness/NOTES.md

# (a) the line typed by hand into a requirement's free-form statement (replay agrees: statements are free-form)
harness requirement add "the export keeps the account number" --priority must >/dev/null 2>&1 || exit 2
git add -A && git commit -qm req >/dev/null 2>&1 || exit 2
python3 - "$TID" "$LINE" <<'PY' || exit 2
import sys, pathlib
p = pathlib.Path(f".harness/tasks/{sys.argv[1]}/requirements.yaml")
t = p.read_text(); new = t.replace("statement: the export keeps the account number", f'statement: "{sys.argv[2]}"')
assert new != t; p.write_text(new)
PY
git add -A
if git commit -qm "statement edited by hand" >/dev/null 2>&1; then
  echo "LEAK (a): a hand-edited requirement statement holding the project's secrets was committed"; fail=1
else git reset -q --hard >/dev/null; fi

# (b) a hand-written file that only has an evidence log's name, in a folder that is no task
mkdir -p .harness/tasks/NOTES/evidence && printf '%s\n' "$LINE" > .harness/tasks/NOTES/evidence/x.log
git add -A
if git commit -qm "notes" >/dev/null 2>&1; then
  echo "LEAK (b): .harness/tasks/NOTES/evidence/x.log (hand-written, bound by no record) was committed"; fail=1
else git reset -q; rm -rf .harness/tasks/NOTES; fi

git push -q origin main >/dev/null 2>&1
n=$(git --git-dir="$T/remote.git" grep -l -F 'card [harness: 4111111111111111' main -- .harness 2>/dev/null | wc -l)
echo "files on the remote holding the hand-written line (a project's card number): $n"
[ "$n" -gt 0 ] && fail=1
[ $fail -eq 0 ] && echo "OK: hand-written text is read strictly; the harness's own recording still commits"
exit $fail
