#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# Read 57's F-0127 fix (harness/store/validate.py _described/_shown) redacts every *string* of a schema problem's
# value before reprlib shortens it. A YAML value tagged `!!binary` is read by the safe loader as bytes, which
# _shown passes through untouched: _short(bytes) keeps the first and last ~38 characters of its repr around
# `...`, and the redaction of the whole line afterwards no longer knows a token whose prefix was cut off. So
# `ref: !!binary <base64 of "the staging deploy key for the nightly job is ghp_...">` in config.yaml makes
# `harness status` (and the commit refusal, CI's audit) print the token's body in clear ("b'...is not of type").
# The same for the strings inside a `!!set` (a Python set) or `!!pairs`/`!!omap` (a list of tuples), which _shown
# does not descend into either (checked in status below).
# Exit 1 while the token's body appears in the refusal or status output; 0 when fixed; 2 on setup failure.
export GIT_CONFIG_GLOBAL=/dev/null GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q && echo a > a.txt && git add -A && git commit -qm init && harness init && harness install \
  && harness task new t && git add -A && git commit -qm harness ) >/dev/null 2>&1 || exit 2
GH=ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5
BODY=${GH:5}   # 35 of the 36 characters after `ghp_`
B=$(printf '%s' "the staging deploy key for the nightly job is $GH" | base64 -w0) || exit 2
sed -i "s|^  ref: refs/notes/harness|  ref: !!binary $B|" .harness/config.yaml
grep -q -- "!!binary $B" .harness/config.yaml || exit 2
git add -A >/dev/null
out=$(git commit -qm edit 2>&1) && { echo "setup: commit accepted" >&2; exit 2; }
st=$(harness status 2>&1)
printf '%s' "$st" | grep -q 'not of type' || { echo "setup: status names no schema problem" >&2; exit 2; }
rc=0
for what in "commit refusal" "status"; do
  text=$([ "$what" = status ] && printf '%s' "$st" || printf '%s' "$out")
  line=$(printf '%s\n' "$text" | grep -m1 'not of type')
  if printf '%s' "$text" | grep -q -- "$BODY"; then
    echo "$what: prints the token's body: $(printf '%s' "$line" | sed "s/$BODY/<35 chars of the token>/")"; rc=1
  else echo "$what: token not printed${line:+ ($line)}"; fi
done
for tagged in '!!set {"the staging deploy key for the nightly job is GH": null}' \
              '!!pairs [{"the staging deploy key for the nightly job is GH": 1}]'; do
  git checkout -q HEAD -- .harness/config.yaml || exit 2
  sed -i "s|^  ref: refs/notes/harness|  ref: ${tagged//GH/$GH}|" .harness/config.yaml
  grep -q -- "$GH" .harness/config.yaml || exit 2
  line=$(harness status 2>&1 | grep -m1 'not of type')
  [ -n "$line" ] || { echo "setup: status names no schema problem for ${tagged%% *}" >&2; exit 2; }
  if printf '%s' "$line" | grep -q -- "$BODY"; then
    echo "status, ${tagged%% *}: prints the token's body: $(printf '%s' "$line" | sed "s/$BODY/<35 chars of the token>/")"; rc=1
  else echo "status, ${tagged%% *}: token not printed ($line)"; fi
done
exit $rc
