#!/usr/bin/env bash
# Defect: the agent guard works out `$(printf …)` / `$(echo …)` as "literal text" without reading it as the
#   shell does (harness/agent/judge/shell_resolve.py: literal_output). printf's escapes (`\055` is `-`,
#   `\x2d` too), `echo -e` escapes, and a pipeline after the echo (`$(echo -x | tr x n)`) are taken as the
#   literal characters, so `git commit $(printf '\055n')` is judged as `git commit \055n` and allowed, while
#   bash runs `git commit -n`: the harness's pre-commit hook is skipped and a loosened gate.yaml is committed
#   with no approval. docs/agents.md promises `git commit --no-verify` (`-n`) is denied, with `$(echo …)`
#   resolved, and that a word the guard cannot work out where it could skip a hook is denied.
# Correct: a substitution whose output the guard does not compute exactly (printf/echo -e escapes, anything
#   after a pipe, `;`, `&&` or a redirect inside it) is treated as unresolved — denied in a `git commit` argument —
#   or resolved to exactly what bash prints.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q -b main && harness init && harness install && harness task new t && echo a > a.txt && git add -A \
  && git commit -qm init ) >/dev/null 2>&1 || exit 2

# guard LINE -> prints deny|allow (Claude Code's PreToolUse payload, as it sends it)
guard() {
  local payload out
  payload=$(python3 -c 'import json,sys; print(json.dumps({"session_id":"s","cwd":sys.argv[2],"hook_event_name":"PreToolUse",
    "tool_name":"Bash","tool_input":{"command":sys.argv[1]}}))' "$1" "$R") || exit 2
  out=$(printf '%s' "$payload" | harness hook agent claude pre-tool-use 2>/dev/null)
  case "$out" in *'"permissionDecision": "deny"'*) echo deny;; *) echo allow;; esac
}

# Setup: a loosened gate that the harness's pre-commit hook refuses.
sed -i 's/unit_test: required/unit_test: optional/' .harness/gate.yaml || exit 2
git commit -qam loosen >/dev/null 2>&1 && { echo "setup: the hook did not refuse the loosening"; exit 2; }

# Controls: the plain bypass is denied, an ordinary commit and a literal substitution are allowed.
[ "$(guard 'git commit -n -qam loosen')" = deny ] || { echo "setup: plain -n not denied"; exit 2; }
[ "$(guard "git commit -qam \"\$(echo fix it)\"")" = allow ] || { echo "setup: ordinary commit denied"; exit 2; }

fail=0
for line in "git commit \$(printf '\\055n') -qam loosen" \
            "git commit \$(echo -e '\\x2dn') -qam loosen" \
            "git commit \$(echo -x | tr x n) -qam loosen"; do
  v=$(guard "$line")
  echo "guard: $v   $line   (bash expands the substitution to: $(bash -c "printf '%s' ${line#git commit } 2>/dev/null | head -c 2"))"
  [ "$v" = allow ] && fail=1
done

# End to end: the first allowed line, run as the agent's shell would, commits the loosened gate hook-free.
line="git commit \$(printf '\\055n') -qam loosen"
if [ "$(guard "$line")" = allow ]; then
  bash -c "$line" >/dev/null 2>&1
  if git show --stat HEAD | grep -q 'gate.yaml'; then
    echo "DEFECT: '$line' was allowed and committed the loosened gate.yaml without the harness's hook"
  fi
fi
[ $fail = 1 ] && { echo "DEFECT: substitutions the guard reads literally bypass the --no-verify rule"; exit 1; }
echo "OK: all three substitutions denied"; exit 0
