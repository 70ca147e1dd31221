#!/usr/bin/env bash
# Defect: harness/agent/judge/bypass.py _check_program() judges the pre-commit framework's command line only when the
#   program is `pre-commit` or Python runs the module (`python -m pre_commit`: _python_runs_pre_commit uses
#   module_run only). Python running the installed `pre-commit` script by its path — `python .venv/bin/pre-commit
#   install -f --allow-missing-config` — is not read as pre-commit (the harness's own script run so IS read as the
#   harness: _python_runs_harness uses script_run), so the refused install --overwrite passes, deletes the harness's
#   shims and a forged-ledger commit goes through.
# Correct: a Python command line whose script is the framework's entry point (a file named pre-commit, or one whose
#   real path is the installed console script) is judged as `pre-commit ARGS`, as for the harness's own script:
#   refused here, while `python .venv/bin/pre-commit install` stays allowed.
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
PY="$here"/.venv/bin/python; PC="$here"/.venv/bin/pre-commit
[ -x "$PC" ] || exit 2

echo '{"forged":1}' >> .harness/tasks/*/events.jsonl; git add -A
if git commit -qm forged >/dev/null 2>&1; then echo "setup: the forged commit was not refused"; exit 2; fi
[ "$(guard "$PY -m pre_commit install -f --allow-missing-config")" = deny ] || { echo "setup: -m form not refused"; exit 2; }
[ "$(guard "$PY $PC install")" = allow ] || { echo "legitimate \`python pre-commit install\` is refused"; exit 1; }

line="$PY $PC install -f --allow-missing-config"
answer=$(guard "$line")
echo "guard on \`$line\`: $answer"
[ "$answer" = deny ] && { echo "fixed: refused"; exit 0; }
$line >/dev/null 2>&1
if git commit -qm forged >"$T/out" 2>&1; then
  echo "DEFECT: the shims were overwritten (no .legacy kept: $(ls .git/hooks | grep -c legacy)) and the forged-ledger commit went through"
  exit 1
fi
echo "the commit was still refused"; exit 0
