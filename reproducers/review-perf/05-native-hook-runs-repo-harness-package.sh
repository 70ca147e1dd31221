#!/bin/bash
# PRE-EXISTING (present at 615f161, not introduced by the speed work): the native git hook shim
# (harness/hook_files.py) runs `"$py" -m harness hook run STAGE` with the work tree's top as cwd, and
# `python -m` puts the cwd first on sys.path. A `harness/` package committed in (or just written to)
# the repository -- which the agent guard lets the agent write -- replaces the harness in every git
# hook: here a task.yaml hand-edited to `state: DONE` is committed although the real commit check
# refuses it (projection-matches-ledger).
# exit 1: the defect exists; 0: fixed; 2: setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd)  # the repository these reproducers live in
export HARNESS_REPO="$here"
export PATH="$here/.venv/bin:$PATH"
D=$(mktemp -d) || exit 2
trap 'rm -rf "$D"' EXIT
cd "$D" && git init -q && git -c user.name=t -c user.email=t@t commit -q --allow-empty -m init || exit 2
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@t
harness init >/dev/null 2>&1 && harness install >/dev/null 2>&1 || exit 2
grep -q -- '-m harness' .git/hooks/pre-commit || exit 2
harness task new x >/dev/null 2>&1 || exit 2
f=$(ls .harness/tasks/*/task.yaml) || exit 2
sed -i 's/^  state: .*/  state: DONE/' "$f" || exit 2
# control: the real hook refuses this commit
git add -A && if git commit -qm "hand edit" >/dev/null 2>&1; then echo "setup: the real hook accepted the edit"; exit 2; fi
mkdir harness && touch harness/__init__.py || exit 2
printf 'import sys\nprint("planted harness ran:", sys.argv[1:], file=sys.stderr)\nsys.exit(0)\n' > harness/__main__.py
git add -A
if git commit -qm "hand edit + planted harness/" 2>&1; then
  echo "committed: a planted harness/ package answered the commit hook"; exit 1
fi
exit 0
