#!/usr/bin/env bash
# Defect: the commit hook's code-only fast path (harness/gitio/fast_path.py staged_nothing_to_judge, answered in
# harness/cli/launch.py _answer for `hook validate` / `hook run pre-commit`, and the native shim's pre-commit branch)
# compares only the `.harness` entries of the tree git commits and of HEAD. The full `hook validate`
# (history.hook_checks.staged_problems -> incoming.unreadable_trees) also refuses a root listing git's fsck rejects,
# in the committed tree and in HEAD's tree ([fsck-clean-tree]). So:
#   A. an index whose cache-tree names a hand-made root with a duplicate entry (`git read-tree CRAFTED`), committed
#      with `git commit --allow-empty`, is let through by the fast path (exit 0) and committed; full path: exit 1;
#   B. a code-only change on top of a HEAD whose root has a duplicate entry: fast path exit 0, full path exit 1.
# Correct behaviour: the fast paths return exactly the full path's answers (#28): they decline (run the full
# checks) when the committed tree's or HEAD's root listing is one the readers refuse, as the push fast path does (_sound).
# Exit 1 while the fast answers differ from the full one, 0 once they agree, 2 on a setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"
full_validate() { python -c 'import sys; from harness.cli.main import main; sys.argv=["harness", *sys.argv[1:]]; sys.exit(main())' hook validate; }
setup() {  # a fresh repository in $1: harness initialised and installed (native shims), a task, one commit
  mkdir "$1" && cd "$1" || exit 2
  ( git init -q -b main && harness init && harness install && harness task new t && echo a > a.txt && mkdir src \
    && echo x > src/x.py && git add -A && git commit -qm init ) >/dev/null 2>&1 || { echo "setup failed"; exit 2; }
}
crafted_root() {  # HEAD's root tree with a second `a.txt` entry appended (what git fsck calls duplicateEntries)
  { git cat-file tree "HEAD^{tree}"; printf '100644 a.txt\0'; git rev-parse HEAD:a.txt | python -c "import sys; sys.stdout.buffer.write(bytes.fromhex(sys.stdin.read().strip()))"; } \
    | git hash-object -t tree --literally -w --stdin
}
bad=0

# A: the commit's own tree is the crafted one (the cache-tree of `git read-tree` names it).
setup "$T/a"
tree=$(crafted_root) && git read-tree "$tree" || exit 2
[ "$(git write-tree)" = "$tree" ] || { echo "setup failed: write-tree"; exit 2; }
full_validate >/dev/null 2>&1; full=$?
harness hook validate >/dev/null 2>&1; fast=$?
.git/hooks/pre-commit >/dev/null 2>&1; shim=$?
git commit -q --allow-empty -m "empty" >/dev/null 2>&1; commit=$?
echo "A (committed root has a duplicate entry): full hook validate $full, launch fast path $fast, native shim $shim; git commit $commit (HEAD's tree is the crafted one: $([ "$(git rev-parse HEAD^{tree})" = "$tree" ] && echo yes || echo no))"
{ [ "$full" = "$fast" ] && [ "$full" = "$shim" ]; } || bad=1

# B: HEAD's tree is the crafted one (committed by plumbing); the commit stages code only.
setup "$T/b"
c=$(git commit-tree "$(crafted_root)" -p HEAD -m dup) && git reset -q --hard "$c" || exit 2
echo y >> src/x.py && git add src/x.py || exit 2
full_validate >/dev/null 2>&1; full=$?
harness hook validate >/dev/null 2>&1; fast=$?
.git/hooks/pre-commit >/dev/null 2>&1; shim=$?
echo "B (HEAD's root has a duplicate entry): full hook validate $full, launch fast path $fast, native shim $shim"
{ [ "$full" = "$fast" ] && [ "$full" = "$shim" ]; } || bad=1
exit $bad
