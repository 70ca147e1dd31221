#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
D=$(cd "$(dirname "$0")" && pwd)  # this folder: common.inc, its helpers
# A lone surrogate (JSON "\ud800") in a path word of a tool call crashes the guard (UnicodeEncodeError
# when the path is resolved), and run._pre_tool_use's failure policy then ALLOWS the call whenever the
# call's text has none of bypass.mentions_guarded's words ("git", "harness", "events.jsonl", "evidence"...).
# A command can do its damage without those words (`cd .ha* && rm -r tasks`), and the path that carries the
# surrogate can be a dummy argument. A host built on Node (Claude Code, Gemini CLI) accepts "\ud800" in
# the model's tool-call JSON and passes it on in the hook payload; when it runs the command or writes the
# file it encodes the surrogate as U+FFFD, so the call does what its text says.
# Same for an edit: Write `S\ud800/../pytest.ini` (S\ufffd an ordinary folder) with addopts=--basetemp=.harness.
# Exit 1 while any such call is allowed (the plain forms denied), 0 when all are denied.
source "$D"/common.inc
ask() { # HOST TOOL KEY VALUE [CONTENT] -> deny|allow ; "SUR" in VALUE becomes a lone surrogate
  local out rc
  out=$(python - "$R" "$@" <<'PY' | harness hook agent "$1" pre-tool-use 2>/dev/null
import json, sys
cwd, host, tool, key, value = sys.argv[1:6]
ti = {key: value.replace("SUR", "\ud800")}
if len(sys.argv) > 6: ti["content"] = sys.argv[6]
print(json.dumps({"session_id": "s", "cwd": cwd, "hook_event_name": "PreToolUse", "tool_name": tool, "tool_input": ti}))
PY
); rc=$?
  { [ $rc = 2 ] || grep -q '"deny"' <<<"$out"; } && echo deny || echo allow
}
mkdir "S$(printf '\xef\xbf\xbd')" || exit 2
C=$'[pytest]\naddopts = --basetemp=.harness\n'
fail=0
for h in claude codex gemini; do
  sh=Bash; [ $h = gemini ] && sh=run_shell_command
  wr=Write; [ $h = gemini ] && wr=write_file
  [ "$(ask $h $sh command 'cd .ha* && rm -r tasks')" = deny ] || { echo "setup: plain rm not denied ($h)" >&2; exit 2; }
  [ "$(ask $h $wr file_path 'pytest.ini' "$C")" = deny ] || { echo "setup: plain pytest.ini not denied ($h)" >&2; exit 2; }
  a=$(ask $h $sh command 'cd .ha* && rm -r tasks SUR/z')
  b=$(ask $h $wr file_path 'SSUR/../pytest.ini' "$C")
  echo "$h: 'cd .ha* && rm -r tasks \\ud800/z' -> $a ; $wr 'S\\ud800/../pytest.ini' -> $b"
  { [ "$a" = allow ] || [ "$b" = allow ]; } && fail=1
done
# What the host then runs (the surrogate as U+FFFD): the task record is gone.
( bash -c "cd .ha* && rm -r tasks S$(printf '\xef\xbf\xbd')/z" ) >/dev/null 2>&1
[ -d .harness/tasks ] && echo "tasks still there" || echo "after running it: .harness/tasks deleted"
exit $fail
