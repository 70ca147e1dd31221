#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# The commit check of a .harness/*.yaml file (harness/store/secrets_check.py _yaml) reads the
# scalar nodes yaml.compose returns and, since F-0117, the comments. A YAML text has more places
# that hold arbitrary words and that neither of the two covers: an anchor's name (`&NAME`, any of
# [A-Za-z0-9_-], which every ghp_/AKIA/npm_ token is made of), and a `%TAG` directive's prefix.
# The files parse to the same values as before (the schema is happy), and the token is committed.
# Exit 1 while any such commit is accepted; 0 when all are refused; 2 on setup failure.
export GIT_CONFIG_GLOBAL=/dev/null GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q && echo a > a.txt && git add -A && git commit -qm init && harness init && harness install \
  && harness task new t && git add -A && git commit -qm harness ) >/dev/null 2>&1 || exit 2
base=$(git rev-parse HEAD)
export GH=ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5
try() {
  git add -A >/dev/null
  if git commit -qm edit >/dev/null 2>&1; then echo "$1: commit ACCEPTED"; res=accepted
  else echo "$1: commit refused"; res=refused; fi
  git reset -q --hard "$base"
}
edit() {
  python - "$1" <<'PY' || exit 2
import os, sys
p = ".harness/config.yaml"; t = open(p, encoding="utf-8").read(); GH = os.environ["GH"]
open(p, "w", encoding="utf-8", newline="").write(eval(sys.argv[1]))
PY
  grep -q "$GH" .harness/config.yaml || exit 2
}
edit 't.replace("version: 1\n", "version: 1  # " + GH + "\n", 1)'; try "control: the token in a comment"
[ "$res" = refused ] || { echo "setup: control accepted" >&2; exit 2; }
rc=0
edit 't.replace("version: 1\n", "version: &" + GH + " 1\n", 1)'; try "the token as an anchor's name"; [ "$res" = accepted ] && rc=1
edit '"%TAG !e! tag:" + GH + ":\n---\n" + t'; try "the token in a %TAG directive's prefix"; [ "$res" = accepted ] && rc=1
exit $rc
