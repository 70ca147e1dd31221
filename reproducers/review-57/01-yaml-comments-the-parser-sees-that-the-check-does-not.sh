#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# The commit check reads YAML comments (harness/store/yaml_comments.py) with its own pattern:
# a `#` at the start of a `\n`-line or right after a space/tab, outside every scalar's span.
# The parser (libyaml / PyYAML) starts a comment in more places than that, and every one of them
# is committed unread:
#   - a byte-order mark before a `#` on the first line (an editor saving UTF-8 with BOM),
#   - a comment after a line break that is not `\n` (`\r` alone, NEL U+0085, U+2028),
#   - a `#` right after a flow indicator: `[a,#...`, `[#...`, `{b: 1,#...`,
#   - a `#` right after a closing quote: `key: "x"#...`.
# Each file below parses to ordinary values (the schema is happy) and its comment holds a token.
# Exit 1 while any such commit is accepted; 0 when all are refused; 2 on setup failure.
export GIT_CONFIG_GLOBAL=/dev/null GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q && echo a > a.txt && git add -A && git commit -qm init && harness init && harness install \
  && harness task new t && git add -A && git commit -qm harness ) >/dev/null 2>&1 || exit 2
base=$(git rev-parse HEAD)
export GH=ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5
try() { # LABEL: commit the working tree as edited; report; back to base
  git add -A >/dev/null
  if git commit -qm edit >/dev/null 2>&1; then echo "$1: commit ACCEPTED"; res=accepted
  else echo "$1: commit refused"; res=refused; fi
  git reset -q --hard "$base"
}
edit() { # PYTHON-EXPR over `t` (config.yaml's text) -> new text
  python - "$1" <<'PY' || exit 2
import os, sys
p = ".harness/config.yaml"; t = open(p, encoding="utf-8").read(); GH = os.environ["GH"]
open(p, "w", encoding="utf-8", newline="").write(eval(sys.argv[1]))
PY
  grep -q "$GH" .harness/config.yaml || exit 2
}
# control: an ordinary comment holding the token is refused (F-0117's fix)
edit 't + "# old key " + GH + "\n"'; try "control: '# old key TOKEN' on its own line"
[ "$res" = refused ] || { echo "setup: control accepted" >&2; exit 2; }
rc=0
edit '"\ufeff# old key " + GH + "\n" + t'; try "BOM, then '# old key TOKEN' as the first line"; [ "$res" = accepted ] && rc=1
edit 't.replace("version: 1\n", "version: 1\r# old key " + GH + "\n", 1)'; try "comment after a lone CR line break"; [ "$res" = accepted ] && rc=1
edit 't.replace("version: 1\n", "version: 1\x85# old key " + GH + "\n", 1)'; try "comment after a NEL line break"; [ "$res" = accepted ] && rc=1
edit 't.replace("  patterns: []", "  patterns: [\n    \"x\",# old key " + GH + "\n  ]", 1)'; try "comment right after a comma in a flow sequence"; [ "$res" = accepted ] && rc=1
edit 't.replace("  patterns: []", "  patterns: [\"x\"]#" + GH, 1)'; try "comment right after a closing bracket"; [ "$res" = accepted ] && rc=1
exit $rc
