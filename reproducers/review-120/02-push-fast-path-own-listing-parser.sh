#!/usr/bin/env bash
# Defect: harness/gitio/push_fast_path.py _tree_entries parses a tree listing with its own loop instead of
# harness.core.tree_listing.parse (only entry_defects is shared). It does not check that an entry's object id is
# whole, nor that an entry has a space and a NUL at all:
#  (a) a root listing whose last entry is cut short (its id 10 bytes of 20; `git hash-object -t tree --literally`)
#      is judged sound: the pre-push guard (`harness hook push-guard`) answers "1 commit(s) checked, no problems" and
#      exits 0, while `harness audit` (and the full guard, the server's pre-receive) refuse the same commit with
#      fsck-clean-tree "(root): an entry git cannot parse (cut short, or no mode)";
#  (b) a root listing whose last entry has no NUL makes raw.index raise: the guard dies with
#      "internal error (ValueError: subsection not found)" and a crash log instead of a refusal with a reason.
# Correct: the push's fast path judges a listing exactly as the readers and the history checks do (tree_listing.parse,
# or it declines to the full path on anything that parser refuses): (a) not passed by the fast path (the guard
# refuses it, as the audit does), (b) no internal error (a refusal naming the listing, from the full path).
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
# Two commits on HEAD, made with git's plumbing: the root listing plus a last entry cut short / with no NUL.
python3 - > "$T/ids" <<'PY' || { echo "setup failed (crafted commits)"; exit 2; }
import subprocess
def git(*a, inp=None):
    return subprocess.run(["git", *a], input=inp, capture_output=True, check=True).stdout
raw = git("cat-file", "tree", "HEAD^{tree}")
blob = git("hash-object", "-w", "--stdin", inp=b"z\n").strip().decode()
for listing in (raw + b"100644 zzz\0" + bytes.fromhex(blob)[:10], raw + b"100644 zzz"):
    tree = git("hash-object", "-t", "tree", "-w", "--stdin", "--literally", inp=listing).strip().decode()
    print(git("commit-tree", "-p", "HEAD", "-m", "crafted", tree).strip().decode())
PY
cut=$(sed -n 1p "$T/ids"); nonul=$(sed -n 2p "$T/ids")
[ -n "$cut" ] && [ -n "$nonul" ] || { echo "setup failed (ids)"; exit 2; }
bad=0
harness audit --from "$base" --to "$cut" >"$T/audit.out" 2>&1
grep -q "fsck-clean-tree" "$T/audit.out" || { echo "setup: the audit does not refuse the cut-short listing"; cat "$T/audit.out"; exit 2; }
echo "harness audit on the cut-short root listing: $(grep -m1 'fsck-clean-tree' "$T/audit.out" | sed 's/^ *//')"
echo "refs/heads/main $cut refs/heads/main $base" | harness hook push-guard origin origin >"$T/g1.out" 2>&1; rc1=$?
echo "push-guard on the same commit: exit $rc1: $(tr '\n' ' ' < "$T/g1.out")"
if [ "$rc1" = 0 ]; then echo "DEFECT (a): the push guard passes a commit the audit refuses"; bad=1; fi
echo "refs/heads/main $nonul refs/heads/main $base" | harness hook push-guard origin origin >"$T/g2.out" 2>&1; rc2=$?
echo "push-guard on a root listing with no NUL: exit $rc2: $(tr '\n' ' ' < "$T/g2.out")"
if grep -qi "internal error\|Traceback" "$T/g2.out"; then echo "DEFECT (b): the push guard dies on the listing"; bad=1; fi
[ "$rc2" = 0 ] && { echo "DEFECT (b): the push guard passes a listing git cannot parse"; bad=1; }
exit $bad
