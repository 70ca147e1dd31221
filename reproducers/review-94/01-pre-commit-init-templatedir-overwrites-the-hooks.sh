#!/usr/bin/env bash
# Defect: harness/agent/judge/pre_commit_runs.py check_pre_commit() refuses `pre-commit init-templatedir` only with
#   -c/--config (WRITERS lists no --overwrite for it), but pre-commit's init_templatedir() always calls
#   install(..., overwrite=True, skip_on_missing_config=True, git_dir=DIRECTORY). Pointed at this repository's git
#   folder (`pre-commit init-templatedir .git`) it moves each harness shim in .git/hooks to `<stage>.legacy` and then
#   deletes it, and the hook it writes skips everything when there is no .pre-commit-config.yaml: the same effect as
#   the refused `pre-commit install --overwrite --allow-missing-config`, allowed.
# Correct: `init-templatedir` counts as `--overwrite` (it always overwrites) when its DIRECTORY is this repository's
#   git folder (or any folder whose hooks git runs here); `pre-commit init-templatedir ~/.git-template` and a plain
#   `pre-commit install` stay allowed.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q -b main && harness init && harness install && harness task new t && echo a > a.txt && git add -A \
  && git commit -qm init ) >/dev/null 2>&1 || exit 2

guard() {  # COMMAND -> deny|allow (Claude Code's PreToolUse payload for Bash, as tests/support/agent_guard.py)
  python3 - "$PWD" "$1" <<'PY'
import json, subprocess, sys
call = {"session_id": "s", "cwd": sys.argv[1], "hook_event_name": "PreToolUse", "tool_name": "Bash",
        "tool_input": {"command": sys.argv[2]}}
p = subprocess.run(["harness", "hook", "agent", "claude", "pre-tool-use"], cwd=sys.argv[1], input=json.dumps(call),
                   capture_output=True, text=True)
print("deny" if '"deny"' in p.stdout else "allow")
PY
}

# Control: the forged ledger is refused by the harness's native pre-commit hook.
echo '{"forged":1}' >> .harness/tasks/*/events.jsonl; git add -A
if git commit -qm forged >/dev/null 2>&1; then echo "setup: the forged commit was not refused"; exit 2; fi
# Controls: the refused spelling is refused; the legitimate ones stay allowed.
[ "$(guard 'pre-commit install --overwrite --allow-missing-config')" = deny ] || { echo "setup: --overwrite not refused"; exit 2; }
for ok in "pre-commit install" "pre-commit init-templatedir $HOME/.git-template"; do
  [ "$(guard "$ok")" = allow ] || { echo "legitimate \`$ok\` is refused"; exit 1; }
done

answer=$(guard "pre-commit init-templatedir .git")
echo "guard on \`pre-commit init-templatedir .git\`: $answer"
[ "$answer" = deny ] && { echo "fixed: refused"; exit 0; }
pre-commit init-templatedir .git >/dev/null 2>&1
ls .git/hooks/pre-commit.legacy >/dev/null 2>&1 && echo "(the shim was kept as .legacy)"
if git commit -qm forged >"$T/out" 2>&1; then
  echo "DEFECT: the harness's pre-commit shim is gone ($(grep -c harness .git/hooks/pre-commit) harness lines in"\
       ".git/hooks/pre-commit now) and the forged-ledger commit went through:"; grep -m1 "Skipping" "$T/out"; exit 1
fi
echo "the commit was still refused"; exit 0
