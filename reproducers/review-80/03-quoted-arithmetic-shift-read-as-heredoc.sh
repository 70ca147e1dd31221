#!/usr/bin/env bash
# Defect: commit 9c6422c (F-0273) taught the scanner that `<<` inside `$((…))` is a shift, not a here-document,
#   but only at the top level: inside double quotes (harness/agent/judge/shell_quotes.py: _piece, the `"` branch
#   opens only `$(` and backticks) `"$((1<<EOF))"` is read as a `$(` substitution holding a `(` group, so its
#   `<<EOF` counts as code and without_heredocs() (harness/agent/judge/shell_commands.py) takes the following lines,
#   up to a line `EOF`, as here-document data. Bash reads a shift by $EOF and runs those lines as commands:
#   `git commit -n` there is never judged, and the loosened gate.yaml is committed past the hook.
#   (Unquoted `echo $((1<<EOF))` followed by the same lines is denied.)
# Correct: `$((` inside double quotes is arithmetic too; the line is denied (no-verify).
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q -b main && harness init && harness install && harness task new t && echo a > a.txt && git add -A \
  && git commit -qm init ) >/dev/null 2>&1 || exit 2

guard() {
  local payload out
  payload=$(python3 -c 'import json,sys; print(json.dumps({"session_id":"s","transcript_path":"/tmp/t","cwd":sys.argv[2],
    "hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":sys.argv[1]}}))' "$1" "$R") || exit 2
  out=$(printf '%s' "$payload" | harness hook agent claude pre-tool-use 2>/dev/null)
  case "$out" in *'"permissionDecision": "deny"'*) echo deny;; *) echo allow;; esac
}

sed -i 's/unit_test: required/unit_test: optional/' .harness/gate.yaml || exit 2
git diff --quiet && { echo "setup: gate.yaml not loosened"; exit 2; }
git commit -qam loosen >/dev/null 2>&1 && { echo "setup: the hook did not refuse the loosening"; exit 2; }
[ "$(guard 'git commit -n -qam loosen')" = deny ] || { echo "setup: plain -n not denied"; exit 2; }
[ "$(guard $'((echo x) )\ngit commit -n -qam loosen')" = deny ] || { echo "setup: -n after ((…) ) not denied"; exit 2; }
[ "$(guard $'cat <<EOF\nhello\nEOF\ngit commit -qam ok')" = allow ] || { echo "setup: ordinary heredoc denied"; exit 2; }
[ "$(guard $'echo $((1<<EOF))\ngit commit -n -qam loosen\nEOF')" = deny ] || { echo "setup: unquoted variant not denied"; exit 2; }

line=$'echo "$((1<<EOF))"\ngit commit -n -qam loosen\nEOF'
v=$(guard "$line")
echo "guard: $v for:"; printf '%s\n---\n' "$line"
if [ "$v" = allow ]; then
  bash -c "$line" >/dev/null 2>&1
  if git show --stat HEAD | grep -q 'gate.yaml'; then
    echo "DEFECT: allowed, and bash ran line 2: the loosened gate.yaml is committed without the harness's hook"
  else
    echo "DEFECT: allowed (the guard read line 2 as here-document data)"
  fi
  exit 1
fi
echo "OK: denied"; exit 0
