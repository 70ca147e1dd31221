#!/usr/bin/env bash
# Defect: any line appended by hand to .harness/approvals.jsonl is read with the leniency kept for the harness's own
#   words, so a project value typed in their shapes (an `[REDACTED:env:NAME]` marker whose NAME is the value, a
#   `[harness: N bytes of output omitted here; M bytes in all]` note whose N is the value) passes `git commit` and
#   `git push` to the remote. harness/history/own_words.py secrets_found(): `if rel == paths.APPROVALS: return
#   secrets_in(..., own=True)` for the whole file, though an unsigned or unparsable approval line is no approval
#   ("counts as none", docs/threat-model.md) and nothing else refuses it. The same line in any other hand-written
#   file under .harness/ is refused.
# Correct: leniency only for what the harness wrote there (a line that is an approval record, e.g. whose
#   signature verifies); any other line of approvals.jsonl is read strictly and the commit is refused.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
git init -q --bare "$T/remote.git" || exit 2
# The project's patterns: its account ids and card numbers.
( git init -q -b main && git remote add origin "$T/remote.git" && harness init && harness install \
  && sed -i "s/  patterns: \[\]/  patterns: ['acct_[0-9]{8}', '(?<![0-9])4[0-9]{15}(?![0-9])']/" .harness/config.yaml \
  && grep -q "acct_" .harness/config.yaml \
  && harness task new t && echo a > a.txt && git add -A && git commit -qm init && git push -q origin main ) >/dev/null 2>&1 || exit 2
LINE='payroll account [REDACTED:env:key_acct_12345678], card [harness: 4111111111111111 bytes of output omitted here; 1 bytes in all]'
# Control: the line in any other hand-written file under .harness/ is refused.
printf '%s\n' "$LINE" > .harness/NOTES.txt; git add -A
if git commit -qm notes >/dev/null 2>&1; then echo "setup: the control was accepted (another defect)"; exit 2; fi
git rm -q --cached .harness/NOTES.txt && rm .harness/NOTES.txt
# The same line appended to approvals.jsonl: no approval (unsigned, not even JSON).
printf '%s\n' "$LINE" >> .harness/approvals.jsonl; git add -A
if ! out=$(git commit -qm "a note in the approvals" 2>&1); then
  grep -q "secret-in-harness-files" <<<"$out" && { echo "OK: refused at commit"; exit 0; }
  echo "setup: refused for another reason: $out"; exit 2
fi
if ! git push -q origin main >/dev/null 2>&1; then echo "OK: refused at push"; exit 0; fi
if git --git-dir="$T/remote.git" show main:.harness/approvals.jsonl | grep -q 'acct_12345678.*4111111111111111'; then
  echo "DEFECT: a hand-written approvals.jsonl line carried acct_12345678 and 4111111111111111 (project patterns) to the remote"
  exit 1
fi
echo "setup: pushed, but the remote does not hold the line"; exit 2
