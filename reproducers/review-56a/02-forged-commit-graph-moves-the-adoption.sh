#!/usr/bin/env bash
# The harness reads history "as stored": replace refs are off (GIT_NO_REPLACE_OBJECTS), the agent guard denies
# .git/info/grafts and .git/shallow, and the push guard refuses a graft file. Git's commit-graph file
# (.git/objects/info/commit-graph) is a cache git trusts for every commit's parents in a revision walk, and
# nothing checks it against the objects; the agent guard ALLOWS writing it (`cp x .git/objects/info/commit-graph`).
# With HEAD on main (whose history holds the real adoption A), the agent keeps a side commit R1 (pre-adoption
# line, .harness/ with custom.smoke = `true`) on a branch and writes a commit-graph in which A's parent is R1:
# `git rev-list` (first_holding) now sees R1 as the one commit every other config.yaml change descends from,
# so F-0109's rule accepts it and the local gate vouches for `true`. Control: the same without the forged graph.
# The push guard and CI refuse the DONE commit on other grounds (the command added vs its stored parent).
# exit 1 = defect present (local gate PASS), 0 = fixed, 2 = setup failure
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"; export here
python - <<'PYEOF'
import os, struct, sys
sys.path.insert(0, os.path.join(os.environ["here"], "reproducers", "review-54"))
from read54_common import *  # noqa: F403  (read 53's adopt_repo/with_smoke/finish, read 52's helpers)
from harness import resources
from harness.gitio.adoption import first_holding
def forge_graph(repo, commit, parent):
    """Write the commit-graph of every ref (topological levels only), then give ``commit`` the first parent
    ``parent`` in it, one level above it (a walk stops at a level below the commit it looks for)."""
    git(repo, "-c", "commitGraph.generationVersion=1", "commit-graph", "write", "--reachable", "--no-progress")
    path = repo / ".git/objects/info/commit-graph"
    b = bytearray(path.read_bytes())
    if b[:4] != b"CGPH" or b[5] != 1:
        raise Setup("not a SHA-1 commit-graph")
    chunks = sorted(struct.unpack(">4sQ", b[8 + 12 * i: 20 + 12 * i]) for i in range(b[6] + 1))
    off = {k: v for k, v in chunks}
    after = min(v for _, v in chunks if v > off[b"OIDL"])
    oids = [bytes(b[off[b"OIDL"] + 20 * i: off[b"OIDL"] + 20 * i + 20]).hex() for i in range((after - off[b"OIDL"]) // 20)]
    e = off[b"CDAT"] + 36 * oids.index(commit)
    b[e + 20: e + 24] = struct.pack(">I", oids.index(parent))
    p = off[b"CDAT"] + 36 * oids.index(parent)
    level = struct.unpack(">I", b[p + 28: p + 32])[0] >> 2
    word = struct.unpack(">I", b[e + 28: e + 32])[0]
    b[e + 28: e + 32] = struct.pack(">I", ((level + 1) << 2) | (word & 3))
    os.chmod(path, 0o644); path.write_bytes(bytes(b))
def variant(base, label):
    repo, remote, pre, adopt = adopt_repo(base, label)
    (repo / "app.py").write_text("x = 2\n"); tip = commit_all(repo, "code after the adoption")
    git(repo, "push", "-q", "--no-verify", "origin", "main")
    smoke = with_smoke((repo / ".harness/config.yaml").read_text())
    gate_yaml = resources.default_gate(["build", "unit_test", "custom.smoke"])
    git(repo, "checkout", "-q", "-b", "side", pre)
    git(repo, "checkout", adopt, "--", ".harness")
    (repo / ".harness/config.yaml").write_text(smoke); (repo / ".harness/gate.yaml").write_bytes(gate_yaml)
    r1 = commit_all(repo, "side: .harness/ with a smoke command (never merged)")
    git(repo, "checkout", "-q", "-f", "main")
    git(repo, "reset", "-q", "--soft", pre); to_verifying(repo); git(repo, "reset", "-q", "--soft", tip)
    (repo / ".harness/config.yaml").write_text(smoke); (repo / ".harness/gate.yaml").write_bytes(gate_yaml)
    if label == "forged-graph":
        forge_graph(repo, adopt, r1)
    try:
        found = first_holding(repo, "HEAD")[:12]
    except Exception as exc:
        found = f"refused: {exc}"[:100]
    print(f"{label}: HEAD {tip[:12]} on main, after the adoption {adopt[:12]} (stored parent {pre[:12]}); "
          f"side R1 {r1[:12]}; first_holding(HEAD) = {found}")
    return finish(repo, remote, base, tip, label)
def body(base):
    if variant(base, "control")[0]:
        raise Setup("control: the added command passes without the forged graph")
    return 1 if variant(base, "forged-graph")[0] else 0
run(body)
PYEOF
