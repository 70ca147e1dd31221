#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# shell_commands._fed_to_a_shell recognises `echo …| bash` only when the right-hand command's FIRST word is a shell
# with option words alone. A prefix the guard strips everywhere else (`sudo`, `env`, `nice`, `command`, `timeout 9`)
# in front of the shell, or the shell given /dev/stdin as its script, hides the pipe: `echo git commit --no-verify
# -m x | sudo bash` is ALLOWED (the here-document rule FEEDS_A_SHELL does allow for `sudo`).
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"
( cd "$R" && git init -q && harness init && harness install && harness task new t ) >/dev/null 2>&1 || exit 2
hk() { # the guard's decision for a Bash command run in $R, through the hook's CLI
  python - "$R" "$1" <<'PY' | harness hook agent claude pre-tool-use 2>/dev/null | grep -q '"deny"' && echo deny || echo allow
import json, sys
print(json.dumps({"session_id": "s", "cwd": sys.argv[1], "hook_event_name": "PreToolUse",
                  "tool_name": "Bash", "tool_input": {"command": sys.argv[2]}}))
PY
}
[ "$(hk "echo git commit --no-verify -m x | bash")" = deny ] || { echo "setup: control not denied" >&2; exit 2; }
fail=0
for sh in "sudo bash" "env bash" "nice bash" "command bash" "timeout 9 sh" "bash /dev/stdin"; do
  c="echo git commit --no-verify -m x | $sh"; a=$(hk "$c"); echo "$a: $c"; [ "$a" = deny ] || fail=1
done
exit $fail
