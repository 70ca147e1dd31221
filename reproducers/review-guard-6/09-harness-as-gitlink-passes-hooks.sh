#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# The push guard (fast path push_fast_path._harness_entry AND the full path) and the pre-commit check compare a
# commit's `.harness` entry with its parent's by OBJECT ID only. A commit whose `.harness` is a gitlink
# (mode 160000, a submodule) naming the parent's .harness tree id has "the same .harness": both hooks accept it,
# yet the commit's tree holds no record at all (a checkout gets an empty submodule folder). Every step is a
# tool call the agent guard allows: `git update-index --force-remove .harness/...`,
# `git update-index --add --cacheinfo 160000,<tree id>,.harness`, `git commit`, `git push`.
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; git init -q --bare "$T/remote.git" || exit 2
cd "$R" || exit 2
( git init -q && harness init && harness install && harness task new t && echo a > a.txt && git add -A \
  && git commit -qm init && git remote add origin "$T/remote.git" && git push -q origin HEAD:refs/heads/main ) >/dev/null 2>&1 || exit 2
hk() { # the guard's decision for a Bash command run in $R, through the hook's CLI
  python - "$R" "$1" <<'PY' | harness hook agent claude pre-tool-use 2>/dev/null | grep -q '"deny"' && echo deny || echo allow
import json, sys
print(json.dumps({"session_id": "s", "cwd": sys.argv[1], "hook_event_name": "PreToolUse",
                  "tool_name": "Bash", "tool_input": {"command": sys.argv[2]}}))
PY
}
X=$(git rev-parse HEAD:.harness) || exit 2
steps=("git update-index --force-remove $(git ls-files .harness | tr '\n' ' ')"
       "git update-index --add --cacheinfo 160000,$X,.harness" "git commit -q -m tidy" "git push -q origin HEAD:refs/heads/main")
for c in "${steps[@]}"; do
  a=$(hk "$c"); echo "guard: $a: ${c:0:110}"
  [ "$a" = allow ] || { echo "refused by the agent guard"; exit 0; }
  if ! eval "$c" >"$T/out" 2>&1; then echo "refused by git's hooks: $(tail -3 "$T/out")"; exit 0; fi
done
echo "remote main's tree:"; git --git-dir="$T/remote.git" ls-tree main | sed 's/^/  /'
if git --git-dir="$T/remote.git" ls-tree main .harness | grep -q '^160000'; then
  echo "DEFECT: a commit that drops the whole .harness record (gitlink in its place) passed pre-commit and the push guard"; exit 1
fi
exit 0
