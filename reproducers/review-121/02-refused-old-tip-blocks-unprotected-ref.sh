#!/usr/bin/env bash
# Defect: harness/history/rewrite.py history_problems builds a TreeSource of the ref's OLD tip and reads its
# .harness/gate.yaml (protected_patterns, to learn whether the ref is protected) before anything else. Since
# TreeSource became a reader through harness.core.tree_listing.parse, an old tip whose root listing that parser refuses
# (here a root entry of mode 120755, which 55fb6c1a's own checks accepted, so such tips exist on servers) raises
# ListingRefused out of history_problems: `harness hook pre-receive` (and `harness audit --before OLD --ref REF`) exits
# 2 "could not run", naming no rule, for a push that replaces nothing protected. Deleting an unprotected feature
# branch, or force-moving it to a clean commit the server already has, is rejected; with the parent rule of
# unreadable_trees refusing any commit on top of that tip, the branch can neither be fixed forward, nor moved, nor
# deleted. _without_harness guards the NEW tip's read the same way (ListingRefused caught); the old tip's reads are not.
# Correct: a refused old-tip listing does not make the rewrite checks die: an unprotected ref's deletion or move is
# accepted (exit 0, as at 55fb6c1a), and on a protected ref the refusal is by a named rule (exit 1), never exit 2.
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
base=$(git rev-parse HEAD) || exit 2
# The feature branch's tip: HEAD's root plus a link entry of mode 120755 (what stock `git mktree` writes for a link).
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
( echo c > c.txt && git add c.txt && git commit -qm clean --no-verify ) >/dev/null 2>&1 || { echo "setup failed (clean)"; exit 2; }
clean=$(git rev-parse HEAD) || exit 2
# The server as it stands after an upgrade: main, an unprotected feature branch at the crafted tip, and `other` at a
# clean commit (placed directly, as a push before the upgrade placed them).
git init -q --bare "$T/srv" && git push -q --no-verify "$T/srv" "$base:refs/heads/main" "$bad:refs/heads/feature" \
  "$clean:refs/heads/other" >/dev/null 2>&1 || { echo "setup failed (server)"; exit 2; }
Z=0000000000000000000000000000000000000000
bad_found=0
cd "$T/srv" || exit 2
echo "$bad $Z refs/heads/feature" | harness hook pre-receive >"$T/del.out" 2>&1; del=$?
echo "pre-receive, deleting the unprotected refs/heads/feature: exit $del: $(head -c 300 "$T/del.out")"
echo "$bad $clean refs/heads/feature" | harness hook pre-receive >"$T/mv.out" 2>&1; mv=$?
echo "pre-receive, moving refs/heads/feature to $clean (already on the server): exit $mv: $(head -c 300 "$T/mv.out")"
cd "$T/repo" || exit 2
harness audit --before "$bad" --to "$clean" --ref refs/heads/feature >"$T/audit.out" 2>&1; au=$?
echo "audit --before (the feature's old tip) --to $clean --ref refs/heads/feature: exit $au"
for rc in "$del" "$mv"; do
  [ "$rc" = 0 ] || bad_found=1
done
[ "$au" = 2 ] && bad_found=1
if [ "$bad_found" = 1 ]; then
  echo "DEFECT: a refused listing on the old tip of an unprotected ref makes the rewrite checks die (exit 2)"
  exit 1
fi
echo "the unprotected ref may be deleted and moved"
exit 0
