#!/usr/bin/env bash
# Defect: commit 9c6422c made nsenter a command prefix (harness/agent/judge/shell_prefixes.py: PREFIXES) and gave
#   it a ROOT_OPTION (--root), but not its working-directory option: CHDIR has env -C, sudo -D, unshare -w/--wd,
#   systemd-run --working-directory, and no nsenter `--wd=DIR` / `-wDIR`. The guard judges the command's relative
#   paths against the line's folder, so `nsenter --wd=.git/hooks rm pre-commit` is read as removing ./pre-commit
#   and allowed, while nsenter runs `rm` in .git/hooks and deletes the harness's pre-commit hook
#   (`cd .git/hooks && rm pre-commit` and `unshare --wd=.git/hooks rm pre-commit` are denied: rule hook-file).
#   The next plain `git commit` then commits a loosened gate.yaml with no harness check.
# Correct: nsenter's `--wd=DIR`/`-wDIR` (and `-w` alone, `--wd` alone: the target's cwd) is followed like
#   unshare --wd, and the line is denied (hook-file).
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
[ "$(guard 'cd .git/hooks && rm pre-commit')" = deny ] || { echo "setup: cd + rm not denied"; exit 2; }
[ "$(guard 'unshare --wd=.git/hooks rm pre-commit')" = deny ] || { echo "setup: unshare --wd not denied"; exit 2; }
[ "$(guard 'nsenter --wd=src ls')" = allow ] || { echo "setup: harmless nsenter denied"; exit 2; }

fail=0
for line in 'nsenter --wd=.git/hooks rm pre-commit' 'nsenter -w.git/hooks rm pre-commit'; do
  v=$(guard "$line"); echo "guard: $v   $line"; [ "$v" = allow ] && fail=1
done
line='nsenter --wd=.git/hooks rm pre-commit && git commit -qam loosen'
v=$(guard "$line"); echo "guard: $v   $line"
if [ "$v" = allow ]; then
  fail=1
  bash -c "$line" >/dev/null 2>&1
  git show --stat HEAD | grep -q 'gate.yaml' \
    && echo "DEFECT: allowed; the pre-commit hook is gone and the loosened gate.yaml is committed unchecked"
fi
[ $fail = 1 ] && exit 1
echo "OK: denied"; exit 0
