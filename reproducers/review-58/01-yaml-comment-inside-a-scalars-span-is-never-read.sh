#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# The commit check of a .harness/*.yaml file (harness/store/secrets_check.py _in_comments, via
# harness/store/yaml_outside_scalars.py) blanks each scalar node's span (start_mark..end_mark, less the
# `&anchor`/`!tag` properties before it) and reads what is left. Two comments lie inside such a span
# and are no part of any value, so neither the value check nor the outside-scalars check ever reads them:
#   * the comment on a block scalar's header line:        `key: |  # TOKEN`  (also `|2-`, `>+`)
#   * a comment after a value's anchor or tag, before the value on the next line:
#                                                         `key: &a  # TOKEN` / `key: !!str # TOKEN`
# The values are unchanged (the schema is happy) and the token is committed to .harness/config.yaml.
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
R1='t.replace("  ref: refs/notes/harness\n", "  ref: REPL\n", 1)'
edit "$R1.replace(\"REPL\", \"refs/notes/harness  # \" + GH)"; try "control: the token in a comment after the value"
[ "$res" = refused ] || { echo "setup: control accepted" >&2; exit 2; }
rc=0
edit "$R1.replace(\"REPL\", \"|-  # \" + GH + \"\n    refs/notes/harness\")"; try "comment on a block scalar's header (|-)"; [ "$res" = accepted ] && rc=1
edit "$R1.replace(\"REPL\", \">2-  # \" + GH + \"\n    refs/notes/harness\")"; try "comment on a block scalar's header (>2-)"; [ "$res" = accepted ] && rc=1
edit "$R1.replace(\"REPL\", \"&n  # \" + GH + \"\n    refs/notes/harness\")"; try "comment after the value's anchor"; [ "$res" = accepted ] && rc=1
edit "$R1.replace(\"REPL\", \"!!str  # \" + GH + \"\n    refs/notes/harness\")"; try "comment after the value's tag"; [ "$res" = accepted ] && rc=1
exit $rc
