#!/usr/bin/env bash
# Defect: harness/gitio/tree_source.py of_head (the one "HEAD's TreeSource" since 05b590ec, used by the gate's
# checked_policy, gate.index, `init --restore-gate` and `approve`) calls git.commit_tree(git.head()) unguarded.
# git.head() (revisions.Revisions.head: repo.head.target) returns whatever id HEAD names, unpeeled and unparsed; when
# HEAD names a tree (a detached HEAD written as a tree's id) or a commit libgit2 cannot parse, commit_tree raises a
# raw pygit2 error. `harness gate` then dies with a Python traceback and exit 1 -- the code for "BLOCKED/refused" --
# and `harness init --restore-gate` the same, where `harness evidence` on the same HEAD answers with exit 2 and a
# named reason ("HEAD names ..., which git cannot read as a commit"). (Present before the change too; of_head is now
# the one place to fix it.)
# Correct: the gate and `init --restore-gate` refuse such a HEAD as invalid state: exit 2 with a HarnessError message
# (no traceback), as `harness evidence` does.
# Exit 1 while the defect is present, 0 when fixed, 2 on a setup failure.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 HOME=$T/home
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.com
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE
mkdir -p "$HOME" "$T/repo" && cd "$T/repo" || exit 2
mkdir .harness && printf 'version: 1\nevidence:\n  build:\n    command: ["true"]\n' > .harness/config.yaml || exit 2
( git init -q -b main && harness init && harness install && echo a > a.txt && git add -A && git commit -qm init \
  && harness task new "T" && git add -A && git commit -qm task ) >/dev/null 2>&1 || { echo "setup failed (init)"; exit 2; }
tree=$(git rev-parse "HEAD^{tree}") || exit 2
echo "$tree" > .git/HEAD   # a detached HEAD naming a tree (git update-ref refuses it; a hand edit does not)
[ "$(git rev-parse HEAD)" = "$tree" ] || { echo "setup: HEAD not moved"; exit 2; }

harness evidence build >"$T/e.out" 2>&1; ev=$?
harness gate >"$T/g.out" 2>&1; gate=$?
harness init --restore-gate >"$T/i.out" 2>&1; restore=$?
echo "harness evidence build: exit $ev; $(grep -m1 '^harness:' "$T/e.out" | cut -c1-150)"
echo "harness gate: exit $gate; $(tail -1 "$T/g.out" | cut -c1-150)"
echo "harness init --restore-gate: exit $restore; $(tail -1 "$T/i.out" | cut -c1-150)"
[ "$ev" = 2 ] || { echo "setup: evidence did not refuse the HEAD"; exit 2; }
bad=0
for f in g i; do grep -q '^Traceback' "$T/$f.out" && bad=1; done
[ "$gate" = 2 ] && [ "$restore" = 2 ] || bad=1
if [ "$bad" = 0 ]; then echo "fixed: both refuse the HEAD as invalid state (exit 2, no traceback)"; exit 0; fi
echo "DEFECT: tree_source.of_head lets a pygit2 error out: traceback and exit $gate (gate) / $restore (restore-gate)"
exit 1
