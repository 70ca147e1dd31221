#!/usr/bin/env bash
# Defect: with core.hooksPath pointing at a folder the repository tracks (the common `.githooks/` team setup),
#   `harness install` (harness/install/shims.py::hooks_dir + _write_shims) overwrites the team's committed
#   `.githooks/pre-commit` in the work tree with its shim (which holds this machine's interpreter path) and
#   moves the team's script to an untracked `pre-commit.pre-harness`. The install says "installed harness hooks",
#   but the shim is now an uncommitted modification: any routine `git stash`, `git checkout -- .`,
#   `git reset --hard` or branch switch puts the team's script back and silently removes the harness's commit
#   hook, after which a hand-edited DONE is committed without a word from pre-commit; and `git commit -a`
#   would commit the machine-specific shim over the team's hook.
# Correct: install never rewrites a tracked file of the user's: it refuses (saying to call
#   `harness hook run <stage>` from the team's hook scripts), or installs somewhere git does not track,
#   so that its commit hook survives a stash/reset.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
git init -q -b main || exit 2
mkdir .githooks && printf '#!/bin/sh\necho TEAM-HOOK-RAN >&2\n' > .githooks/pre-commit && chmod +x .githooks/pre-commit || exit 2
git config core.hooksPath .githooks || exit 2
echo x > x && git add -A && git commit -qm base 2>/dev/null || exit 2
harness init >/dev/null 2>&1 || exit 2
inst=$(harness install 2>&1); irc=$?
echo "$inst" | sed 's/^/  install: /' | head -2
changed=$(git status --porcelain --untracked-files=no -- .githooks)
if [ -n "$changed" ]; then
  echo "DEFECT: install rewrote tracked files of the repository: $changed"
  # What that costs: a routine stash drops the harness's commit hook; a forged DONE is then committed.
  ( git add .harness && git commit -qm adopt && harness task new t && git add .harness && git commit -qm t ) >/dev/null 2>&1 || exit 2
  git stash -q 2>/dev/null
  sed -i 's/^  state: .*/  state: DONE/' .harness/tasks/*/task.yaml && git add .harness || exit 2
  if git commit -qm forged >/dev/null 2>&1; then
    echo "  and after \`git stash\` a hand-edited DONE was committed: the pre-commit check no longer ran"
  fi
  exit 1
fi
if [ $irc -ne 0 ]; then echo "OK: install refused and left the tracked hooks alone"; exit 0; fi
# Installed without touching tracked files: its commit hook must survive a stash.
( git add .harness && git commit -qm adopt && harness task new t && git add .harness && git commit -qm t ) >/dev/null 2>&1 || exit 2
git stash -q 2>/dev/null
sed -i 's/^  state: .*/  state: DONE/' .harness/tasks/*/task.yaml && git add .harness || exit 2
if git commit -qm forged >/dev/null 2>&1; then echo "DEFECT: forged DONE committed after a stash"; exit 1; fi
echo "OK: tracked hooks untouched and the commit hook still refuses a forged DONE"; exit 0
