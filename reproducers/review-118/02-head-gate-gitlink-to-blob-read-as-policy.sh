#!/usr/bin/env bash
# Defect: harness/gitio/fast_path.py CommitFiles._read_ahead (and CommitFiles.read, which it copies) decides
# "a file is there" from the TYPE of the object the path names (`blob = header[1] == b"blob"`), not from the
# entry's MODE. A HEAD whose .harness/gate.yaml is a submodule entry (mode 160000) naming a blob of this repository
# is read by the read-ahead as that blob's bytes; TreeSource.read (what `harness gate` and the commit hook read HEAD
# with) takes a submodule entry for no file (pygit2 types it by its mode: a Commit, not a Blob). The module's own
# comment says "Its mode, not its object's type: a submodule entry can name a tree" and _read_ahead's says
# "not a folder, nor a submodule's commit: no file there", but only the link mode (120000) is checked.
# Effect: an agent commits (no hook runs for commit-tree/update-ref, or --no-verify) a HEAD whose gate.yaml is a
# gitlink to the loosened policy it also writes in the working tree: `harness status` (FsSource.committed_onto ->
# CommitFiles.of_head(ahead=...)) reads HEAD's "policy" as the loosened one, sees no loosening and reports the gate
# PASS, while `harness gate` compares with init's defaults and answers INVALID_HARNESS_STATE. The same read decides
# HEAD's config.yaml for the config-approval check (gate/facts.py unapproved_config), where the gate itself uses it.
# Correct: the read-ahead (and CommitFiles.read) treat a 160000 entry as no file, as TreeSource does: status says
# what the gate says (INVALID_HARNESS_STATE / not PASS).
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
# The agent loosens gate.yaml in the working tree and commits HEAD's gate.yaml as a gitlink naming that blob.
sed -i 's/unit_test: required/unit_test: optional/' .harness/gate.yaml || exit 2
python3 - <<'PY' || { echo "setup failed (gitlink commit)"; exit 2; }
import subprocess
def git(*a, inp=None):
    return subprocess.run(["git", *a], input=inp, capture_output=True, check=True).stdout
loose = git("hash-object", "-w", ".harness/gate.yaml").strip().decode()
def entries(tree):
    out = []
    for line in git("ls-tree", "-z", tree).split(b"\0"):
        if line:
            meta, name = line.split(b"\t", 1)
            mode, _t, oid = meta.split()
            out.append([mode, name, bytes.fromhex(oid.decode())])
    return out
def write(ents):
    ents.sort(key=lambda e: e[1] + (b"/" if e[0] == b"40000" else b""))
    raw = b"".join(m + b" " + n + b"\0" + o for m, n, o in ents)
    return git("hash-object", "-t", "tree", "-w", "--stdin", "--literally", inp=raw).strip().decode()
sub = entries("HEAD:.harness")
for e in sub:
    if e[1] == b"gate.yaml":
        e[0], e[2] = b"160000", bytes.fromhex(loose)
top = entries("HEAD^{tree}")
for e in top:
    if e[1] == b".harness":
        e[2] = bytes.fromhex(write(sub))
commit = git("commit-tree", "-p", "HEAD", "-m", "gate.yaml", write(top)).strip().decode()
git("update-ref", "HEAD", commit)
PY
[ "$(git ls-tree HEAD .harness/gate.yaml | cut -c1-6)" = 160000 ] || { echo "setup: no gitlink"; exit 2; }
gate=$(harness gate --json 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["verdict"])')
status=$(harness status --json 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["gate_now"]["verdict"])')
echo "harness gate --json verdict: $gate"
echo "harness status --json gate_now.verdict: $status"
echo "HEAD's gate.yaml: read-ahead $(python3 -c '
from pathlib import Path
from harness.gitio.fast_path import CommitFiles
h = CommitFiles.of_head(Path("."), ahead=(".harness/config.yaml", ".harness/gate.yaml"))
d = h.read(".harness/gate.yaml"); print("None" if d is None else f"{len(d)} bytes of policy")')"
[ -n "$gate" ] && [ -n "$status" ] || { echo "setup: no verdicts"; exit 2; }
if [ "$status" = PASS ] && [ "$gate" != PASS ]; then
  echo "DEFECT: status reads HEAD's gitlink gate.yaml as the loosened policy and says PASS; the gate says $gate"
  exit 1
fi
exit 0
