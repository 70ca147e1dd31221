#!/usr/bin/env bash
# Defect: the commit hook's fast path (harness/gitio/fast_path.py staged_nothing_to_judge, answered by
# harness/cli/launch.py for `harness hook validate` and the native shim's pre-commit) still disagrees with the full path
# (harness/history/hook_checks.py staged_problems -> harness/history/incoming.py unreadable_trees) after 3a58bfac.
# That fix made the full path accept a HEAD whose ROOT holds an odd-mode entry the harness never reads (F-0438), but
# an AMBIGUOUS entry the readers DO reach is still refused by the full path on the parent (fsck-clean-tree,
# "its parent HEAD's ..."): (a) HEAD's root `.harness` entry itself with mode 40755 (git's ls-tree prints it as
# `040000 tree`, so the fast path sees the same folder id in the index's tree and in HEAD's), and (b) an entry of mode
# 120755 inside HEAD's .harness/ (the .harness folder id is unchanged). For a code-only commit on such a HEAD the fast
# path answers 0 (`git commit` passes), the full path (`hook validate --`) answers 1 for the same staged state, and
# the push guard refuses the commit afterwards.
# Correct: one answer for one staged state: the fast path declines (asks the full path) when HEAD's `.harness` entry
# or a listing below it is one the readers refuse (an AMBIGUOUS mode), so `git commit` / `hook validate` exit 1 as the
# full path does (or the full path stops refusing it, and then the push guard accepts it too).
# Exit 1 while the defect is present, 0 when fixed, 2 on a setup failure.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 HOME=$T/home
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.com
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE
mkdir -p "$HOME" || exit 2
defect=0
for variant in harness-entry-40755 link-120755-inside-harness; do
  R="$T/$variant"; mkdir -p "$R" && cd "$R" || exit 2
  mkdir .harness && printf 'version: 1\nevidence:\n  build:\n    command: ["true"]\n' > .harness/config.yaml || exit 2
  ( git init -q -b main && harness init && harness install && echo a > a.txt && git add -A && git commit -qm init ) \
    >/dev/null 2>&1 || { echo "setup failed (init)"; exit 2; }
  bad=$(VARIANT=$variant python3 - <<'PY'
import os, subprocess
def git(*a, inp=None):
    return subprocess.run(["git", *a], input=inp, capture_output=True, check=True).stdout
def oid(s): return bytes.fromhex(s.strip().decode())
raw = git("cat-file", "tree", "HEAD^{tree}")
assert b"40000 .harness\0" in raw
if os.environ["VARIANT"] == "harness-entry-40755":
    raw = raw.replace(b"40000 .harness\0", b"40755 .harness\0")
else:
    inner = git("cat-file", "tree", "HEAD:.harness")
    blob = git("hash-object", "-w", "--stdin", inp=b"config.yaml")
    # "link" sorts after every name `harness init` writes? keep git's order: insert it where it belongs.
    entries, at = [], 0
    while at < len(inner):
        sp, nul = inner.index(b" ", at), inner.index(b"\0", at)
        entries.append((inner[sp + 1:nul], inner[at:nul + 21])); at = nul + 21
    entries.append((b"link", b"120755 link\0" + oid(blob)))
    key = lambda e: e[0] + (b"/" if e[1].startswith(b"40000 ") else b"")
    new_inner = b"".join(e[1] for e in sorted(entries, key=key))
    t = git("hash-object", "-t", "tree", "-w", "--stdin", "--literally", inp=new_inner)
    old_id = git("rev-parse", "HEAD:.harness")
    raw = raw.replace(b"40000 .harness\0" + oid(old_id), b"40000 .harness\0" + oid(t))
tree = git("hash-object", "-t", "tree", "-w", "--stdin", "--literally", inp=raw)
print(git("commit-tree", "-p", "HEAD", "-m", "odd mode", tree.strip().decode()).strip().decode())
PY
  ) || { echo "setup failed (crafted commit)"; exit 2; }
  [ -n "$bad" ] && git reset -q --hard "$bad" || { echo "setup failed (reset)"; exit 2; }
  echo b > b.txt && git add b.txt || exit 2   # a code-only change: .harness is HEAD's
  harness hook validate -- >"$T/full.out" 2>&1; full=$?
  harness hook validate >"$T/fast.out" 2>&1; fast=$?
  case "$full" in 0|1) ;; *) echo "setup: the full path could not run"; cat "$T/full.out"; exit 2;; esac
  git commit -qm "code only" >"$T/commit.out" 2>&1; commit=$?
  echo "$variant: full path (hook validate --) exit $full; fast path (hook validate) exit $fast; git commit exit $commit"
  grep -m1 'fsck-clean-tree' "$T/full.out" | sed 's/^ */    full path: /'
  if [ "$fast" != "$full" ] || { [ "$commit" = 0 ] && [ "$full" != 0 ]; }; then defect=1; fi
  cd "$T" || exit 2
done
if [ "$defect" = 1 ]; then
  echo "DEFECT: the commit hook's fast path and its full path answer differently for the same staged state"
  exit 1
fi
echo "fast and full path agree"
exit 0
