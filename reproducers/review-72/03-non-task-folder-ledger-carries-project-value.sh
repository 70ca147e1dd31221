#!/usr/bin/env bash
# Defect: a file named events.jsonl in ANY folder under .harness/tasks/ is read as a task's ledger (leniently),
#   though a folder not named like a task id is no task (harness/store/reader.py is_task) and no other check reads
#   it. harness/history/own_words.py: `_IN_TASK` matches `.harness/tasks/[^/]+/events.jsonl` and secrets_found()
#   returns the lenient reading for it; so a project value typed in the harness's shapes (an env marker whose name
#   is the value, a log note whose byte count is the value) reaches the remote through `git commit` and `git push`.
#   (Today's tests cover `NOTES/events.jsonl.txt`, not `NOTES/events.jsonl`.)
# Correct: leniency only for the ledger of a real task (TASK-… folder the checks judge); any other file is read
#   strictly and the commit is refused, as the same line in `.harness/tasks/NOTES/events.txt` is.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
git init -q --bare "$T/remote.git" || exit 2
( git init -q -b main && git remote add origin "$T/remote.git" && harness init && harness install \
  && sed -i "s/  patterns: \[\]/  patterns: ['acct_[0-9]{8}', '(?<![0-9])4[0-9]{15}(?![0-9])']/" .harness/config.yaml \
  && grep -q "acct_" .harness/config.yaml \
  && harness task new t && echo a > a.txt && git add -A && git commit -qm init && git push -q origin main ) >/dev/null 2>&1 || exit 2
LINE='payroll account [REDACTED:env:key_acct_12345678], card [harness: 4111111111111111 bytes of output omitted here; 1 bytes in all]'
mkdir -p .harness/tasks/NOTES || exit 2
# Control: the line in a file of that folder under another name is refused.
printf '%s\n' "$LINE" > .harness/tasks/NOTES/events.txt; git add -A
if git commit -qm notes >/dev/null 2>&1; then echo "setup: the control was accepted (another defect)"; exit 2; fi
git rm -q --cached .harness/tasks/NOTES/events.txt && mv .harness/tasks/NOTES/events.txt .harness/tasks/NOTES/events.jsonl
git add -A
if ! out=$(git commit -qm "notes" 2>&1); then
  grep -q "secret-in-harness-files\|tasks/NOTES" <<<"$out" && { echo "OK: refused at commit"; exit 0; }
  echo "setup: refused for another reason: $out"; exit 2
fi
if ! git push -q origin main >/dev/null 2>&1; then echo "OK: refused at push"; exit 0; fi
if git --git-dir="$T/remote.git" show main:.harness/tasks/NOTES/events.jsonl | grep -q 'acct_12345678.*4111111111111111'; then
  echo "DEFECT: .harness/tasks/NOTES/events.jsonl (no task's ledger) carried acct_12345678 and 4111111111111111 to the remote"
  exit 1
fi
echo "setup: pushed, but the remote does not hold the line"; exit 2
