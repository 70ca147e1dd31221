#!/usr/bin/env bash
# Review 178, defect 01: commit_docs' agreement memo (per process, by path and blob id) outlives the command that made
# it. A commit hook's check (staged_problems: its tree sources name the checkout's .harness/local/valid cache) accepts a
# finding file the cache vouches for (`line: true`, not an integer, equal to the ledger's 1 in Python) and records
# "this blob agrees"; a later `harness audit` in the same process (the audit names no cache, F-0147) skips reading and
# schema-checking that blob and reports no problem at the commit carrying it. Before the change it reported
# valid-ledger-and-files there. Exit 1 while the defect is present, 0 when fixed, 2 on a setup failure.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export PYTHONPATH="$here"
work=$(mktemp -d "${TMPDIR:-/tmp}/review-178-01.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT
cat > "$work/run.py" <<'EOF'
import contextlib, io, json, os, subprocess, sys, tempfile
from pathlib import Path

def git(repo, *a):
    return subprocess.run(["git", *a], cwd=repo, check=True, capture_output=True, text=True).stdout.strip()

def build(root):
    repo = Path(root) / "repo"; repo.mkdir()
    git(repo, "init", "-q", "-b", "main"); git(repo, "config", "user.email", "r@e.com"); git(repo, "config", "user.name", "r")
    subprocess.run([sys.executable, "-m", "harness", "init"], cwd=repo, check=True, capture_output=True)
    os.chdir(repo)
    from harness.store.layout import open_layout
    from harness.store.tasks import TaskStore
    from harness.store import validate
    store = TaskStore(open_layout(repo))
    tid = store.create("T", "d", 5, None)
    store.append(tid, [("finding.proposed", {"id": "F-0001", "content": {
        "severity": "minor", "category": "correctness", "title": "t", "claim": "c", "failure_scenario": ["s"],
        "expected_behavior": "e", "location": {"file": "src/w.py", "line": 1},
        "recommended_reproducer": {"type": "unit_test", "description": "d", "command": "true"}}})])
    git(repo, "add", "-A"); git(repo, "commit", "-q", "--no-verify", "-m", "base")
    base = git(repo, "rev-parse", "HEAD")
    f = repo / f".harness/tasks/{tid}/findings/F-0001.yaml"
    text = f.read_text()
    assert "line: 1\n" in text, text
    f.write_text(text.replace("line: 1\n", "line: true\n"))  # schema-invalid, == the ledger's 1 in Python
    (repo / ".harness/local").mkdir(parents=True, exist_ok=True)
    with open(repo / ".harness/local/valid", "a") as fh:  # the checkout's cache vouches for those bytes
        fh.write(validate._key("finding", f.read_bytes()) + "\n")
    git(repo, "add", "-A")
    print(repo, base)

def audit_problems(base, commit):
    from harness.cli.main import main
    old = sys.argv; sys.argv = ["harness", "audit", "--from", base, "--to", "HEAD", "--json"]
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            main()
    except SystemExit:
        pass
    finally:
        sys.argv = old
    for row in json.loads(out.getvalue())["results"]:
        if row["commit"] == commit:
            return [(p["file"], p["rule"]) for p in row["problems"]]
    raise RuntimeError("the edited commit is not in the audit's results")

if sys.argv[1] == "build":
    build(sys.argv[2]); sys.exit(0)
try:  # built in another process, so this one reads the checkout's cache with the vouching line in it
    out = subprocess.run([sys.executable, __file__, "build", sys.argv[2]], check=True, capture_output=True,
                         text=True).stdout.split()
    repo, base = Path(out[-2]), out[-1]
    os.chdir(repo)
    from harness.history.hook_checks import hook_git, staged_problems
    hook = staged_problems(hook_git(repo))  # the commit hook's check of the index, in this process
    git(repo, "commit", "-q", "--no-verify", "-m", "line: true by hand")
    edited = git(repo, "rev-parse", "HEAD")
    found = audit_problems(base, edited)  # `harness audit` in the same process
except Exception as exc:  # noqa: BLE001
    print(f"setup failed: {exc!r}", file=sys.stderr); sys.exit(2)
print("hook's problems (cache-vouched):", [(p.file, p.rule) for p in hook])
print("audit's problems at the commit carrying `line: true`:", found)
if any(rule == "valid-ledger-and-files" for _, rule in found):
    print("held: the audit read and refused the schema-invalid finding file"); sys.exit(0)
print("DEFECT: the audit in the same process skipped the file the hook's cache-vouched read recorded as agreeing")
sys.exit(1)
EOF
python3 "$work/run.py" run "$work"
