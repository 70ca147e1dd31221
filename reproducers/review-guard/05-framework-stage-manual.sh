#!/usr/bin/env bash
# An edit that keeps a harness hook's id but moves it to stages: [manual] disables it; the edit and the commit are allowed.
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
cat > .pre-commit-config.yaml <<'YAML'
repos:
  - repo: https://github.com/example/engineering-harness
    rev: v1.0.0
    hooks:
      - id: harness-validate
      - id: harness-merge-guard
      - id: harness-push-guard
      - id: harness-stamp
YAML
git add .pre-commit-config.yaml && git commit -qn -m "framework config"
edit() {  # edit OLD NEW -> deny|allow for a Claude Edit of .pre-commit-config.yaml
  local json out
  json=$(python3 -c 'import json,sys; print(json.dumps({"hook_event_name":"PreToolUse","tool_name":"Edit","tool_input":{"file_path":sys.argv[1]+"/.pre-commit-config.yaml","old_string":sys.argv[2],"new_string":sys.argv[3]},"cwd":sys.argv[1],"session_id":"s"}))' "$REPO" "$1" "$2")
  out=$(printf '%s' "$json" | "$H" hook agent claude pre-tool-use 2>/dev/null)
  if printf '%s' "$out" | grep -q '"permissionDecision": *"deny"'; then echo deny; else echo allow; fi
}
old=$'      - id: harness-validate\n'
new=$'      - id: harness-validate\n        stages: [manual]\n'
control=$(edit "$old" "")
e=$(edit "$old" "$new")
echo "control (drop the id): $control ; add stages: [manual] to harness-validate: $e"
python3 - <<'PY'
import pathlib
p = pathlib.Path(".pre-commit-config.yaml")
p.write_text(p.read_text().replace("      - id: harness-validate\n", "      - id: harness-validate\n        stages: [manual]\n"))
PY
git add .pre-commit-config.yaml
c=$(verdict "git commit -m 'tidy hooks'")
echo "commit carrying it: $c"
if [ "$e" = allow ] && [ "$c" = allow ]; then echo "DEFECT: harness-validate moved to the manual stage (never runs on commit) passes the guard"; exit 1; fi
exit 0
