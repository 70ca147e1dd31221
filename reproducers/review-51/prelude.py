"""What read 51's reproducers share: a task whose must requirement cites a command changed since its
base, stamps with and without the cache, and a temp folder per run (each script imports it)."""
import os, sys, subprocess, json, shutil, tempfile
from pathlib import Path
here = os.environ["here"]
sys.path[:0] = [here, f"{here}/tests"]
from harness.gitio.git import Git
from harness.history import stamp as stamping
from harness.history.stamp_cache import StampCache
from harness.signatures.trust import Signers
from support.ssh_keys import approval_line, make_key, signers_line, repository_id
PY = sys.executable
INTRODUCED = "whose command is not the one config.yaml configured at the task's base"
ENV = {**os.environ, "GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@e.com", "GIT_COMMITTER_NAME": "T",
       "GIT_COMMITTER_EMAIL": "t@e.com"}
class Setup(Exception): pass
def git(repo, *a):
    p = subprocess.run(["git", *a], cwd=repo, capture_output=True, text=True, env=ENV)
    if p.returncode: raise Setup(f"git {a}: {p.stderr}")
    return p.stdout.strip()
def h(repo, *a):
    p = subprocess.run([PY, "-m", "harness", *a], cwd=repo, capture_output=True, text=True, env=ENV)
    if p.returncode: raise Setup(f"harness {a}: {p.stdout}{p.stderr}")
    return p.stdout.strip()
def commit_all(repo, msg):
    git(repo, "add", "-A"); git(repo, "commit", "-qm", msg, "--no-verify"); return git(repo, "rev-parse", "HEAD")
def note(repo, c):
    p = subprocess.run(["git", "notes", "--ref", "refs/notes/harness", "show", c], cwd=repo, capture_output=True, text=True)
    return json.loads(p.stdout) if p.returncode == 0 else None
def signers(repo): return Signers(lambda: Git(repo))
def fresh(repo, c): return stamping.stamp_for(Git(repo), c, signers(repo), StampCache(None))[1]
def cached(repo, c): stamping.stamp(Git(repo), c, signers(repo)); return note(repo, c)
def intro(n, tid): return any(INTRODUCED in b for b in (n["tasks"][tid].get("blockers") or []))
def setup(base):
    """A task in VERIFYING whose must requirement cites custom.smoke, a command changed since the task's base."""
    repo = base / "repo"; repo.mkdir(parents=True)
    git(repo, "init", "-q"); (repo / "app.py").write_text("x = 1\n"); commit_all(repo, "initial")
    h(repo, "init")
    keys = {n: make_key(base / "keys", n) for n in ("human", "other")}
    sfile = base / "allowed_signers"; sfile.write_text(signers_line("test@example.com", keys["human"][1]))
    git(repo, "config", "harness.allowedSigners", str(sfile))
    config = repo / ".harness/config.yaml"
    config.write_text(config.read_text().replace("evidence: {}\n", f'evidence:\n  custom.smoke:\n    command: ["{PY}", "-c", "pass"]\n'))
    commit_all(repo, "smoke command (the task's base)")
    tid = h(repo, "task", "new", "T")
    h(repo, "requirement", "add", "R", "--priority", "must")
    for s in ("SPECIFYING", "PLANNED", "IMPLEMENTING", "VERIFYING"): h(repo, "transition", s)
    before_cfg = config.read_bytes()
    config.write_text(config.read_text().replace('"pass"]', '"pass  # this change"]'))
    h(repo, "evidence", "custom.smoke")
    h(repo, "requirement", "set", "REQ-001", "--status", "verified", "--evidence", "custom.smoke")
    unapproved = commit_all(repo, "the smoke command changed")
    return dict(base=base, repo=repo, keys=keys, sfile=sfile, config=config, tid=tid, unapproved=unapproved,
                before_cfg=before_cfg)
def approve(d, bind=False):
    repo = d["repo"]
    b = (repository_id(repo), d["before_cfg"]) if bind else None
    with open(repo / ".harness/approvals.jsonl", "a") as f:
        f.write(approval_line("config-change", d["config"].read_bytes(), d["keys"]["human"][0], bind=b))
    return commit_all(repo, "approved")
def run(body):
    base = Path(tempfile.mkdtemp(prefix="review-s17b."))
    try:
        sys.exit(body(base))
    except Setup as exc:
        print("setup failure:", exc); sys.exit(2)
    finally:
        shutil.rmtree(base, ignore_errors=True)
