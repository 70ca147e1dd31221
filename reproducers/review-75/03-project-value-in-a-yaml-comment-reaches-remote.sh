#!/usr/bin/env bash
# Defect: a value of the project's own `redaction.patterns` typed into a comment of a .harness/ YAML file — here a
#   task's rendered requirements.yaml, where the harness never writes a comment — passes the commit and push checks
#   and reaches the remote. harness/store/secrets_check.py _in_comments() reads everything outside a YAML file's
#   scalars (comments, and the like) with own_rules() alone, dropping the project's patterns in every YAML file,
#   whoever wrote it; the projection check compares values only, so the comment is not caught there either. The
#   same value on a line of .harness/NOTES.md is refused, and a built-in token in the same comment is refused.
# Correct: comments are text a person wrote: the commit is refused naming the file and line (at the least in the
#   task files the harness renders without comments; in config.yaml/gate.yaml the comments `harness init` writes,
#   or those a parent already held, may be excused instead of dropping the project's patterns everywhere).
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
SECRET=acct_48151623   # the project names `acct_[0-9]{8}` as secret
( git init -q --bare "$T/remote.git" && git init -q -b main && git remote add origin "$T/remote.git" \
  && harness init && harness install \
  && sed -i "s/  patterns: \[\]/  patterns: ['acct_[0-9]{8}']/" .harness/config.yaml \
  && grep -q "patterns: \['acct_" .harness/config.yaml \
  && echo a > a.txt && git add -A && git commit -qm init && git push -q origin main \
  && harness task new "Bill the account" && harness requirement add "Invoices are sent monthly" --priority must \
  && git add -A && git commit -qm task ) >/dev/null 2>&1 || exit 2
REQ=$(ls .harness/tasks/*/requirements.yaml) || exit 2
# Control 1: the value on a line of a hand-written file is refused.
printf 'billing account %s\n' "$SECRET" > .harness/NOTES.md; git add -A
if git commit -qm notes >/dev/null 2>&1; then echo "setup: NOTES.md with the value accepted"; exit 2; fi
git rm -q --cached .harness/NOTES.md && rm .harness/NOTES.md
# Control 2: a built-in secret kind in the same comment is refused (comments are read).
cp "$REQ" "$T/req.bak"
printf '# token ghp_%s\n' "A1b2C3d4E5A1b2C3d4E5A1b2C3d4E5F6g7H8" >> "$REQ"; git add -A
if git commit -qm comment >/dev/null 2>&1; then echo "setup: a GitHub token in a comment accepted"; exit 2; fi
cp "$T/req.bak" "$REQ"
# The project's value in a comment of the rendered file.
printf '# billing account %s\n' "$SECRET" >> "$REQ"; git add -A
if ! out=$(git commit -qm "requirements note" 2>&1); then
  if grep -q "requirements.yaml:[0-9]* \[secret-in-harness-files\]" <<<"$out"; then
    echo "OK: the comment holding the project's value is refused"; exit 0
  fi
  echo "setup: refused for another reason:"; echo "$out"; exit 2
fi
git push -q origin main >/dev/null 2>&1
if git -C "$T/remote.git" grep -q "$SECRET" main -- .harness 2>/dev/null; then
  echo "DEFECT: '# billing account $SECRET' in $REQ was committed and pushed to the remote"
  exit 1
fi
echo "DEFECT: the comment was committed (the push was refused)"; exit 1
