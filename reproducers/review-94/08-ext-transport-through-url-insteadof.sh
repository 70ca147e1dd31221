#!/usr/bin/env bash
# Defect: harness/agent/judge/git_runs.py judges an `ext::CMD` remote only where the line or a remote.*.url spells it
#   (lines_run: `ext::` words, _as_run for remote.*.url/pushurl). git also rewrites any URL by
#   `url.<base>.insteadOf` (COMMAND_KEYS has no url.*.insteadof): `git -c protocol.ext.allow=always
#   -c 'url.ext::sh -c CMD #.insteadOf=zz:' fetch zz:x` makes git run CMD through the ext transport. Here CMD is
#   `rm -rf .harness`, and .harness is gone; the same command written as `fetch 'ext::sh -c …'` is refused.
# Correct: a `url.<base>.insteadOf`/`pushInsteadOf` setting whose base is `ext::…` is judged as the ext:: URL it
#   produces (its command line), wherever it is set; an ordinary insteadOf (https -> ssh) stays allowed.
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
[ "$(guard "git -c protocol.ext.allow=always fetch 'ext::sh -c rm% -rf% .harness% >&2'")" = deny ] \
  || { echo "setup: the plain ext:: spelling is not refused"; exit 2; }
[ "$(guard "git -c url.git@github.com:.insteadOf=https://github.com/ fetch https://github.com/a/b.git")" = allow ] \
  || { echo "an ordinary insteadOf is refused"; exit 1; }
line="git -c protocol.ext.allow=always -c 'url.ext::sh -c rm% -rf% .harness% >&2 #.insteadOf=zz:' fetch zz:x"
answer=$(guard "$line")
echo "guard on \`$line\`: $answer"
[ "$answer" = deny ] && { echo "fixed: refused"; exit 0; }
eval "$line" >/dev/null 2>&1
if [ ! -d .harness ]; then echo "DEFECT: .harness was deleted by the command git ran for the rewritten URL"; exit 1; fi
echo ".harness kept"; exit 0
