#!/usr/bin/env bash
# Defect: harness/agent/judge/shell_commands.py without_heredocs starts a here-document body on the next physical
#   line even when the line of `<<WORD` ends inside an open double quote. bash reads the body only after the line
#   the quoted word closes on. The guard cuts the lines of the quoted `bash -c "…"` (or `eval "…"`) string up to
#   the first WORD line as "here-document data", so the command in that string is never judged.
# Correct: the body starts after the first newline read as code (open_quotes empty); the guard denies the line.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q -b main && harness init && harness install && harness task new t && echo a > a.txt && git add -A \
  && git commit -qm init ) >/dev/null 2>&1 || exit 2
# The agent's pre-tool-use guard, as Claude Code calls it; prints "deny" or "allow".
guard() {
  local out
  out=$(python3 -c 'import json,sys; print(json.dumps({"session_id":"s","transcript_path":"/tmp/t","cwd":sys.argv[1],
    "hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":sys.argv[2]}}))' "$PWD" "$1" \
    | harness hook agent claude pre-tool-use 2>/dev/null)
  case $out in *'"deny"'*) echo deny ;; *) echo allow ;; esac
}
# Stage a loosened gate.yaml: the harness's own pre-commit hook refuses to commit it.
sed -i 's/critical_allowed: 0/critical_allowed: 9/' .harness/gate.yaml && git add .harness/gate.yaml || exit 2
git commit -qm loosen >/dev/null 2>&1 && { echo "setup: the hook did not refuse the loosened gate"; exit 2; }
[ "$(guard 'git commit -n -m loosen')" = deny ] || { echo "setup: guard does not deny the plain git commit -n"; exit 2; }
# Decide: the guard allows CMD and running it commits the loosened gate.yaml past the hook -> defect (exit 1).
judge() {
  local cmd=$1 verdict
  verdict=$(guard "$cmd")
  echo "guard on the command: $verdict"
  if [ "$verdict" = deny ]; then echo "OK: the guard refuses it"; exit 0; fi
  bash -c "$cmd" >/dev/null 2>&1
  if git show HEAD:.harness/gate.yaml | grep -q 'critical_allowed: 9'; then
    echo "DEFECT: guard allowed it and the loosened gate.yaml is committed past the hook (HEAD: $(git log -1 --format=%s))"
    exit 1
  fi
  echo "guard allowed it, but nothing got past the hook"; exit 0
}

judge $'cat <<true; bash -c "\ngit commit -n -m loosen\ntrue\n"\ntrue'
