#!/usr/bin/env bash
# Defect: harness/core/tree_listing.py parse judges a listing's order (entry_defects, git fsck's treeNotSorted) with
# "is a folder" taken from the harness's own kind (read[0] == FOLDER), which is False for an AMBIGUOUS entry. git orders
# and fscks by the mode's type bits (S_ISDIR): an entry of mode 40755 is a folder to git (ls-tree prints `040000 tree`,
# `git mktree` sorts it as `a/`). So (a) a root listing exactly as stock `git mktree` writes it — `a.txt`, then the
# folder `a` of mode 040755 — which `git fsck` accepts (a badFilemode warning only), is refused WHOLE as "out of git's
# order (git fsck: treeNotSorted)": every commit on it is refused by fsck-clean-tree (a code-only commit's full path
# exits 1 while the commit fast path answers 0: F-0438 again, through another mode; at 55fb6c1a such a root was
# accepted), and 3a58bfac's rule "an ambiguous entry the harness never reads does not refuse the listing around it" does
# not hold; (b) the reverse order — `a` (40755) before `a.txt`, which git fsck rejects with treeNotSorted (an error) — is
# accepted by the parser and by `harness audit`.
# Correct: the order is judged as git judges it (a folder by the mode's type bits, 0o040000, whatever its permission
# bits), so (a) is read like any root whose odd entry the harness never reaches (accepted; fast and full path agree)
# and (b) is refused as treeNotSorted, as git fsck refuses it.
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
empty=$(git mktree </dev/null) || exit 2
# (a) HEAD's root plus a folder `a` of mode 040755, written by stock `git mktree` (which sorts it as a folder).
sorted_tree=$( { git ls-tree HEAD; printf '040755 tree %s\ta\n' "$empty"; } | git mktree ) || { echo "setup failed (mktree)"; exit 2; }
git cat-file tree "$sorted_tree" | grep -aq '40755 a' || { echo "setup: mktree did not keep the mode"; exit 2; }
fsck_a=$(git fsck --no-dangling "$sorted_tree" 2>&1)
echo "git fsck of git mktree's tree: ${fsck_a:-clean}"
if printf '%s' "$fsck_a" | grep -q treeNotSorted; then echo "setup: git itself calls (a) unsorted"; exit 2; fi
a=$(git commit-tree -p HEAD -m "a 040755 folder" "$sorted_tree") && git reset -q --hard "$a" || { echo "setup failed (a)"; exit 2; }
echo b > b.txt && git add b.txt || exit 2   # a code-only change on it
harness hook validate -- >"$T/full.out" 2>&1; full=$?
harness hook validate >"$T/fast.out" 2>&1; fast=$?
case "$full" in 0|1) ;; *) echo "setup: the full path could not run"; cat "$T/full.out"; exit 2;; esac
echo "(a) code-only commit on it: full path exit $full, fast path exit $fast"
grep -m1 'fsck-clean-tree' "$T/full.out" | sed 's/^ */    full path: /'
git reset -q --hard HEAD || exit 2
# (b) the reverse order, which git fsck rejects (treeNotSorted).
rev_tree=$(python3 - "$sorted_tree" <<'PY'
import subprocess, sys
def git(*a, inp=None):
    return subprocess.run(["git", *a], input=inp, capture_output=True, check=True).stdout
raw = git("cat-file", "tree", sys.argv[1])
at, entries = 0, []
while at < len(raw):
    nul = raw.index(b"\0", at); entries.append(raw[at:nul + 21]); at = nul + 21
folder = [e for e in entries if e.startswith(b"40755 a\0")][0]
rest = [e for e in entries if e is not folder]
i = next(n for n, e in enumerate(rest) if e.split(b"\0")[0].endswith(b" a.txt"))
out = b"".join(rest[:i] + [folder] + rest[i:])
print(git("hash-object", "-t", "tree", "-w", "--stdin", "--literally", inp=out).strip().decode())
PY
) || { echo "setup failed (b)"; exit 2; }
git fsck --no-dangling "$rev_tree" 2>&1 | grep -q treeNotSorted || { echo "setup: git does not call (b) unsorted"; exit 2; }
b=$(git commit-tree -p "$a^" -m "unsorted" "$rev_tree") || exit 2
harness audit --from "$a^" --to "$b" >"$T/audit.out" 2>&1; audit=$?
echo "(b) git fsck: treeNotSorted (error); harness audit of that commit: exit $audit"
defect=0
if [ "$full" = 1 ] && grep -q treeNotSorted "$T/full.out"; then
  echo "DEFECT (a): the harness calls a listing git fsck accepts 'out of git's order' and refuses it whole"; defect=1
fi
[ "$full" != "$fast" ] && { echo "DEFECT (a): the commit fast path ($fast) and full path ($full) disagree"; defect=1; }
[ "$audit" = 0 ] && { echo "DEFECT (b): a listing git fsck rejects as treeNotSorted is accepted"; defect=1; }
[ "$audit" = 2 ] && { echo "setup: audit could not run"; cat "$T/audit.out"; exit 2; }
cat "$T/audit.out" | grep -m2 "\[" | sed "s/^ */    audit: /"
[ "$defect" = 1 ] && exit 1
echo "the order is judged as git judges it"
exit 0
