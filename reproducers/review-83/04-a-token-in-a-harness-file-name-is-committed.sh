#!/usr/bin/env bash
# Defect: the commit/push check reads the name of a `.harness/` file only where it is a custom evidence type's
#   (harness/history/change_rules.py _check_secrets -> secrets_check.agents_name_flagged, which flags a part only when
#   it starts with `custom.`): a file `.harness/keys/ghp_<36>.txt` or `.harness/keys/AKIA<16>` (the secret in its name,
#   a git tree entry) is committed and pushed, while the same token in the file's text is refused.
# Correct: every part of a `.harness/` path the change brings is read with the harness's rules (the harness's own ids
#   and words exempt, as for a JSON key), and a name holding a secret is refused without printing it.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
git init -q --bare "$T/remote.git" || exit 2
( git init -q -b main && git remote add origin "$T/remote.git" && harness init && harness install && harness task new t \
  && echo a > a.txt && git add -A && git commit -qm init && git push -q origin main ) >/dev/null 2>&1 || exit 2
TOK=ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8
mkdir -p .harness/keys
# Control: the token in a file's text is refused.
echo "$TOK" > .harness/keys/notes.txt; git add -A
if git commit -qm control >/dev/null 2>&1; then echo "setup: the control was not refused"; exit 2; fi
git rm -q --cached .harness/keys/notes.txt && rm .harness/keys/notes.txt
# The token in the file's name.
echo "rotate me" > ".harness/keys/$TOK.txt"
git add -A
if ! git commit -qm keys >"$T/out" 2>&1; then
  grep -q secret-in-harness-files "$T/out" && { echo "OK: the commit check refused the name"; exit 0; }
  echo "setup: refused for another reason:"; cat "$T/out"; exit 2
fi
git push -q origin main >/dev/null 2>&1 || { echo "OK: the push was refused"; exit 0; }
if git --git-dir="$T/remote.git" ls-tree -r --name-only main | grep -q "$TOK"; then
  echo "DEFECT: the remote holds .harness/keys/$TOK.txt: a GitHub token in a .harness/ file name passed both checks"
  exit 1
fi
echo "OK"; exit 0
