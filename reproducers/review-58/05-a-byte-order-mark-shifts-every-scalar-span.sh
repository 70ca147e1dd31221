#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# harness/store/yaml_outside_scalars.py takes each scalar's span from the composed document's marks
# (start_mark.index..end_mark.index) and indexes the decoded text with them. libyaml (yaml.CSafeLoader, which
# secrets_check._yaml uses) does not count a leading byte-order mark: in a file that starts with U+FEFF every
# mark is one character short, so each blanked span starts one character early. For `key: &ANCHOR value` the
# span then starts at the blank before `&`, _after_properties finds no `&`/`!` there, and the anchor is
# blanked with the value: read 57's F-0121 comes back with a BOM. The file is valid (`harness status` reads it);
# the token is committed to .harness/config.yaml.
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
new = eval(sys.argv[1])
assert new != t
open(p, "w", encoding="utf-8", newline="").write(new)
PY
  grep -q "$GH" .harness/config.yaml || exit 2
  harness status >/dev/null 2>&1 || { echo "setup: the edited config.yaml is not valid" >&2; exit 2; }
}
edit 't.replace("version: 1\n", "version: &" + GH + " 1\n", 1)'; try "control: the token as an anchor's name, no BOM"
[ "$res" = refused ] || { echo "setup: control accepted" >&2; exit 2; }
rc=0
edit '"\ufeff" + t.replace("version: 1\n", "version: &" + GH + " 1\n", 1)'; try "BOM, the token as an anchor's name"; [ "$res" = accepted ] && rc=1
edit '"\ufeff" + t.replace("version: 1\n", "&" + GH + " version: 1\n", 1)'; try "BOM, the token as a key's anchor"; [ "$res" = accepted ] && rc=1
exit $rc
