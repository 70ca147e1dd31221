"""What read 52's reproducers share: scratch repositories driven through the CLI, stamps with and
without the cache, a temp folder per run; setup() makes a task whose must requirement cites a changed command."""
import os, sys, subprocess, json, shutil, tempfile
from pathlib import Path
here = os.environ["here"]
sys.path[:0] = [here, f"{here}/tests"]
os.chdir("/tmp")
from harness.gitio.git import Git
from harness.history import stamp as stamping
from harness.history.stamp_cache import StampCache
from harness.signatures.trust import Signers
PY = sys.executable
ENV = {**os.environ, "GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@e.com", "GIT_COMMITTER_NAME": "T",
       "GIT_COMMITTER_EMAIL": "t@e.com", "GIT_CONFIG_GLOBAL": "/dev/null"}
class Setup(Exception): pass
def git(repo, *a):
    p = subprocess.run(["git", *a], cwd=repo, capture_output=True, text=True, env=ENV)
    if p.returncode: raise Setup(f"git {a}: {p.stderr}")
    return p.stdout.strip()
def hr(repo, *a): return subprocess.run([PY, "-m", "harness", *a], cwd=repo, capture_output=True, text=True, env=ENV)
def h(repo, *a):
    p = hr(repo, *a)
    if p.returncode: raise Setup(f"harness {a}: {p.stdout}{p.stderr}")
    return p.stdout.strip()
def commit_all(repo, msg):
    git(repo, "add", "-A"); git(repo, "commit", "-qm", msg, "--no-verify"); return git(repo, "rev-parse", "HEAD")
def signers(repo): return Signers(lambda: Git(repo))
def fresh(repo, c): return stamping.stamp_for(Git(repo), c, signers(repo), StampCache(None))[1]
def base_of(repo, tid):
    return json.loads((repo / ".harness/tasks" / tid / "events.jsonl").read_text().splitlines()[0])["data"].get("base_commit")
def to_verifying(repo):
    tid = h(repo, "task", "new", "T")
    h(repo, "requirement", "add", "R", "--priority", "must")
    for s in ("SPECIFYING", "PLANNED", "IMPLEMENTING", "VERIFYING"): h(repo, "transition", s)
    return tid
def run(body):
    base = Path(tempfile.mkdtemp(prefix="review-s17c."))
    try:
        sys.exit(body(base))
    except Setup as exc:
        print("setup failure:", exc); sys.exit(2)
    finally:
        shutil.rmtree(base, ignore_errors=True)
def setup(base):
    """A task in VERIFYING whose must requirement cites custom.smoke, a command changed since the task's base."""
    repo = base / "repo"; repo.mkdir(parents=True)
    git(repo, "init", "-q", "-b", "main"); (repo / "app.py").write_text("x = 1\n"); commit_all(repo, "initial")
    h(repo, "init")
    config = repo / ".harness/config.yaml"
    config.write_text(config.read_text().replace("evidence: {}\n", f'evidence:\n  custom.smoke:\n    command: ["{PY}", "-c", "pass"]\n'))
    commit_all(repo, "smoke command (the task's base)")
    tid = to_verifying(repo)
    config.write_text(config.read_text().replace('"pass"]', '"pass  # this change"]'))
    h(repo, "evidence", "custom.smoke")
    h(repo, "requirement", "set", "REQ-001", "--status", "verified", "--evidence", "custom.smoke")
    return repo, tid, commit_all(repo, "the smoke command changed")
