#!/usr/bin/env bash
# Defect: commit 9c6422c declares nsenter a prefix as Prefix("tSG", …) (harness/agent/judge/shell_prefixes.py),
#   but nsenter's namespace options (-m, -u, -i, -n, -p, -U, -C, -T) and -r/-w take an OPTIONAL value that can only
#   be attached (`-m/proc/self/ns/mnt`). The prefix reader walks such a word as a cluster of short options, so the
#   trailing `t` of `…/mnt` is read as `-t PID` taking the next word: `nsenter -m/proc/self/ns/mnt git commit -n`
#   is judged as running `commit -n` (not git) and allowed, while nsenter runs `git commit -n` - the loosened
#   gate.yaml is committed past the harness's pre-commit hook. (`nsenter -m git commit -n` is denied.)
# Correct: for nsenter, a short option with an optional value takes the rest of its word as that value (no more
#   option letters in it); the line is denied (no-verify).
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q -b main && harness init && harness install && harness task new t && echo a > a.txt && git add -A \
  && git commit -qm init ) >/dev/null 2>&1 || exit 2
command -v nsenter >/dev/null || { echo "setup: no nsenter"; exit 2; }
nsenter --wd=/ true 2>/dev/null || { echo "setup: nsenter --wd cannot run here (needs privileges)"; exit 2; }

guard() {
  local payload out
  payload=$(python3 -c 'import json,sys; print(json.dumps({"session_id":"s","transcript_path":"/tmp/t","cwd":sys.argv[2],
    "hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":sys.argv[1]}}))' "$1" "$R") || exit 2
  out=$(printf '%s' "$payload" | harness hook agent claude pre-tool-use 2>/dev/null)
  case "$out" in *'"permissionDecision": "deny"'*) echo deny;; *) echo allow;; esac
}

[ -f .git/hooks/pre-commit ] || { echo "setup: no pre-commit hook installed"; exit 2; }
sed -i 's/unit_test: required/unit_test: optional/' .harness/gate.yaml || exit 2
git diff --quiet && { echo "setup: gate.yaml not loosened"; exit 2; }
git commit -qam loosen >/dev/null 2>&1 && { echo "setup: the hook did not refuse the loosening"; exit 2; }
nsenter -m/proc/self/ns/mnt true 2>/dev/null || { echo "setup: nsenter -m cannot run here (needs privileges)"; exit 2; }
[ "$(guard 'git commit -n -qam loosen')" = deny ] || { echo "setup: plain -n not denied"; exit 2; }
[ "$(guard 'nsenter -m git commit -n -qam loosen')" = deny ] || { echo "setup: nsenter -m … -n not denied"; exit 2; }
[ "$(guard 'nsenter -m/proc/self/ns/mnt git status')" = allow ] || { echo "setup: harmless nsenter denied"; exit 2; }

line='nsenter -m/proc/self/ns/mnt git commit -n -qam loosen'
v=$(guard "$line"); echo "guard: $v   $line"
if [ "$v" = allow ]; then
  bash -c "$line" >/dev/null 2>&1
  git show --stat HEAD | grep -q 'gate.yaml' \
    && echo "DEFECT: allowed; nsenter ran git commit -n and the loosened gate.yaml is committed unchecked" \
    || echo "DEFECT: allowed"
  exit 1
fi
echo "OK: denied"; exit 0
