#!/usr/bin/env bash
# Defect: `git config -e` / `--edit` hands the repository's .git/config to the editor, and the guard does not
#   count that as a write of .git/config. With the editor given on the same line
#   (`GIT_EDITOR='printf "[core]\n\thooksPath = DIR\n" >>' git config -e`, or `git -c core.editor=… config --edit`)
#   the line appends core.hooksPath to .git/config and is allowed: harness/agent/judge/bypass_git.py judges
#   `git config` only by KEY/VALUE words (_check_git_config), and the editor's line is judged without the file
#   git passes it. docs/troubleshooting.md: rules hooks-path (setting core.hooksPath with `git config`) and
#   hook-file (.git/config changed from a shell command: `echo >> .git/config` is denied).
# Correct: `git config -e/--edit` on the repository's config (no --global/--system/-f elsewhere) is denied as a
#   write of .git/config (hook-file), at least when an editor is set on the line.
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
  payload=$(python3 -c 'import json,sys; print(json.dumps({"session_id":"s","cwd":sys.argv[2],"hook_event_name":"PreToolUse",
    "tool_name":"Bash","tool_input":{"command":sys.argv[1]}}))' "$1" "$R") || exit 2
  out=$(printf '%s' "$payload" | harness hook agent claude pre-tool-use 2>/dev/null)
  case "$out" in *'"permissionDecision": "deny"'*) echo deny;; *) echo allow;; esac
}

mkdir -p "$T/nohooks"
sed -i 's/unit_test: required/unit_test: optional/' .harness/gate.yaml || exit 2
git commit -qam loosen >/dev/null 2>&1 && { echo "setup: the hook did not refuse the loosening"; exit 2; }
# Controls: the same write spelled as a redirect, or as git config KEY VALUE, is denied.
[ "$(guard "printf '[core]\n\thooksPath = $T/nohooks\n' >> .git/config")" = deny ] || { echo "setup: redirect not denied"; exit 2; }
[ "$(guard "git config core.hooksPath $T/nohooks")" = deny ] || { echo "setup: git config not denied"; exit 2; }

line="GIT_EDITOR='printf \"[core]\\n\\thooksPath = $T/nohooks\\n\" >>' git config -e"
v=$(guard "$line"); echo "guard: $v   $line"
v2=$(guard "git -c core.editor='sed -i s/x/y/' config --edit"); echo "guard: $v2   git -c core.editor='sed -i s/x/y/' config --edit"
if [ "$v" = allow ]; then
  bash -c "$line" || exit 2
  echo "core.hooksPath is now: $(git config core.hooksPath)"
  if git commit -qam loosen >/dev/null 2>&1 && git show --stat HEAD | grep -q gate.yaml; then
    echo "DEFECT: the loosened gate.yaml was committed with a plain git commit: the harness's hooks no longer run"
  fi
fi
if [ "$v" = allow ] || [ "$v2" = allow ]; then
  echo "DEFECT: git config --edit with a scripted editor writes .git/config past the guard"; exit 1
fi
echo "OK: editing .git/config through git config -e denied"; exit 0
