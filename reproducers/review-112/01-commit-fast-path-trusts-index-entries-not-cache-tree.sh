#!/usr/bin/env bash
# Defect: the code-only commit fast path (the native shim's pre-commit branch in hooks/native-hook, and
#   harness/gitio/fast_path.py:staged_nothing_to_judge behind `harness hook run pre-commit` / `hook validate`)
#   decides "no .harness/ change staged" with `git diff --cached --quiet -- .harness`, which compares the index
#   ENTRIES with HEAD. `git commit` (and the full path, harness/history/hook_checks.staged_problems via
#   tree_source.index_tree = `git write-tree`) build the committed tree from the index's cache-tree (TREE
#   extension), which git trusts where it is marked valid. An index whose entries equal HEAD but whose
#   cache-tree names another `.harness` tree commits that other tree: the fast path answers "code-only"
#   (exit 0) for a commit that changes `.harness/` (here: task.yaml set to DONE by hand), which the full
#   path refuses (projection-matches-ledger).
# Correct: the pre-commit hook judges the tree git commits: the fast path must not answer 0 when the tree
#   `git write-tree` gives (what `git commit` records) has another .harness entry than HEAD; the commit is refused
#   as `harness hook validate` run in full refuses it.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q -b main && harness init && harness install && harness task new t && echo a > a.txt && git add -A \
  && git commit -qm init ) >/dev/null 2>&1 || exit 2

# Rewrite the index's TREE extension: node PATH gets OID (its entry count kept), the root is marked invalid
# (git recomputes it from the entries and the cached subtrees). Index v2/v3, sha1.
cat > "$T/patch.py" <<'PY'
import hashlib, struct, sys
index, path, oid = sys.argv[1], sys.argv[2].encode(), bytes.fromhex(sys.argv[3])
data = open(index, "rb").read(); body = data[:-20]
assert body[:4] == b"DIRC"; ver, n = struct.unpack(">II", body[4:12]); assert ver in (2, 3)
pos = 12
for _ in range(n):
    flags = struct.unpack(">H", body[pos + 60:pos + 62])[0]
    head = 64 if (ver == 3 and flags & 0x4000) else 62
    nul = body.index(b"\0", pos + head)
    pos += ((nul - pos) + 8) // 8 * 8
out = bytearray(body[:pos]); done = False
while pos < len(body):
    sig, ln = body[pos:pos + 4], struct.unpack(">I", body[pos + 4:pos + 8])[0]
    ext = body[pos + 8:pos + 8 + ln]
    if sig == b"TREE":
        i, new, first = 0, bytearray(), True
        while i < len(ext):
            nul = ext.index(b"\0", i); name = ext[i:nul]; lf = ext.index(b"\n", nul)
            cnt, subs = ext[nul + 1:lf].split(b" "); j = lf + 1 + (20 if int(cnt) >= 0 else 0)
            if first:
                new += name + b"\0-1 " + subs + b"\n"; first = False
            elif name == path and int(cnt) >= 0:
                new += name + b"\0" + cnt + b" " + subs + b"\n" + oid; done = True
            else:
                new += ext[i:j]
            i = j
        ext = bytes(new)
    out += sig + struct.pack(">I", len(ext)) + ext; pos += 8 + ln
assert done, "no valid cache-tree node for " + path.decode()
out += hashlib.sha1(out).digest(); open(index, "wb").write(out)
PY

task=$(ls .harness/tasks/*/task.yaml | head -1); [ -n "$task" ] || exit 2
H=$(git rev-parse HEAD:.harness) || exit 2
# The .harness tree the commit will carry: task.yaml edited to DONE by hand (no gate, no ledger line).
sed 's/state: CREATED/state: DONE/' "$task" > "$T/task.yaml"; grep -q 'state: DONE' "$T/task.yaml" || exit 2
blob=$(git hash-object -w "$T/task.yaml") || exit 2
B=$(GIT_INDEX_FILE="$T/idx" sh -c "git read-tree HEAD && git update-index --cacheinfo 100644,$blob,$task \
    && git rev-parse \$(git write-tree):.harness") || exit 2
[ "$B" != "$H" ] || exit 2

# The index: HEAD's entries (so `git diff --cached` sees no .harness change), a cache-tree naming B for .harness.
git read-tree HEAD && python3 "$T/patch.py" .git/index .harness "$B" || exit 2
echo b >> a.txt && git add a.txt || exit 2
git diff --cached --quiet -- .harness || exit 2                       # the entries: no .harness change
[ "$(git rev-parse "$(git write-tree):.harness")" = "$B" ] || exit 2   # the tree git commits: B
# Control: the full path (the click command, no fast path) refuses this index.
python3 -c 'import sys; from harness.cli.main import main; sys.exit(main(["hook", "validate"]))' >/dev/null 2>&1
[ $? -eq 1 ] || { echo "setup: the full path does not refuse this index"; exit 2; }

before=$(git rev-parse HEAD)
git commit -qm "code only?" >"$T/out" 2>&1; rc=$?
after=$(git rev-parse HEAD)
if [ $rc -eq 0 ] && [ "$after" != "$before" ] && [ "$(git rev-parse HEAD:.harness)" = "$B" ]; then
  echo "DEFECT: the pre-commit hook's code-only fast path let a commit through that sets task.yaml to DONE by hand"
  echo "  (HEAD:.harness $H -> $B; \`harness hook validate\` run in full refuses the same index)"
  exit 1
fi
# Control: a genuinely code-only commit still goes through.
git read-tree HEAD && echo c >> a.txt && git add a.txt && git commit -qm "code only" >/dev/null 2>&1 \
  || { echo "a plain code-only commit is refused now"; exit 1; }
echo "OK: the commit was refused (exit $rc); a plain code-only commit still passes"
exit 0
