#!/usr/bin/env bash
# F-0020 regression: facts.guarded_root opens every `.git` beside a `.harness/` folder to read
# "gitdir: "; a `.git` that is a FIFO blocks open() forever. Any agent can make one outside the
# repository (`mkdir -p /tmp/x/.harness /tmp/x/sub; mkfifo /tmp/x/.git`); a session cwd below it,
# or an edit of any file below it, then hangs the guard until the host's hook timeout (15 s), and a
# timed-out hook does not deny: here a forged append to the protected repo's ledger. The same
# open() in git_config_files.may_set_hooks_path hangs on a FIFO config file.
# Exit 1 while the guard hangs (> 8 s) on either call, 0 when it answers, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/../review-guard-3/common.inc"
command -v timeout >/dev/null && command -v mkfifo >/dev/null || exit 2
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME" || exit 2
R="$T/repo"; mkdir "$R"; new_repo "$R"
mkdir -p "$T/trap/.harness" "$T/trap/sub" && mkfifo "$T/trap/.git" || exit 2
[ "$(hk "$R" Bash "{\"command\":\"echo x >> $R/.harness/events.jsonl\"}")" = deny ] || { echo "setup: control" >&2; exit 2; }
fail=0
ask() {  # ask CWD TOOL INPUT_JSON
  local payload rc
  payload=$(python3 -c 'import json,sys; print(json.dumps({"session_id":"grev","cwd":sys.argv[1],"tool_name":sys.argv[2],"tool_input":json.loads(sys.argv[3])}))' "$1" "$2" "$3") || exit 2
  printf '%s' "$payload" | timeout 8 harness hook agent claude pre-tool-use >/dev/null 2>&1; rc=$?
  if [ $rc = 124 ]; then echo "HANG (>8s): cwd=$1 $2 $3"; fail=1; else echo "answered (rc=$rc): cwd=$1 $2 $3"; fi
}
ask "$T/trap/sub" Bash "{\"command\":\"echo forged >> $R/.harness/events.jsonl\"}"
ask "$R" Write "{\"file_path\":\"$T/trap/sub/notes.txt\",\"content\":\"x\"}"
exit $fail
