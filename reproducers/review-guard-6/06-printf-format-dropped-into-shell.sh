#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# `printf FORMAT ARGS | bash` runs FORMAT with ARGS substituted. shell_commands._printed (f5ac62b's rework) judges
# printf's ARGUMENTS ALONE when there are any, never the format: `printf 'git commit --no-verify -m %s' x | bash`
# is judged as `bash -c x` and ALLOWED. Escapes printf and `echo -e` turn into characters (`\x2d`, `\055` = `-`)
# are judged as written, so `printf 'git commit \055\055no-verify -m x' | bash` is allowed too.
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
[ "$(hk "printf 'git commit --no-verify -m x' | bash")" = deny ] || { echo "setup: control not denied" >&2; exit 2; }
fail=0
for p in "printf 'git commit --no-verify -m %s' x" "printf '%s --no-verify -m x' 'git commit'" "printf 'git commit -%s -m x' n" \
         "printf 'git commit \\055\\055no-verify -m x'" "echo -e 'git commit \\x2d-no-verify -m x'"; do
  c="$p | bash"; a=$(hk "$c"); echo "$a: $c   (bash runs: $(eval "$p"))"; [ "$a" = deny ] || fail=1
done
exit $fail
