#!/usr/bin/env bash
# Defect: the pre-tool-use guard has no time budget of its own, and judging nested command substitutions is
#   super-linear (harness/agent/judge/shell_commands.py _fallback_commands/_set_aside rescans the line with
#   shell_quotes.scan at every nesting level; shell_resolve.substitute_commands/_closing likewise). A ~30 KB
#   Bash line `git commit --no-verify -m x; echo "$(echo "$(echo ... x)")"` keeps the guard busy far past the
#   15 s timeout `harness agent install` writes (hook_settings.TIMEOUT_SECONDS["pre-tool-use"]). Every host
#   then lets the call run: Claude Code treats a timed-out hook as a non-blocking error; Codex marks it Failed
#   with should_block=false (codex-rs/hooks/src/events/pre_tool_use.rs parse_completed: run_result.error ->
#   Failed, no block); Gemini CLI resolves it `success:false` with no output, so no deny
#   (packages/core/src/hooks/hookRunner.ts, timedOut). The commit with --no-verify runs first on the line.
# Correct: the guard answers within the host's timeout; a line it cannot judge in time is denied (an internal
#   deadline below the installed timeout, answering deny), as docs/agents.md promises for what it cannot work out.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q -b main && harness init && harness install && harness task new t && echo a > a.txt && git add -A \
  && git commit -qm init ) >/dev/null 2>&1 || exit 2
harness agent install --host claude >/dev/null 2>&1 || exit 2
limit=$(python3 -c "
import json,sys
for g in json.load(open('$R/.claude/settings.json'))['hooks']['PreToolUse']:
    for h in g['hooks']:
        if 'hook agent' in h['command']: print(h['timeout'])") || exit 2

mk() {  # Claude Code's PreToolUse payload for a Bash call
  python3 - "$R" "$1" <<'PY'
import json, sys
cwd, n = sys.argv[1], int(sys.argv[2])
line = "git commit --no-verify -m x"
if n:
    line += "; echo " + '"$(echo ' * n + "x" + ')"' * n
print(json.dumps({"session_id": "s1", "transcript_path": "/tmp/t.jsonl", "cwd": cwd, "permission_mode": "default",
                  "hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": line},
                  "tool_use_id": "toolu_1"}))
PY
}
mk 0 > "$T/plain.json"; mk 2500 > "$T/nested.json"
harness hook agent claude pre-tool-use < "$T/plain.json" | grep -q '"deny"' || { echo "setup: plain bypass not denied"; exit 2; }
echo "installed pre-tool-use timeout: ${limit}s; payload $(wc -c < "$T/nested.json") bytes"
start=$(date +%s)
out=$(timeout -s TERM "$limit" harness hook agent claude pre-tool-use < "$T/nested.json"); rc=$?
echo "hook exit=$rc after $(( $(date +%s) - start ))s (124: killed by the host's timeout)"
if [ $rc -eq 0 ] && echo "$out" | grep -q '"permissionDecision": "deny"'; then echo "ok: denied in time"; exit 0; fi
echo "DEFECT: no answer within the host's ${limit}s timeout: the host proceeds, and 'git commit --no-verify' runs"
exit 1
