"""Real git repositories and remotes: commits, pushes, refs, notes, CI clones."""

from __future__ import annotations

import json
import os
import struct
import subprocess
from pathlib import Path

NOTES = "refs/notes/harness"


def git(cwd: Path, *args: str, check: bool = True, env: dict | None = None) -> subprocess.CompletedProcess:
    proc = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True,
                          env={**os.environ, **(env or {})})
    if check and proc.returncode != 0:
        raise AssertionError(f"git {' '.join(args)} failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}")
    return proc


def new_repo(root: Path) -> Path:
    """An empty git repository with one commit of source code (the ``repo`` fixture)."""
    root.mkdir()
    git(root, "init", "-q")
    (root / "app.py").write_text("def answer():\n    return 42\n")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "initial")
    return root


def head(repo: Path, rev: str = "HEAD") -> str:
    return git(repo, "rev-parse", rev).stdout.strip()


def out(proc: subprocess.CompletedProcess) -> str:
    return (proc.stdout or "") + (proc.stderr or "")


def commit(repo: Path, msg: str, *args: str) -> subprocess.CompletedProcess:
    return git(repo, "commit", "-m", msg, *args, check=False)


def commit_ok(repo: Path, msg: str, *args: str) -> str:
    proc = commit(repo, msg, *args)
    assert proc.returncode == 0, f"commit {msg!r} was refused:\n{out(proc)}"
    return head(repo)


def commit_all_ok(repo: Path, msg: str, *args: str) -> str:
    git(repo, "add", "-A")
    return commit_ok(repo, msg, *args)


def refused_commit(repo: Path, msg: str, *args: str) -> str:
    """Commit, expecting a refusal; returns the output. HEAD must not move."""
    before = head(repo)
    proc = commit(repo, msg, *args)
    assert proc.returncode != 0, f"commit {msg!r} should have been refused:\n{out(proc)}"
    assert head(repo) == before, "a refused commit moved HEAD"
    return out(proc)


def push(repo: Path, *args: str) -> subprocess.CompletedProcess:
    return git(repo, "push", *args, check=False)


def push_ok(repo: Path, *args: str) -> None:
    p = push(repo, *args)
    assert p.returncode == 0, f"git push {' '.join(args)} was refused:\n{out(p)}"


def remote_ref(remote: Path, ref: str) -> str | None:
    p = subprocess.run(["git", "--git-dir", str(remote), "rev-parse", "--verify", "-q", ref],
                       capture_output=True, text=True)
    return p.stdout.strip() if p.returncode == 0 else None


def note(repo: Path, rev: str) -> dict | None:
    p = git(repo, "notes", "--ref", NOTES, "show", rev, check=False)
    return json.loads(p.stdout) if p.returncode == 0 else None


def raw_note(repo: Path, rev: str) -> str | None:
    p = git(repo, "notes", "--ref", NOTES, "show", rev, check=False)
    return p.stdout if p.returncode == 0 else None


ZERO = "0" * 40  # git's name for "no commit" (a created or deleted ref)


def pushed_to_bare(repo: Path, tmp_path: Path) -> Path:
    commit_all_ok(repo, "harness init")
    bare = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", str(bare))
    git(repo, "remote", "add", "origin", str(bare))
    git(repo, "push", "-q", "-u", "origin", "main")
    return bare


def ci_clone(remote: Path, where: Path, *args: str) -> Path:
    """What a CI job checks out: a fresh clone of the remote after the push."""
    if where.exists():
        git(where, "fetch", "-q", "origin", "+refs/heads/*:refs/remotes/origin/*", "+refs/tags/*:refs/tags/*")
        git(where, "checkout", "-q", "--detach", "origin/main")
        return where
    git(remote.parent, "clone", "-q", *args, f"file://{remote}", str(where))
    return where


def gc_remote(remote: Path) -> None:
    """The server forgets the commits a force push left unreachable."""
    git(remote, "reflog", "expire", "--expire=now", "--all")
    git(remote, "gc", "-q", "--prune=now")


def harness_as_submodule_entry(repo: Path) -> str:
    """A commit (no hooks) whose `.harness` is a submodule entry naming HEAD's `.harness` tree; returns that tree."""
    tree = head(repo, "HEAD:.harness")
    git(repo, "rm", "-r", "-q", "--cached", ".harness")
    git(repo, "update-index", "--add", "--cacheinfo", f"160000,{tree},.harness")
    git(repo, "commit", "-q", "--no-verify", "-m", "a submodule entry where the record was")
    return tree


def run_in(repo: Path, fn):
    """``fn()``'s answer, called with ``repo`` as the working folder (what a hook sees), the old one back after."""
    old = os.getcwd()
    os.chdir(repo)
    try:
        return fn()
    finally:
        os.chdir(old)


def forge_commit_graph_parent(repo: Path, commit: str, parent: str) -> None:
    """Write the commit-graph of every ref, then give ``commit`` the first parent ``parent`` in it (one level above
    it: a walk stops at a level below the commit it looks for). The file's checksum is left: git does not check it."""
    git(repo, "-c", "commitGraph.generationVersion=1", "commit-graph", "write", "--reachable", "--no-progress")
    path = repo / ".git/objects/info/commit-graph"
    b = bytearray(path.read_bytes())
    assert b[:4] == b"CGPH" and b[5] == 1, "a SHA-1 commit-graph"
    chunks = dict(struct.unpack(">4sQ", b[8 + 12 * i: 20 + 12 * i]) for i in range(b[6] + 1))
    end = min(v for v in chunks.values() if v > chunks[b"OIDL"])
    oids = [bytes(b[i: i + 20]).hex() for i in range(chunks[b"OIDL"], end, 20)]
    entry, above = (chunks[b"CDAT"] + 36 * oids.index(c) for c in (commit, parent))
    b[entry + 20: entry + 24] = struct.pack(">I", oids.index(parent))
    level = struct.unpack(">I", b[above + 28: above + 32])[0] >> 2
    word = struct.unpack(">I", b[entry + 28: entry + 32])[0]
    b[entry + 28: entry + 32] = struct.pack(">I", ((level + 1) << 2) | (word & 3))
    path.chmod(0o644)
    path.write_bytes(bytes(b))
