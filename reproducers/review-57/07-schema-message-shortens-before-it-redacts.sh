#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# F-0118's fix redacts a schema problem's message (harness/store/validate.py describe), but only after
# _described has shortened the value with reprlib (maxstring 80: its first and last ~38 characters around
# `...`). A string longer than that keeps the end of a token and drops its start, prefix included: `ghp_` +
# 36 characters becomes `p_` + 36 characters, which no rule knows, and the redaction afterwards leaves it.
# The commit refusal, `harness status` and CI's audit print all 36 of the token's body characters (only
# its `gh` is dropped: the token is recovered at once).
# Exit 1 while the token's body appears in the refusal or status output; 0 when fixed; 2 on setup failure.
export GIT_CONFIG_GLOBAL=/dev/null GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q && echo a > a.txt && git add -A && git commit -qm init && harness init && harness install \
  && harness task new t && git add -A && git commit -qm harness ) >/dev/null 2>&1 || exit 2
GH=ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5
BODY=${GH:5}   # 35 of the 36 characters after `ghp_`
sed -i "s|^  tail_bytes: 8192|  tail_bytes: \"the staging deploy key for the nightly job is $GH\"|" .harness/config.yaml
grep -q "$GH" .harness/config.yaml || exit 2
git add -A >/dev/null
out=$(git commit -qm edit 2>&1) && { echo "setup: commit accepted" >&2; exit 2; }
st=$(harness status 2>&1)
rc=0
for what in "commit refusal" "status"; do
  text=$([ "$what" = status ] && printf '%s' "$st" || printf '%s' "$out")
  line=$(printf '%s\n' "$text" | grep -m1 'not of type')
  if printf '%s' "$text" | grep -q -- "$BODY"; then
    echo "$what: prints the token's body: $(printf '%s' "$line" | sed "s/$BODY/<35 chars of the token>/")"; rc=1
  else echo "$what: token not printed"; fi
done
exit $rc
