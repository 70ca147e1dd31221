#!/bin/bash
# Defect: the agent guard (harness/agent/judge/bypass.py, the `pre-commit` rule near line 441) refuses only
#   `pre-commit uninstall`; `pre-commit install --overwrite --allow-missing-config` (or `-f`) is allowed, yet it
#   replaces the harness's native .git/hooks/pre-commit shim with the framework's, which — with no
#   .pre-commit-config.yaml in a native-mode repository — skips every check. A commit that rewrites a task
#   ledger then goes through with no commit check at all.
# Correct: a `pre-commit install` that overwrites (--overwrite/-f) the harness's hooks, or points them at another
#   config (-c), is refused like `pre-commit uninstall` / writing .git/hooks/pre-commit.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q -b main && harness init && harness install && harness task new t && echo a > a.txt && git add -A \
  && git commit -qm init ) >/dev/null 2>&1 || exit 2
command -v pre-commit >/dev/null || exit 2

guard() {  # prints ALLOW or DENY for a Bash tool call
  python3 -c 'import json,sys; print(json.dumps({"session_id":"s","tool_name":"Bash","tool_input":{"command":sys.argv[1]},"hook_event_name":"PreToolUse","cwd":sys.argv[2]}))' "$1" "$R" \
    | harness hook agent claude pre-tool-use | grep -q '"deny"' && echo DENY || echo ALLOW
}
LEDGER=$(ls .harness/tasks/*/events.jsonl) || exit 2

# Controls: the guard refuses uninstalling the framework's hooks, and the harness's commit hook refuses a rewritten ledger.
[ "$(guard 'pre-commit uninstall')" = DENY ] || { echo "setup: control 'pre-commit uninstall' not denied"; exit 2; }
echo rewritten > "$LEDGER"; git add -A
if git commit -qm forged >/dev/null 2>&1; then echo "setup: the commit hook did not refuse a rewritten ledger"; exit 2; fi
git reset -q --hard

CMD='pre-commit install --overwrite --allow-missing-config'
verdict=$(guard "$CMD")
echo "guard on \`$CMD\`: $verdict"
[ "$verdict" = DENY ] && { echo "OK: refused"; exit 0; }

pre-commit install --overwrite --allow-missing-config >/dev/null 2>&1 || exit 2
echo rewritten > "$LEDGER"; git add -A
if git commit -qm forged >/dev/null 2>&1; then
  echo "DEFECT: after the allowed command, a commit rewriting $LEDGER went through with no commit check:"
  git log --oneline -1
  exit 1
fi
echo "the command was allowed but the commit was still refused"; exit 0
