#!/usr/bin/env bash
# Defect (false refusal): harness/agent/judge/pre_commit_runs.py check_pre_commit() refuses every `-c/--config` of
#   `pre-commit install`, saying it "writes hooks that read another config than .pre-commit-config.yaml" — also when
#   the config named IS .pre-commit-config.yaml (`pre-commit install --config .pre-commit-config.yaml`, a common
#   spelling in setup scripts and Makefiles), whose hooks are exactly the ones `pre-commit install` writes.
# Correct: a --config naming this repository's .pre-commit-config.yaml (`.pre-commit-config.yaml`,
#   `./.pre-commit-config.yaml`, its absolute path) is allowed like a plain install; `-c other.yaml` stays refused.
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
[ "$(guard "pre-commit install -c other.yaml")" = deny ] || { echo "setup: -c other.yaml is not refused"; exit 2; }
[ "$(guard "pre-commit install")" = allow ] || exit 2
status=0
for line in "pre-commit install --config .pre-commit-config.yaml" "pre-commit install -c ./.pre-commit-config.yaml"; do
  answer=$(guard "$line"); echo "$line: $answer"; [ "$answer" = deny ] && status=1
done
[ $status = 1 ] && echo "DEFECT: an install naming the default config (the same hooks as a plain install) is refused"
exit $status
