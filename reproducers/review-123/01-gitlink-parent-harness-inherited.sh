#!/usr/bin/env bash
# Defect: harness/history/incoming.py unreadable_trees takes every parent's root `.harness` entry id as "inherited"
# through harness/gitio/trees.py harness_entry_id, which returns the id "whatever its mode": a parent whose `.harness`
# is a submodule entry (gitlink, 160000) naming the id of a tree makes a child whose `.harness` is a FOLDER with that
# id count as "a .harness left as a parent had it". malformed_entries then does not look into the child's new folder,
# so fsck-clean-tree never judges it. A bad entry in it (here a 120755 link, which git and libgit2 read as different
# kinds) is then met by a reader (tree_listing.changes) whose ListingRefused is not a rule's refusal: `harness audit`
# (and the push guard, and the commit hook's full path) exit 2 ("invalid or could not run", no rule named) where the
# very same tree on a parent with a normal .harness folder is refused with exit 1 [fsck-clean-tree]; an audit over the
# parent and the child together also exits 2 and never reports the parent's own [plain-files-only] refusal.
# Correct: only a parent's `.harness` FOLDER entry is inherited (a gitlink or any other kind is not "the folder left
# as it was"), so the child's folder is judged: exit 1 naming fsck-clean-tree, as on a normal parent.
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
A=$(git rev-parse HEAD) && H=$(git rev-parse HEAD:.harness) || exit 2
blob=$(echo x | git hash-object -w --stdin) || exit 2
# Hbad: A's .harness plus a link `zz` of mode 120755 (git mktree keeps the mode as given).
Hbad=$( { git ls-tree HEAD:.harness; printf '120755 blob %s\tzz\n' "$blob"; } | git mktree ) || exit 2
git cat-file tree "$Hbad" | grep -aq '120755 zz' || { echo "setup: mode not kept"; exit 2; }
# P: A with .harness as a submodule entry (gitlink) naming Hbad's id.
Pt=$(python3 - "$H" "$Hbad" <<'PY' | git hash-object -t tree -w --stdin --literally
import subprocess, sys
raw = subprocess.run(["git", "cat-file", "tree", "HEAD^{tree}"], capture_output=True, check=True).stdout
old, new = bytes.fromhex(sys.argv[1]), bytes.fromhex(sys.argv[2])
assert b"40000 .harness\0" + old in raw
sys.stdout.buffer.write(raw.replace(b"40000 .harness\0" + old, b"160000 .harness\0" + new))
PY
) || { echo "setup failed (P's tree)"; exit 2; }
P=$(git commit-tree -p "$A" -m "P: .harness as a gitlink" "$Pt") || exit 2
# C: .harness is the folder Hbad. C2: the same tree on A (a normal .harness folder parent).
Ct=$( { git ls-tree "$A" | grep -v "	.harness\$"; printf '040000 tree %s\t.harness\n' "$Hbad"; } | git mktree ) || exit 2
C=$(git commit-tree -p "$P" -m "C" "$Ct") && C2=$(git commit-tree -p "$A" -m "C2" "$Ct") || exit 2

harness audit --from "$A" --to "$C2" >"$T/ref.out" 2>&1; ref=$?
harness audit --from "$P" --to "$C" >"$T/c.out" 2>&1; got=$?
harness audit --from "$A" --to "$C" >"$T/both.out" 2>&1; both=$?
echo "same tree on a normal parent: exit $ref; $(grep -o '\[fsck-clean-tree\]' "$T/ref.out" | head -1)"
echo "on the gitlink parent:        exit $got"; sed -n '$p' "$T/c.out" | cut -c1-160
echo "parent and child together:    exit $both; parent's [plain-files-only] reported: $(grep -c 'plain-files-only' "$T/both.out")"
if [ "$ref" != 1 ] || ! grep -q 'fsck-clean-tree' "$T/ref.out"; then echo "setup: the reference case is not refused"; exit 2; fi
if [ "$got" = 1 ] && grep -q 'fsck-clean-tree' "$T/c.out"; then
  echo "fixed: the child's new .harness folder is judged (exit 1, fsck-clean-tree)"; exit 0
fi
echo "DEFECT: a parent's gitlink .harness makes the child's new .harness folder 'inherited': fsck-clean-tree never judges it (exit $got, no rule)"
exit 1
