#!/usr/bin/env bash
# The agent's tool guard knows the programs that write the files they are given as operands (tee, cp, sed -i, …)
# but not those that write where an OPTION says: `pytest --basetemp=DIR` empties DIR before the run (so
# `--basetemp=.harness` deletes the task record), `sort -o FILE`, `uniq IN OUT`, `tree -o FILE`, `pytest
# --junitxml=FILE`. Each is allowed silently while it overwrites the harness's record or a git hook.
# Exit 1 while any of them is allowed, 0 when every one is refused, 2 on setup failure.
set -u
command -v harness >/dev/null || { echo "setup: no harness on PATH"; exit 2; }
TMP=$(mktemp -d) || exit 2
trap 'rm -rf "$TMP"' EXIT
REPO="$TMP/repo"
mkdir -p "$REPO" && cd "$REPO" && git init -q && harness init >/dev/null 2>&1 || { echo "setup: harness init failed"; exit 2; }
allowed=0
while IFS= read -r cmd; do
  out=$(printf '{"session_id":"s","cwd":"%s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"%s"}}' \
    "$REPO" "$cmd" | harness hook agent claude pre-tool-use 2>&1)
  case "$out" in
    *'"deny"'*) echo "refused: $cmd" ;;
    *) echo "DEFECT: allowed: $cmd ${out:+($out)}"; allowed=1 ;;
  esac
done <<'CMDS'
pytest --basetemp=.harness
pytest -q --basetemp .harness/tasks
python3 -m pytest --basetemp=.harness
pytest --junitxml=.harness/approvals.jsonl
sort -o .harness/approvals.jsonl notes.txt
sort --output=.harness/approvals.jsonl notes.txt
uniq notes.txt .harness/approvals.jsonl
tree -o .git/hooks/pre-commit
CMDS
exit $allowed
