#!/usr/bin/env bash
# `echo git commit --no-verify -m x | bash`: bash runs what echo prints, `git commit --no-verify -m x`.
# shell_commands._fed_to_a_shell builds the `bash -c` text from echo's words minus EVERY word starting with
# `-` (meant for echo's own leading -n/-e), so the judged text is `git commit -m x` and the call is ALLOWED,
# while the same text quoted (`echo 'git commit --no-verify -m x' | bash`) is denied. Pre-existing (also in
# bd8dbd7^), carried unchanged into plain_line's path. Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd)
export PATH="$here/.venv/bin:$PATH"; export PYTHONPATH="$here"
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"
( cd "$R" && git init -q && git config user.email a@b && git config user.name a \
  && python -m harness init && python -m harness install && python -m harness task new t ) >/dev/null 2>&1 || exit 2
hk() { # decision of the agent guard for a Bash command in $R
  python - "$R" "$1" <<'PY' | python -m harness hook agent claude pre-tool-use 2>/dev/null | grep -q '"deny"' && echo deny || echo allow
import json, sys
print(json.dumps({"session_id": "s", "cwd": sys.argv[1], "hook_event_name": "PreToolUse",
                  "tool_name": "Bash", "tool_input": {"command": sys.argv[2]}}))
PY
}
[ "$(hk "git commit --no-verify -m x")" = deny ] || { echo "setup: control not denied" >&2; exit 2; }
[ "$(hk "echo 'git commit --no-verify -m x' | bash")" = deny ] || { echo "setup: quoted control not denied" >&2; exit 2; }
# What bash really runs:
printf 'bash would run: %s\n' "$(echo git commit --no-verify -m x)"
fail=0
for c in "echo git commit --no-verify -m x | bash" "echo git commit -n -m x | bash" \
         "echo git push --no-verify | sh"; do
  a=$(hk "$c"); echo "$a: $c"; [ "$a" = deny ] || fail=1
done
exit $fail
