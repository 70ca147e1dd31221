#!/usr/bin/env bash
# Defect: hooks/hooks.json is shared by the Claude Code plugin and the Gemini CLI extension (docs/agents.md:
#   "Gemini reads an extension's hooks only from hooks/hooks.json ... so the two share it: Gemini keeps its
#   SessionStart entry"). Its SessionStart handler says "timeout": 30 - seconds for Claude Code, but Gemini CLI
#   counts hook timeouts in milliseconds (gemini-cli docs/hooks/reference.md: "timeout | number | Execution
#   timeout in milliseconds (default: 60000)"; packages/core/src/hooks/hookRunner.ts: setTimeout(kill,
#   hookConfig.timeout) and a timed-out hook is `success: false` with no output). The harness knows this for
#   its own installer (hook_settings.entries writes TIMEOUT_SECONDS*1000 = 30000 for gemini) but ships 30 to
#   Gemini in the extension: the session-start hook is SIGTERMed after 30 ms, before `harness` has even
#   answered, so Gemini extension users never get the task/state/next-command context.
# Correct: the SessionStart entry Gemini keeps from hooks/hooks.json gives the hook as long as the harness's own
#   Gemini install does (e.g. no "timeout" key, so each host uses its default, or a value >= 30000).
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q -b main && harness init && harness install && harness task new t && echo a > a.txt && git add -A \
  && git commit -qm init ) >/dev/null 2>&1 || exit 2
harness agent install --host gemini >/dev/null 2>&1 || exit 2

# What Gemini takes from the extension's hooks/hooks.json: the entries whose event names it knows.
ms=$(python3 - "$here"/hooks/hooks.json "$R/.gemini/settings.json" <<'PY'
import json, sys
shared = json.load(open(sys.argv[1]))["hooks"]["SessionStart"]
own = json.load(open(sys.argv[2]))["hooks"]["SessionStart"]
ext = [h.get("timeout", 60000) for g in shared for h in g["hooks"] if "hook agent" in h["command"]]
ins = [h.get("timeout", 60000) for g in own for h in g["hooks"] if "hook agent" in h["command"]]
print(ext[0], ins[0])
PY
) || exit 2
set -- $ms; ext_ms=$1; own_ms=$2
echo "Gemini session-start timeout: extension hooks/hooks.json ${ext_ms} ms; harness agent install --host gemini ${own_ms} ms"

# The real command, as Gemini runs it for the extension (HOST auto, Gemini's SessionStart payload), killed as
# Gemini kills it after the extension's timeout.
P=$(printf '{"session_id":"s1","transcript_path":"/tmp/t.json","cwd":"%s","hook_event_name":"SessionStart","timestamp":"2026-01-01T00:00:00.000Z","source":"startup"}' "$R")
full=$(printf '%s' "$P" | harness hook agent auto session-start) || exit 2
echo "$full" | grep -q additionalContext || { echo "setup: the hook gives no context even untimed"; exit 2; }
secs=$(python3 -c "print($ext_ms/1000)")
start=$(date +%s%N); printf '%s' "$P" | timeout -s TERM "$secs" harness hook agent auto session-start >/dev/null; rc=$?
took=$(( ($(date +%s%N) - start) / 1000000 ))
echo "under Gemini's ${ext_ms} ms limit the hook exited rc=$rc after ${took} ms (124 = killed: Gemini drops its answer)"

if [ "$ext_ms" -lt "$own_ms" ]; then
  echo "DEFECT: the extension's SessionStart timeout (${ext_ms} ms in Gemini) is $(( own_ms / ext_ms ))x shorter than the harness's own Gemini install; the context is lost"
  exit 1
fi
echo "ok"; exit 0
