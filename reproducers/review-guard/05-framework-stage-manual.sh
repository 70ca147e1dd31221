#!/usr/bin/env bash
# An edit that keeps a harness hook's id but moves it to stages: [manual] disables it; the edit and the commit are allowed.
set -u
source "$(cd "$(dirname "$0")" && pwd)/lib.sh"
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
