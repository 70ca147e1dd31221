#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# F-0120's fix turns the commit-graph off for every git process the harness starts (GIT_CONFIG_PARAMETERS
# core.commitgraph=false). The harness also walks history in-process with pygit2 (harness/gitio/revisions.py
# History.rev_list: the push guard's list of pushed commits, audit ranges, approvals, rewrites), and libgit2
# reads .git/objects/info/commit-graph for parents too, unchecked and regardless of GIT_CONFIG_PARAMETERS.
# Here: B puts a token into a .harness/ file (committed with --no-verify), C takes it out again. A forged
# commit-graph gives C the already pushed A as parent; `git -c core.commitGraph=false push` sends B and C as
# stored, and the pre-push guard, walking with libgit2, never sees B: the token reaches the remote.
# Control: the same push without the forged graph is refused.
# Exit 1 while the forged-graph push is accepted; 0 when refused; 2 on setup failure.
export GIT_CONFIG_GLOBAL=/dev/null GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"
GH=ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5
setup() { # DIR: a repo pushed to its bare remote, then B (token, --no-verify) and C (token removed)
  git init -q --bare "$1.git" && git init -q -b main "$1" && cd "$1" && git remote add origin "$1.git" \
    && echo a > a.txt && git add -A && git commit -qm init && harness init && harness install \
    && harness task new t && git add -A && git commit -qm harness && git push -q origin main || return 1
  A=$(git rev-parse HEAD)
  printf '#    command: [curl, -H, "Authorization: Bearer %s"]\n' "$GH" >> .harness/config.yaml
  git add -A && git commit -q --no-verify -m "B: a token in config.yaml" || return 1; B=$(git rev-parse HEAD)
  git show "$A:.harness/config.yaml" > .harness/config.yaml && git add -A && git commit -qm "C: token out" || return 1
  C=$(git rev-parse HEAD)
}
forge() { # give C the parent A in a commit-graph
  python - "$A" "$B" "$C" <<'PY'
import os, struct, subprocess, sys
a, b, c = sys.argv[1:]
subprocess.run(["git", "-c", "commitGraph.generationVersion=1", "commit-graph", "write", "--reachable", "--no-progress"], check=True)
path = ".git/objects/info/commit-graph"; bb = bytearray(open(path, "rb").read())
if bb[:4] != b"CGPH" or bb[5] != 1: sys.exit(2)
chunks = sorted(struct.unpack(">4sQ", bb[8 + 12 * i: 20 + 12 * i]) for i in range(bb[6] + 1)); off = dict(chunks)
after = min(v for _, v in chunks if v > off[b"OIDL"])
oids = [bytes(bb[off[b"OIDL"] + 20 * i: off[b"OIDL"] + 20 * i + 20]).hex() for i in range((after - off[b"OIDL"]) // 20)]
e = off[b"CDAT"] + 36 * oids.index(c); bb[e + 20: e + 24] = struct.pack(">I", oids.index(a))
p = off[b"CDAT"] + 36 * oids.index(a); level = struct.unpack(">I", bb[p + 28: p + 32])[0] >> 2
word = struct.unpack(">I", bb[e + 28: e + 32])[0]; bb[e + 28: e + 32] = struct.pack(">I", ((level + 1) << 2) | (word & 3))
os.chmod(path, 0o644); open(path, "wb").write(bytes(bb))
PY
}
( setup "$T/control" ) >/dev/null 2>&1 || exit 2
( cd "$T/control" && git -c core.commitGraph=false push -q origin main ) >/dev/null 2>&1 \
  && { echo "setup: control push accepted (the guard does not refuse B at all)" >&2; exit 2; }
echo "control: push of B (token) and C without a forged graph: refused"
( setup "$T/forged" ) >/dev/null 2>&1 || exit 2
cd "$T/forged" || exit 2; A=$(git rev-parse HEAD~2); B=$(git rev-parse HEAD~1); C=$(git rev-parse HEAD)
forge >/dev/null 2>&1 || exit 2
[ "$(git rev-list --count HEAD)" != "$(git -c core.commitGraph=false rev-list --count HEAD)" ] || { echo "setup: graph not forged" >&2; exit 2; }
if git -c core.commitGraph=false push -q origin main >/dev/null 2>&1; then
  n=$(git --git-dir="$T/forged.git" log --format=%H main | grep -c "$B")
  echo "forged graph: push ACCEPTED; the remote holds B (the token commit): $n"; exit 1
fi
echo "forged graph: push refused"; exit 0
