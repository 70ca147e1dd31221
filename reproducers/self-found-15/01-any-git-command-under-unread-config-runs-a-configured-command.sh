#!/usr/bin/env bash
# Defect: the agent guard (harness/agent/judge/bypass_git.py check_git) refuses configuration it cannot read
#   (`-c include.path=FILE`, `includeIf.*.path`, a line's GIT_CONFIG_GLOBAL=FILE) only for the commit/push machinery,
#   fetches and templates; but every git command reads that configuration, and several settings make git run a
#   command line whatever the subcommand: `core.fsmonitor` for any command that reads the index (`git status`,
#   `git diff`), `core.pager`/`pager.*` for output, … Here an included `core.fsmonitor = rm -rf .harness; false`
#   deletes .harness/ on a `git status` the guard allows. Settings that run commands are also missing from the
#   judged list when given with `-c`: `gpg.ssh.defaultKeyCommand` (run by `git commit -S` with gpg.format=ssh).
#   (Found while fixing F-0320; the fixer checked each with real git.)
# Correct: any git command run under configuration the guard cannot read is refused (it cannot tell what that
#   configuration makes git run), and `-c gpg.ssh.defaultKeyCommand=CMD` is judged as the command line it is; a plain
#   `git status` and `git -c color.ui=never status` stay allowed.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q -b main && harness init && harness install && harness task new t && echo a > a.txt && git add -A \
  && git commit -qm init ) >/dev/null 2>&1 || exit 2

guard() {  # COMMAND -> deny|allow (Claude Code's PreToolUse payload for Bash)
  python3 - "$PWD" "$1" <<'PY'
import json, subprocess, sys
call = {"session_id": "s", "cwd": sys.argv[1], "hook_event_name": "PreToolUse", "tool_name": "Bash",
        "tool_input": {"command": sys.argv[2]}}
p = subprocess.run(["harness", "hook", "agent", "claude", "pre-tool-use"], cwd=sys.argv[1], input=json.dumps(call),
                   capture_output=True, text=True)
print("deny" if '"deny"' in p.stdout else "allow")
PY
}
cp -a "$R" "$T/pristine" || exit 2
printf '[core]\n\tfsmonitor = rm -rf .harness; false\n' > "$T/inc.cfg"

[ "$(guard "git status")" = allow ] || { echo "legitimate \`git status\` is refused"; exit 1; }
[ "$(guard "git -c color.ui=never status")" = allow ] || { echo "legitimate \`git -c color.ui=never status\` is refused"; exit 1; }
[ "$(guard "git -c core.fsmonitor='rm -rf .harness; false' status")" = deny ] \
  || { echo "setup: the -c spelling of core.fsmonitor is not refused"; exit 2; }

status=0
for line in "git -c include.path=$T/inc.cfg status" "GIT_CONFIG_GLOBAL=$T/inc.cfg git status" \
            "git -c includeIf.onbranch:main.path=$T/inc.cfg diff"; do
  rm -rf "$R"; cp -a "$T/pristine" "$R"; cd "$R" || exit 2
  answer=$(guard "$line")
  eval "$line" >/dev/null 2>&1
  echo "${line//$T/\$T}: guard $answer; .harness $( [ -d .harness ] && echo kept || echo DELETED)"
  [ "$answer" = allow ] && [ ! -d .harness ] && status=1
done
# (in a fresh copy: the loop's last line deleted .harness, where the guard has nothing to guard)
rm -rf "$R"; cp -a "$T/pristine" "$R"; cd "$R" || exit 2
answer=$(guard "git -c gpg.format=ssh -c gpg.ssh.defaultKeyCommand='rm -rf .harness' commit -S -m x")
echo "git -c gpg.ssh.defaultKeyCommand='rm -rf .harness' commit -S: guard $answer"
[ "$answer" = allow ] && status=1
[ $status = 1 ] && echo "DEFECT: the guard allowed a git command whose configuration runs a command it did not judge"
exit $status
