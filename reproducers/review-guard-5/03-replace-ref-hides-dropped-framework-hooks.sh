#!/usr/bin/env bash
# The agent guard denies `git commit` when the staged .pre-commit-config.yaml drops a harness hook that HEAD's
# runs (framework_configs: HEAD's and the index's blob, now via `git cat-file --batch`, before via `git show`).
# Both honour refs/replace, and the guard allows `git replace OLD NEW`: replacing HEAD's config blob by one
# without the harness hooks makes the same commit ALLOWED (HEAD "had none to drop"). Pre-existing (same answer
# at bd8dbd7^). Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd)
export PATH="$here/.venv/bin:$PATH"; export PYTHONPATH="$here"
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
{ git init -q && git config user.email a@b && git config user.name a \
  && python -m harness init && python -m harness install && python -m harness task new t; } >/dev/null 2>&1 || exit 2
printf 'repos:\n- repo: local\n  hooks:\n  - id: harness-check\n    name: x\n    entry: harness\n    language: system\n' \
  > .pre-commit-config.yaml
{ git add -A && git commit -qm init -n; } >/dev/null 2>&1 || exit 2
printf 'repos: []\n' > .pre-commit-config.yaml; git add .pre-commit-config.yaml || exit 2
hk() {
  python - "$R" "$1" <<'PY' | python -m harness hook agent claude pre-tool-use 2>/dev/null | grep -q '"deny"' && echo deny || echo allow
import json, sys
print(json.dumps({"session_id": "s", "cwd": sys.argv[1], "hook_event_name": "PreToolUse",
                  "tool_name": "Bash", "tool_input": {"command": sys.argv[2]}}))
PY
}
[ "$(hk "git commit -m x")" = deny ] || { echo "setup: the commit dropping harness-check is not denied" >&2; exit 2; }
B=$(git rev-parse HEAD:.pre-commit-config.yaml) && N=$(git rev-parse :.pre-commit-config.yaml) || exit 2
echo "guard on \`git replace $B $N\`: $(hk "git replace $B $N")"
git replace "$B" "$N" || exit 2
a=$(hk "git commit -m x"); echo "guard on \`git commit -m x\` (staged config drops harness-check) after the replace: $a"
[ "$a" = deny ] || exit 1
exit 0
