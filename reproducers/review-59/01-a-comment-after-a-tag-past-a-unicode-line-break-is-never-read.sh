#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# Read 59: F-0128's fix (harness/store/yaml_outside_scalars.py _after_properties) reads a comment after a value's
# `&anchor`/`!tag` only when the blanks between are " \t\r\n". libyaml (CSafeLoader) also breaks a line at NEL
# (U+0085), LINE SEPARATOR (U+2028) and PARAGRAPH SEPARATOR (U+2029), and skips a byte-order mark (U+FEFF) at the
# start of a line as a blank. After such a character the walk stops, and the rest of the node's span (the comment,
# then the value) is blanked: `ref: !!str<NEL>#  TOKEN<NEL>  refs/notes/harness` loads as the same value, and the
# token in the comment is read by neither the value check nor the outside-scalars check. The commit is accepted.
# Exit 1 while any such commit is accepted; 0 when all are refused; 2 on setup failure.
export GIT_CONFIG_GLOBAL=/dev/null GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q && echo a > a.txt && git add -A && git commit -qm init && harness init && harness install \
  && harness task new t && git add -A && git commit -qm harness ) >/dev/null 2>&1 || exit 2
grep -q "^  ref: refs/notes/harness$" .harness/config.yaml || { echo "setup: no notes ref line in config.yaml" >&2; exit 2; }
base=$(git rev-parse HEAD)
export GH=ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5
try() {
  git add -A >/dev/null
  if git commit -qm edit >/dev/null 2>&1; then echo "$1: commit ACCEPTED"; res=accepted
  else echo "$1: commit refused"; res=refused; fi
  git reset -q --hard "$base"
}
edit() {  # $1: what stands between `ref: !!str` and the comment; $2 (default $1): between the comment and the value
  python - "$1" "${2:-$1}" <<'PY' || exit 2
import os, sys, yaml
p = ".harness/config.yaml"; t = open(p, encoding="utf-8").read(); GH = os.environ["GH"]
br, br2 = (a.encode().decode("unicode_escape") for a in sys.argv[1:3])
new = t.replace("  ref: refs/notes/harness\n", f"  ref: !!str{br}# {GH}{br2}    refs/notes/harness\n", 1)
assert new != t
load = lambda s: yaml.load(s, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
old_value, new_value = load(t), load(new)
if old_value != new_value:
    print("setup: the edit changes the loaded config", file=sys.stderr); sys.exit(2)
open(p, "w", encoding="utf-8", newline="").write(new)
PY
  grep -q "$GH" .harness/config.yaml || exit 2
  harness status >/dev/null 2>&1 || { echo "setup: the edited config.yaml is not valid" >&2; exit 2; }
}
edit '\n'; try "control: comment on its own line after the tag (LF)"
[ "$res" = refused ] || { echo "setup: control accepted" >&2; exit 2; }
rc=0
for br in '\x85' '\u2028' '\u2029'; do
  edit "$br"; try "comment after the tag, line broken by $br"; [ "$res" = accepted ] && rc=1
done
edit '\n\ufeff' '\n'; try "comment after the tag, its line starting with a byte-order mark"; [ "$res" = accepted ] && rc=1
exit $rc
