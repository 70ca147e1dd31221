#!/usr/bin/env bash
# Defect: harness/agent/judge/git_templates.py _template_source() finds a template only in `--template`,
#   GIT_TEMPLATE_DIR and init.templateDir among the `-c`/GIT_CONFIG_* pairs (config.pairs). git also takes
#   init.templateDir from `--config-env=init.templateDir=VAR`, from a file `-c include.path=FILE` includes, and from
#   the global file a line's GIT_CONFIG_GLOBAL=FILE names; and check_git() lets builtins like `git init` run under
#   such opaque configuration (config.opaque is refused only for MACHINERY / non-builtins). `git init` in the
#   repository then copies the template into .git: here a replace ref (and the object it points at), after which
#   git shows a forged a.txt for HEAD — what F-0313 refuses for `git -c init.templateDir=… init`.
# Correct: `git init`/`git clone` into this repository are refused when the run's configuration may give them a
#   template the guard cannot see (--config-env for init.templateDir, include.path/includeIf, GIT_CONFIG_GLOBAL /
#   GIT_CONFIG_SYSTEM / HOME / XDG_CONFIG_HOME on the line), while a plain `git init` stays allowed.
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
cp -a "$R" "$T/pristine" || exit 2
# A template holding a replace ref for a.txt's blob and the blob it is replaced by.
ORIG=$(git rev-parse HEAD:a.txt) || exit 2
git init -q "$T/src" && NEW=$(echo forged | git -C "$T/src" hash-object -w --stdin) || exit 2
mkdir -p "$T/tpl/objects/${NEW:0:2}" "$T/tpl/refs/replace" || exit 2
cp "$T/src/.git/objects/${NEW:0:2}/${NEW:2}" "$T/tpl/objects/${NEW:0:2}/" && echo "$NEW" > "$T/tpl/refs/replace/$ORIG" || exit 2
printf '[init]\n\ttemplateDir = %s\n' "$T/tpl" > "$T/tpl.cfg"

[ "$(guard "git -c init.templateDir=$T/tpl init -q")" = deny ] || { echo "setup: the -c spelling is not refused"; exit 2; }
for ok in "git init -q" "git init -q $T/elsewhere"; do
  [ "$(guard "$ok")" = allow ] || { echo "legitimate \`$ok\` is refused"; exit 1; }
done

status=0
for line in "git -c include.path=$T/tpl.cfg init -q" "TPL=$T/tpl git --config-env=init.templateDir=TPL init -q" \
            "GIT_CONFIG_GLOBAL=$T/tpl.cfg git init -q"; do
  rm -rf "$R"; cp -a "$T/pristine" "$R"; cd "$R" || exit 2
  answer=$(guard "$line")
  eval "$line" >/dev/null 2>&1
  shown=$(git cat-file -p HEAD:a.txt)
  echo "${line/$T/\$T}: guard $answer; .git/refs/replace/${ORIG:0:8}… $( [ -f ".git/refs/replace/$ORIG" ] && echo planted || echo absent); HEAD:a.txt reads '$shown'"
  [ "$answer" = allow ] && [ -f ".git/refs/replace/$ORIG" ] && status=1
done
[ $status = 1 ] && echo "DEFECT: a template the guard did not see planted a replace ref in this repository's .git"
exit $status
