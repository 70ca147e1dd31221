#!/usr/bin/env bash
# Defect: `git config --rename-section OLD core` (or `… include`) is allowed by the agent guard. The guard's
#   config checks (harness/agent/judge/bypass_git.py: _check_git_config, _check_config_sources) read only
#   `git config KEY VALUE` and `set/unset`; a section rename is taken as a key "x" with value "core". So
#   `git config x.hooksPath /tmp/nohooks; git config --rename-section x core` sets core.hooksPath (and the
#   same with `include` sets include.path, with x.notesRef sets core.notesRef) — both allowed — after which the
#   harness's git hooks no longer run and a loosened gate.yaml commits with a plain `git commit`.
#   docs/troubleshooting.md (rule hooks-path / config-source) promises setting core.hooksPath or include.path
#   with `git config` is denied.
# Correct: `git config --rename-section OLD NEW` (and `git config rename-section`) whose NEW section is one the
#   guard judges (core, include, includeIf.*, alias, notes, remote …) is judged by the keys OLD holds — or denied.
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
# Control: the direct spelling is denied.
[ "$(guard "git config core.hooksPath $T/nohooks")" = deny ] || { echo "setup: direct core.hooksPath not denied"; exit 2; }

# Step 1 (allowed, and harmless by itself): keys under sections nobody reads.
for pre in "git config x.hooksPath $T/nohooks" "git config y.path $T/inc"; do
  echo "guard: $(guard "$pre")   $pre"; bash -c "$pre" || exit 2
done
# Step 2: rename the sections into core / include.
v=$(guard "git config --rename-section x core"); echo "guard: $v   git config --rename-section x core"
v3=$(guard "git config --rename-section y include"); echo "guard: $v3   git config --rename-section y include"
if [ "$v" = allow ]; then
  git config --rename-section x core || exit 2
  echo "core.hooksPath is now: $(git config core.hooksPath)"
  vc=$(guard "git commit -qam loosen"); echo "guard: $vc   git commit -qam loosen"
  if [ "$vc" = allow ] && git commit -qam loosen >/dev/null 2>&1 && git show --stat HEAD | grep -q gate.yaml; then
    echo "DEFECT: the loosened gate.yaml was committed: the harness's pre-commit hook no longer runs"
  fi
fi
if [ "$v" = allow ] || [ "$v3" = allow ]; then
  echo "DEFECT: a section renamed into core/include escapes the hooks-path and config-source rules"; exit 1
fi
echo "OK: renames into core/include denied"; exit 0
