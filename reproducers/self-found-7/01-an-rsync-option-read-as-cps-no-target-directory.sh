#!/usr/bin/env bash
# My own read of d49bf24: the copy-into-the-top rule reads rsync's long options with cp's table, so an rsync
# option spelled `--no-t` (rsync's --no-times) is taken for cp's --no-target-directory, and `rsync -a --no-t d .`
# (d copied into the top as d) is refused as if it copied d's contents there. Exit 1 while it is refused, 0 once
# allowed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
set -u
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
repo="$tmp/repo"; mkdir -p "$repo" && cd "$repo" || exit 2
{ git init -q && git config user.email a@b.c && git config user.name a && echo 'x = 1' > app.py \
  && git add -A && git commit -qm init && harness init >/dev/null 2>&1; } || { echo "setup failed"; exit 2; }
mkdir -p d/sub && echo x > d/sub/f || exit 2
answer=$(python3 - "$repo" <<'PY' | harness hook agent claude pre-tool-use
import json, sys
print(json.dumps({"session_id": "s", "cwd": sys.argv[1], "hook_event_name": "PreToolUse", "tool_name": "Bash",
                  "tool_input": {"command": "rsync -a --no-t d ."}}))
PY
)
case "$answer" in *'"deny"'*) echo "deny: rsync -a --no-t d ."; exit 1;; *) echo "allow: rsync -a --no-t d ."; exit 0;; esac
