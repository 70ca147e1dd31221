#!/usr/bin/env bash
# Defect: harness/gitio/fast_path.py _a_file decides "a file is there" from the mode's TEXT (`startswith(b"100")`),
# not its value. A HEAD whose .harness listing gives gate.yaml the mode `100160000` (a leading "100" before a
# gitlink's 160000) is a submodule entry for git itself (git ls-tree: `160000 commit`; git keeps the low bits), and
# libgit2 refuses the tree ("can't parse filemode"); CommitFiles.read and the read-ahead read it as a regular file
# and hand its blob (a loosened policy) to `harness status` as HEAD's committed policy. Status sees no loosening and
# says PASS ("nothing blocks the gate now"), where `harness gate` gives no PASS (it dies on the tree: see 07).
# Read 118's gitlink-naming-a-blob hole, reopened by a padded mode.
# Correct: the mode is parsed as git parses it (an octal number: 0o100160000 & S_IFMT is a gitlink), or any mode not
# exactly 100644/100755 (or git's old 100664) is refused / no file, as the gate's reader answers; status never says
# PASS where the gate does not.
# Exit 1 while the defect is present, 0 when fixed, 2 on a setup failure.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 HOME=$T/home
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.com
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE
mkdir -p "$HOME" "$T/repo" && cd "$T/repo" || exit 2
mkdir .harness && cat > .harness/config.yaml <<'YAML' || exit 2
version: 1
evidence:
  build:
    command: ["true"]
  unit_test:
    command: ["true"]
YAML
( git init -q -b main && harness init && harness install && harness task new t && echo a > a.txt && git add -A \
  && git commit -qm init ) >/dev/null 2>&1 || { echo "setup failed (init)"; exit 2; }
( harness requirement add r1 --priority must \
  && for s in SPECIFYING PLANNED IMPLEMENTING VERIFYING; do harness transition $s || exit 1; done \
  && harness evidence build \
  && harness requirement set REQ-001 --status verified --evidence build \
  && harness transition REVIEWING && harness transition GATING ) >/dev/null 2>&1 || { echo "setup failed (task)"; exit 2; }
[ "$(harness gate --json 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["verdict"])')" = BLOCKED ] \
  || { echo "setup: the committed policy does not block"; exit 2; }
cp .harness/gate.yaml "$T/strict.yaml" || exit 2
# The working gate.yaml loosened (unit_test no longer required), never approved.
sed -i 's/unit_test: required/unit_test: optional/' .harness/gate.yaml || exit 2
cmp -s .harness/gate.yaml "$T/strict.yaml" && { echo "setup: nothing loosened"; exit 2; }
# HEAD's .harness folder rewritten with git's plumbing (a commit no hook sees, as read 118's reproducers do).
STRICT="$T/strict.yaml" python3 - <<'PY' || { echo "setup failed (crafted commit)"; exit 2; }
import os, subprocess
def git(*a, inp=None):
    return subprocess.run(["git", *a], input=inp, capture_output=True, check=True).stdout
def blob(path):
    return bytes.fromhex(git("hash-object", "-w", path).strip().decode())
def entries(tree):
    out = []
    for line in git("ls-tree", "-z", tree).split(b"\0"):
        if line:
            meta, name = line.split(b"\t", 1)
            mode, _t, oid = meta.split()
            out.append([mode.lstrip(b"0"), name, bytes.fromhex(oid.decode())])  # 040000 is written 40000
    return out
def raw_tree(ents):  # written as listed: no sorting, no checks (hash-object --literally)
    raw = b"".join(m + b" " + n + b"\0" + o for m, n, o in ents)
    return bytes.fromhex(git("hash-object", "-t", "tree", "-w", "--stdin", "--literally", inp=raw).strip().decode())
loose, strict = blob(".harness/gate.yaml"), blob(os.environ["STRICT"])
sub = entries("HEAD:.harness")
for e in sub:
    if e[1] == b"gate.yaml":
        e[0], e[2] = b"100160000", loose
top = entries("HEAD^{tree}")
for e in top:
    if e[1] == b".harness":
        e[2] = raw_tree(sub)
commit = git("commit-tree", "-p", "HEAD", "-m", "gate.yaml", raw_tree(top).hex()).strip().decode()
git("update-ref", "HEAD", commit)
PY
echo "git ls-tree HEAD .harness: $(git ls-tree HEAD .harness/ | tr "\n" ";")"
echo "git cat-file -p HEAD:.harness/gate.yaml: $(git cat-file -p HEAD:.harness/gate.yaml 2>&1 | grep -m1 -o 'unit_test: [a-z]*\|fatal.*\|^[0-9]\{6\} [a-z]* [0-9a-f]\{12\}' )"
verdict() { python3 -c 'import json,sys
try: d = json.load(sys.stdin)
except ValueError: print("NO-ANSWER"); sys.exit()
print(d["gate_now"]["verdict"] if "gate_now" in d else d["verdict"])'; }
gate=$(harness gate --json 2>"$T/gate.err" | verdict)
status=$(harness status --json 2>"$T/status.err" | verdict)
echo "harness gate --json verdict: $gate $(tail -n1 "$T/gate.err")"
echo "harness status --json gate_now.verdict: $status"
echo "HEAD's gate.yaml as each reader reads it:"
python3 - <<'PY'
from pathlib import Path
from harness.gitio.fast_path import CommitFiles
from harness.gitio.git import Git
from harness.gitio.tree_source import TreeSource
rel = ".harness/gate.yaml"
def show(f):
    try:
        d = f()
    except Exception as e:
        return f"{type(e).__name__}: {str(e)[:110]}"
    if d is None:
        return "no file"
    return "empty file" if not d else ("a policy with " + next((l.strip() for l in d.decode(errors='replace').splitlines() if "unit_test:" in l), "?"))
head = CommitFiles.of_head(Path("."))
print("  CommitFiles.read (status, recordings):", show(lambda: CommitFiles.of_head(Path(".")).read(rel)))
print("  CommitFiles read-ahead               :", show(lambda: CommitFiles.of_head(Path("."), ahead=(rel,)).read(rel)))
g = Git(Path("."))
print("  TreeSource.read (the gate)           :", show(lambda: TreeSource(g, g.commit_tree(head.commit), "HEAD", rev=head.commit).read(rel)))
PY
[ -n "$gate" ] && [ -n "$status" ] || { echo "setup: no verdicts"; exit 2; }
if [ "$gate" != "$status" ]; then
  echo "DEFECT: status and the gate read HEAD's gate.yaml differently (status $status, gate $gate)"
  exit 1
fi
exit 0
