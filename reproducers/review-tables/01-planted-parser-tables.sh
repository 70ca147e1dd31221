#!/usr/bin/env bash
# The agent's tool guard reads bashlex's LR tables from $XDG_CACHE_HOME/engineering-harness (~/.cache), a folder
# the agent itself can write. The file is named after a digest of bashlex's sources (computable by anyone) and
# checked for shape only: a well-formed table with other entries is used as-is, so what the guard parses is
# decided by whoever wrote the file. Here the shifts on `&&` and `;` are swapped in a planted table: bashlex's
# import then fails, and the guard's answer to a plain `rm -rf build` changes (a crash message instead of a
# silent allow; a git command is refused). "A bad cache costs time, never a wrong answer" does not hold.
# Exit 1 while a planted table changes an answer, 0 when it does not, 2 on setup failure.
set -u
H=$(command -v harness) || { echo "setup: no harness on PATH"; exit 2; }
PY=$(dirname "$(readlink -f "$H")")/python
[ -x "$PY" ] || PY=$(head -1 "$H" | sed 's/^#!//')
TMP=$(mktemp -d) || exit 2
trap 'rm -rf "$TMP"' EXIT
REPO="$TMP/repo"
mkdir -p "$REPO" && cd "$REPO" && git init -q && harness init >/dev/null 2>&1 || { echo "setup: harness init failed"; exit 2; }
export XDG_CACHE_HOME="$TMP/cache"
ask() {
  printf '{"session_id":"s","cwd":"%s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"%s"}}' \
    "$REPO" "$1" | harness hook agent claude pre-tool-use 2>&1 | sed 's/crash-[0-9TZ.]*-[0-9]*\.log/crash.log/'
}
before=$(ask "rm -rf build")
# The tables the guard would compute, as an agent finds them (or computes them itself), then planted altered.
"$PY" - "$XDG_CACHE_HOME" <<'PYEOF' || { echo "setup: could not plant"; exit 2; }
import glob, marshal, os, sys
from pathlib import Path
from harness.agent import bashlex_tables
bashlex_tables.load(Path(sys.argv[1], "engineering-harness"))  # writes the honest file there
paths = glob.glob(os.path.join(sys.argv[1], "engineering-harness", "bashlex-tables-*.marshal"))
if not paths:  # the guard no longer reads tables from this folder: plant where it used to
    sys.exit(0)
fmt, prods, action, goto = marshal.loads(open(paths[0], "rb").read())
for row in action.values():
    if "AND_AND" in row and "SEMICOLON" in row:
        row["AND_AND"], row["SEMICOLON"] = row["SEMICOLON"], row["AND_AND"]
open(paths[0], "wb").write(marshal.dumps((fmt, prods, action, goto)))
PYEOF
after=$(ask "rm -rf build")
echo "before: ${before:-<silent allow>}"
echo "after planting: ${after:-<silent allow>}"
if [ "$before" != "$after" ]; then echo "DEFECT: a table planted in the user's cache folder changed the guard's answer"; exit 1; fi
exit 0
