#!/usr/bin/env bash
# Defect: harness/history/hook_checks.py staged_problems now runs harness/history/incoming.py unreadable_trees over the
# index's tree AND each parent's (HEAD's) tree, refusing the commit (fsck-clean-tree, "its parent HEAD's ...") when a
# parent's root or .harness listing is one harness.core.tree_listing.parse refuses. The commit hook's fast path
# (harness/gitio/fast_path.py staged_nothing_to_judge, answered by harness/cli/launch.py for `hook validate` and the
# native shim's `hook run pre-commit`) only compares the `.harness` entry of the index's tree with HEAD's, so for a
# code-only commit on such a HEAD (here a root entry with mode 120755, what stock `git mktree` writes for a link) it
# answers 0: `git commit` passes, while the full path (`harness hook validate --`) refuses the very same staged state
# with exit 1, and the push guard refuses the commit later. At 55fb6c1a both paths answered 0 (the parent was not judged).
# Correct: the fast path and the full path give one answer for one staged state: the fast path declines (or refuses)
# when HEAD's root or .harness listing is one the readers refuse, so `git commit` / `hook validate` exit 1 as the full
# path does (or the full path no longer refuses it, and then the push guard accepts it too).
# Exit 1 while the defect is present, 0 when fixed, 2 on a setup failure.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 HOME=$T/home
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.com
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE
mkdir -p "$HOME" "$T/repo" && cd "$T/repo" || exit 2
mkdir .harness && printf 'version: 1\nevidence:\n  build:\n    command: ["true"]\n' > .harness/config.yaml || exit 2
( git init -q -b main && harness init && harness install && echo a > a.txt && git add -A && git commit -qm init ) \
  >/dev/null 2>&1 || { echo "setup failed (init)"; exit 2; }
# HEAD: the same root plus a link entry of mode 120755 (git reads it as a link; the readers refuse the listing).
bad=$(python3 - <<'PY'
import subprocess
def git(*a, inp=None):
    return subprocess.run(["git", *a], input=inp, capture_output=True, check=True).stdout
raw = git("cat-file", "tree", "HEAD^{tree}")
blob = git("hash-object", "-w", "--stdin", inp=b"a.txt").strip().decode()
tree = git("hash-object", "-t", "tree", "-w", "--stdin", "--literally", inp=raw + b"120755 link\0" + bytes.fromhex(blob))
print(git("commit-tree", "-p", "HEAD", "-m", "a 120755 link", tree.strip().decode()).strip().decode())
PY
) || { echo "setup failed (crafted commit)"; exit 2; }
[ -n "$bad" ] && git reset -q --hard "$bad" || { echo "setup failed (reset)"; exit 2; }
echo b > b.txt && git add b.txt || exit 2   # a code-only change: .harness is HEAD's
harness hook validate -- >"$T/full.out" 2>&1; full=$?
harness hook validate >"$T/fast.out" 2>&1; fast=$?
echo "full path (harness hook validate --): exit $full: $(grep -m1 'fsck-clean-tree' "$T/full.out" | sed 's/^ *//')"
echo "fast path (harness hook validate):    exit $fast"
case "$full" in 0|1) ;; *) echo "setup: the full path could not run"; cat "$T/full.out"; exit 2;; esac
git commit -qm "code only" >"$T/commit.out" 2>&1; commit=$?
echo "git commit (installed hooks): exit $commit"
if [ "$fast" != "$full" ] || { [ "$commit" = 0 ] && [ "$full" != 0 ]; }; then
  echo "DEFECT: the commit hook's fast path answers $fast where the full path answers $full for the same staged state"
  exit 1
fi
echo "fast and full path agree"
exit 0
