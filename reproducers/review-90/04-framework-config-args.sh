#!/bin/bash
# Defect: harness/agent/judge/framework_config.py `_switched_off` counts a harness hook in
#   .pre-commit-config.yaml as turned off only when its item moves it to the manual stage or sets
#   entry/language/alias. Per-hook `args:` (and `always_run: false` + `files: ^$`) are not looked at, so an Edit
#   adding `args: [--help]` under `- id: harness-validate` is allowed (and so is the commit carrying it), yet
#   the framework then runs `harness hook validate --help`, which prints help and exits 0: the commit check is
#   off, and a commit rewriting a task ledger goes through.
# Correct: an edit that gives a harness hook `args`, or `always_run: false`/`files`/`exclude`/`types` that can
#   keep it from running, is refused as a dropped hook (framework-config), like removing the hook.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"
export PRE_COMMIT_HOME="$T/pre-commit-home"
# This project as a hook repository (its committed HEAD), as docs/git.md's framework setup uses it.
git clone -q "$here" "$T/hook-repo" 2>/dev/null || exit 2
SHA=$(git -C "$T/hook-repo" rev-parse HEAD) || exit 2
cd "$R" || exit 2
( git init -q -b main && harness init && harness task new t ) >/dev/null 2>&1 || exit 2
cat > .pre-commit-config.yaml <<EOC
default_install_hook_types: [pre-commit, post-commit, post-merge, post-rewrite, pre-merge-commit, pre-push]
repos:
- repo: $T/hook-repo
  rev: $SHA
  hooks:
  - id: harness-validate
  - id: harness-stamp
  - id: harness-merge-guard
  - id: harness-push-guard
  - id: harness-gate
  - id: harness-audit
EOC
( python -m pre_commit install && git config notes.rewriteRef refs/notes/harness && git config notes.rewriteMode ignore \
  && echo a > a.txt && git add -A && git commit -qm init ) >/dev/null 2>&1 || { echo "setup: framework install/commit failed"; exit 2; }
LEDGER=$(ls .harness/tasks/*/events.jsonl) || exit 2

edit() {  # Claude Code's Edit of .pre-commit-config.yaml: ALLOW or DENY
  python3 -c 'import json,sys; print(json.dumps({"session_id":"s","tool_name":"Edit","tool_input":{"file_path":sys.argv[3]+"/.pre-commit-config.yaml","old_string":sys.argv[1],"new_string":sys.argv[2]},"hook_event_name":"PreToolUse","cwd":sys.argv[3]}))' "$1" "$2" "$R" \
    | harness hook agent claude pre-tool-use | grep -q '"deny"' && echo DENY || echo ALLOW
}
OLD='  - id: harness-validate
'
NEW='  - id: harness-validate
    args: [--help]
'
# Controls: removing the hook is refused; and the commit hook refuses a rewritten ledger.
[ "$(edit "$OLD" '')" = DENY ] || { echo "setup: control edit not denied"; exit 2; }
echo rewritten > "$LEDGER"; git add -A
if git commit -qm forged >/dev/null 2>&1; then echo "setup: commit hook did not refuse"; exit 2; fi
git reset -q --hard

verdict=$(edit "$OLD" "$NEW"); echo "guard on the Edit adding \`args: [--help]\` to harness-validate: $verdict"
[ "$verdict" = DENY ] && { echo "OK: refused"; exit 0; }
python3 - "$OLD" "$NEW" <<'PY'
import sys; p = ".pre-commit-config.yaml"; s = open(p).read(); open(p, "w").write(s.replace(sys.argv[1], sys.argv[2], 1))
PY
echo rewritten > "$LEDGER"; git add -A
if git commit -qm forged >/dev/null 2>&1; then
  echo "DEFECT: the commit check no longer runs: a commit rewriting $LEDGER went through"; git log --oneline -1; exit 1
fi
echo "allowed, but the commit was still refused"; exit 0
