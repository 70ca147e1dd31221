#!/usr/bin/env bash
# Extracting any archive in the repository root (tar xzf fixtures.tgz, unzip data.zip) is denied even when the archive holds no .harness/ member.
set -u
H=$(command -v harness)
[ -n "$H" ] || { echo "setup: no harness on PATH"; exit 2; }
REPO=$(mktemp -d)
trap 'rm -rf "$REPO"' EXIT
cd "$REPO"
git init -q . && git config user.email r@example.com && git config user.name r
"$H" init >/dev/null 2>&1 && "$H" install >/dev/null 2>&1 && "$H" task new "demo" >/dev/null 2>&1
TASK=$(ls .harness/tasks | head -1)
LEDGER=.harness/tasks/$TASK/events.jsonl
git add -A && git commit -q -m "start task" >/dev/null 2>&1 || git commit -qn -m "start task"
# verdict CMD -> prints deny|allow for a Claude Bash payload run in $REPO
verdict() {
  local json out
  json=$(python3 -c 'import json,sys; print(json.dumps({"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":sys.argv[1]},"cwd":sys.argv[2],"session_id":"s"}))' "$1" "$REPO")
  out=$(printf '%s' "$json" | "$H" hook agent claude pre-tool-use 2>/dev/null)
  if printf '%s' "$out" | grep -q '"permissionDecision": *"deny"'; then echo deny; else echo allow; fi
}
mkdir -p fx && echo hi > fx/a.txt && tar -czf fixtures.tgz fx && rm -rf fx
python3 -c 'import zipfile; z=zipfile.ZipFile("data.zip","w"); z.writestr("data/b.txt","x"); z.close()'
rc=0
for c in "tar xzf fixtures.tgz" "tar -xzf fixtures.tgz" "unzip data.zip"; do
  v=$(verdict "$c"); echo "$v: $c"; [ "$v" = deny ] && rc=1
done
tar -tzf fixtures.tgz | sed 's/^/  member: /'
[ $rc = 1 ] && echo "DEFECT: an everyday extraction at the root is denied (the archive's members are readable with tar -t/unzip -l)"
exit $rc
