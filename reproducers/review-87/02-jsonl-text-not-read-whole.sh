#!/usr/bin/env bash
# Defect: the commit check reads a hand-written .harness/ file "that is neither JSON nor YAML" whole (read 83's F-0285)
#   only when its name does not end in .jsonl: harness/store/secrets_check.py flagged_values reads a .jsonl file line by
#   line, and a line that is not JSON falls back to _flagged(line) alone, never _lines/_across_lines. A curl command
#   continued with `\` (or a hex dump wrapped at 60 columns) in .harness/notes.jsonl is committed in clear.
# Correct: the non-JSON text of a .jsonl file is read whole as any text file is: the commit is refused naming the line,
#   as it is for the very same text in .harness/notes.md (the control).
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q -b main && harness init && harness install && harness task new t && echo a > a.txt && git add -A \
  && git commit -qm init ) >/dev/null 2>&1 || exit 2
TEXT='# notes
curl https://api.example.com/v1/items \
  -u admin:Hunter2Secret
'
# control: the same text in a .md file is refused at commit
printf '%s' "$TEXT" > .harness/notes.md && git add -A || exit 2
if git commit -qm notes-md >/dev/null 2>&1; then echo "setup: the control .harness/notes.md was committed"; exit 2; fi
git rm -q --cached .harness/notes.md && rm .harness/notes.md || exit 2
printf '%s' "$TEXT" > .harness/notes.jsonl && git add -A || exit 2
if git commit -qm notes-jsonl >/dev/null 2>&1 && git grep -q Hunter2Secret HEAD -- .harness; then
  echo "DEFECT: .harness/notes.jsonl committed holding 'curl ... \\ -u admin:Hunter2Secret' in clear"; exit 1
fi
echo "OK: the .jsonl file was refused"; exit 0
