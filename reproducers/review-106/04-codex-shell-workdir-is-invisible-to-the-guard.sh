#!/usr/bin/env bash
# Defect: Codex runs a shell call in the folder its `workdir` argument names, but its PreToolUse hook input
#   carries only {"tool_name":"Bash","tool_input":{"command": CMD}} and "cwd" = the turn's cwd
#   (openai/codex codex-rs/core/src/tools/handlers/shell/shell_command.rs pre_tool_use_payload:
#   `tool_input: json!({ "command": command })`; hook_runtime.rs run_pre_tool_use_hooks: `cwd: turn_context.cwd`).
#   harness/agent/hosts/codex.py declares workdir_keys=("workdir",) and hosts._workdir() reads
#   tool_input["workdir"], a key Codex never sends, so the guard always judges a Codex line as run in the
#   session's folder. When that folder is outside the harness repository (a `--scope user` install with Codex
#   started in the parent folder, or in a nested repository the guard exempts), `git commit --no-verify` is
#   allowed - and Codex runs it, with workdir "repo", inside the harness repository.
# Correct: since a Codex payload cannot say where the line runs, the guard does not grant the
#   "outside any harness / nested repository" allowances to a line that would skip the harness's hooks: it
#   denies it (a plain `git commit -m x` there stays allowed).
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q -b main && harness init && harness install && harness task new t && echo a > a.txt && git add -A \
  && git commit -qm init ) >/dev/null 2>&1 || exit 2
export CODEX_HOME="$HOME/.codex"
harness agent install --host codex --scope user >/dev/null 2>&1 || exit 2   # ~/.codex/hooks.json: every session
mkdir -p "$R/vendor/lib" && git -C "$R/vendor/lib" init -q || exit 2

ask() {  # $1 = session cwd, $2 = command; the PreToolUse input Codex sends for shell_command/exec_command
  python3 - "$1" "$2" <<'PY' | harness hook agent codex pre-tool-use
import json, sys
print(json.dumps({"session_id": "0199a7c2-0000-7000-8000-000000000001", "turn_id": "1", "transcript_path": None,
                  "cwd": sys.argv[1], "hook_event_name": "PreToolUse", "model": "gpt-5-codex",
                  "permission_mode": "default", "tool_name": "Bash", "tool_input": {"command": sys.argv[2]},
                  "tool_use_id": "call_1"}))
PY
}
ask "$R" "git commit --no-verify -m x" | grep -q '"deny"' || { echo "setup: control, --no-verify in the repo not denied"; exit 2; }
ask "$T" "git commit -m x" | grep -q '"deny"' && { echo "setup: a plain commit is denied"; exit 2; }

fail=0
# The model's call: shell_command {"command": "git commit --no-verify -m x", "workdir": "<below>"}; Codex shows
# the hook only the command, and the session's cwd.
for case in "$T|repo" "$R/vendor/lib|../.."; do
  cwd=${case%|*}; wd=${case#*|}
  if ask "$cwd" "git commit --no-verify -m x" | grep -q '"deny"'; then echo "ok: denied (session in $cwd)"
  else
    (cd "$cwd" && cd "$wd" && [ "$(git rev-parse --show-toplevel)" = "$R" ]) || exit 2
    echo "DEFECT: session in ${cwd#$T/}, workdir '$wd' = the harness repo: 'git commit --no-verify' is allowed"; fail=1
  fi
done
exit $fail
