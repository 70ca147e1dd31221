#!/usr/bin/env bash
# Exits 1 while the agent guard allows `python3 -I -m harness uninstall` (and -P, -E, combined `-Im`):
# it knows `python -m harness` only when `-m harness` are the first two arguments.
here=$(cd "$(dirname "$0")/../.." && pwd)
export PATH="$here/.venv/bin:$PATH"
D=$(mktemp -d) || exit 2
trap 'rm -rf "$D"' EXIT
cd "$D" && git init -q && git -c user.name=t -c user.email=t@t commit -q --allow-empty -m init || exit 2
harness init >/dev/null 2>&1 && harness task new t >/dev/null 2>&1 || exit 2
bad=0
for c in "python3 -I -m harness uninstall" "python3 -Pm harness uninstall" "python3 -E -s -m harness uninstall" \
         "python3 -X utf8 -m harness uninstall" "python3 -m harness.__main__ uninstall"; do
  out=$(printf '{"session_id":"s","cwd":"%s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"%s"}}' "$D" "$c" \
        | harness hook agent claude pre-tool-use)
  case "$out" in *'"deny"'*) ;; *) echo "allowed: $c"; bad=1;; esac
done
exit $bad
