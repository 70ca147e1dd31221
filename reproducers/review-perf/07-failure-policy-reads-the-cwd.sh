#!/usr/bin/env bash
# Exits 1 while a tool call whose input has the wrong type is denied because the session's folder
# (not the call) names something the guard protects: a project under ~/git/ or in a folder named
# after the harness gets a deny for `["ls -la"]` that a project elsewhere gets allowed.
here=$(cd "$(dirname "$0")/../.." && pwd)
export PATH="$here/.venv/bin:$PATH"
D=$(mktemp -d) || exit 2
trap 'rm -rf "$D"' EXIT
mkdir -p "$D/git/project" && cd "$D/git/project" && git init -q \
  && git -c user.name=t -c user.email=t@t commit -q --allow-empty -m init || exit 2
harness init >/dev/null 2>&1 || exit 2
out=$(printf '{"session_id":"s","cwd":"%s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":["ls -la"]}' "$PWD" \
      | harness hook agent claude pre-tool-use)
case "$out" in *'"deny"'*) echo "denied for the folder's name: $out"; exit 1;; esac
echo "allowed, the error shown"
