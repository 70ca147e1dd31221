#!/usr/bin/env bash
# Defect: harness/gitio/fast_path.py CommitFiles._read_ahead (used by CommitFiles.of_head(ahead=...), i.e. by
# FsSource.committed_onto for status, every Next: and the evidence Next:) checks a read-ahead file's size against
# the cap BEFORE it looks at whether the entry is a symlink. A HEAD whose .harness/gate.yaml (or config.yaml) is
# committed as a symlink whose blob is over the 8 MiB cap is kept as (size, None), and CommitFiles.read then raises
# "… larger than 8388608 bytes: refused unread". CommitFiles.read without read-ahead (the slow path before
# 1c5fbe36/561899ea) and TreeSource.read (what `harness gate` reads HEAD with) both answer "no file" for any link,
# whatever its blob's size, so the gate compares with init's defaults while status/Next: now fail on HEAD.
# Correct: a committed link reads as no file on the read-ahead path too (size is irrelevant to a link), so
# CommitFiles.of_head(ahead=...).read == CommitFiles(root, commit).read == TreeSource.read, and `harness status`
# answers as it did before the change (and as the gate judges).
# Exit 1 while the defect is present, 0 when fixed, 2 on a setup failure.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 HOME=$T/home
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.com
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE
mkdir -p "$HOME" "$T/repo" && cd "$T/repo" || exit 2
setup() {
  git init -q -b main && echo 'x = 1' > app.py && git add . && git commit -qm init &&
  harness init >/dev/null && git add -A && git commit -qm 'adopt the harness' --no-verify &&
  harness task new "T" >/dev/null 2>&1 && harness requirement add "R" --priority must >/dev/null 2>&1 &&
  for s in SPECIFYING PLANNED IMPLEMENTING VERIFYING; do harness transition $s >/dev/null || return 1; done &&
  harness evidence build -- python3 -c pass >/dev/null 2>&1 || return 1
  # HEAD gets a commit whose .harness/gate.yaml is a symlink with a 9 MiB blob (the working tree keeps its file)
  big=$(python3 -c "import sys; sys.stdout.write('p' * (9 * 1024 * 1024))" | git hash-object -w --stdin) &&
  harness_tree=$(git ls-tree HEAD:.harness | python3 -c "
import sys
out = []
for line in sys.stdin.read().splitlines():
    meta, name = line.split('\t', 1)
    out.append('120000 blob $big\tgate.yaml' if name == 'gate.yaml' else line)
print('\n'.join(out))" | git mktree) &&
  root=$(git ls-tree HEAD | sed "s/^040000 tree [0-9a-f]*\t.harness\$/040000 tree $harness_tree\t.harness/" | git mktree) &&
  c=$(git commit-tree -p HEAD -m 'gate.yaml as a big link' "$root") && git update-ref refs/heads/main "$c" &&
  [ "$(git ls-tree HEAD .harness/gate.yaml | cut -c1-6)" = 120000 ]
}
setup || { echo "setup failed"; exit 2; }
# The read paths, side by side, on the same HEAD commit.
out=$(python3 - "$T/repo" <<'PY'
import sys
from pathlib import Path
from harness.gitio.fast_path import CommitFiles
from harness.gitio.git import Git
from harness.gitio.tree_source import of_commit
root = Path(sys.argv[1])
def ans(f):
    try:
        return repr(f())
    except Exception as e:
        return f"raises {type(e).__name__}: {e}"
head = CommitFiles.of_head(root, ahead=(".harness/config.yaml", ".harness/gate.yaml"))
print("read-ahead:", ans(lambda: head.read(".harness/gate.yaml")))
print("plain read:", ans(lambda: CommitFiles(root, head.commit).read(".harness/gate.yaml")))
print("TreeSource:", ans(lambda: of_commit(Git(root), head.commit).read(".harness/gate.yaml")))
PY
) || { echo "setup: probe failed"; exit 2; }
echo "$out"
st=$(harness status 2>&1); src=$?
echo "harness status (exit $src): $(echo "$st" | grep -i -m1 'refused unread\|larger than' || echo "$st" | tail -2)"
ahead=$(echo "$out" | sed -n 's/^read-ahead: //p'); plain=$(echo "$out" | sed -n 's/^plain read: //p')
tree=$(echo "$out" | sed -n 's/^TreeSource: //p')
[ "$plain" = None ] && [ "$tree" = None ] || { echo "setup: the slow paths no longer read a link as no file"; exit 2; }
if [ "$ahead" != "$plain" ] || echo "$st" | grep -q 'refused unread'; then
  echo "DEFECT: the read-ahead refuses HEAD's linked gate.yaml over the cap where CommitFiles.read and TreeSource read no file"
  exit 1
fi
exit 0
