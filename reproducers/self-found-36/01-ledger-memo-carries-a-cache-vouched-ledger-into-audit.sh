#!/usr/bin/env bash
# Self-found 36 (read 178's suspicion, confirmed): the memo of validated ledgers (harness/store/ledger_memo.py) keeps a
# ledger the commit hook's check accepted through the checkout's cache of valid digests (.harness/local/valid: the
# schema check skipped for the bytes it lists), and a later `harness audit` in the same process (which names no cache,
# F-0147) takes the ledger as validated. A new task's ledger holding an event with an unknown field (the schema refuses
# it; the rules do not read it) is reported by an audit in a fresh process (valid-ledger-and-files) and not by one run
# after the hook's check in the same process. Exit 1 while the defect is present, 0 when fixed, 2 on a setup failure.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export PYTHONPATH="$here"
work=$(mktemp -d "${TMPDIR:-/tmp}/self-found-36.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT
cat > "$work/run.py" <<'EOF'
import contextlib, io, json, os, subprocess, sys
from pathlib import Path


def git(repo, *a):
    return subprocess.run(["git", *a], cwd=repo, check=True, capture_output=True, text=True).stdout.strip()


def build(root):
    repo = Path(root) / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main"); git(repo, "config", "user.email", "r@e.com"); git(repo, "config", "user.name", "r")
    subprocess.run([sys.executable, "-m", "harness", "init"], cwd=repo, check=True, capture_output=True)
    os.chdir(repo)
    from harness.core.chain import encode_event, line_hash
    from harness.store import validate
    from harness.store.layout import open_layout
    from harness.store.tasks import TaskStore
    (repo / "src.txt").write_text("x\n")
    git(repo, "add", "-A"); git(repo, "commit", "-q", "--no-verify", "-m", "base")
    base = git(repo, "rev-parse", "HEAD")
    store = TaskStore(open_layout(repo))
    tid = store.create("T", "d", 5, None)
    store.append(tid, [("requirement.added", {"id": "REQ-001", "priority": "must", "source": "user", "statement": "works"})])
    path = repo / f".harness/tasks/{tid}/events.jsonl"
    lines = path.read_text().splitlines()
    last = json.loads(lines[-1])
    bad = encode_event(last["seq"] + 1, last["ts"], "requirement.set",  # the rules accept it; the schema refuses it
                       {"id": "REQ-001", "status": "pending", "evidence": [], "smuggled": "x"}, line_hash(lines[-1]))
    path.write_text("\n".join([*lines, bad]) + "\n")
    (repo / ".harness/local").mkdir(parents=True, exist_ok=True)
    with open(repo / ".harness/local/valid", "a") as fh:  # the checkout's cache vouches for those bytes
        fh.write(validate._key("event", path.read_bytes()) + "\n")
    git(repo, "add", "-A")
    print(repo, base)


def audit_rules(base, commit):
    from harness.cli.main import main
    old, sys.argv = sys.argv, ["harness", "audit", "--from", base, "--to", "HEAD", "--json"]
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            main()
    except SystemExit:
        pass
    finally:
        sys.argv = old
    return next(sorted({p["rule"] for p in row["problems"]}) for row in json.loads(out.getvalue())["results"]
                if row["commit"] == commit)


if sys.argv[1] == "build":
    build(sys.argv[2])
    sys.exit(0)
try:  # built in another process, so this one meets the ledger first through the hook's check
    repo, base = subprocess.run([sys.executable, __file__, "build", sys.argv[2]], check=True, capture_output=True,
                                text=True).stdout.split()[-2:]
    os.chdir(repo)
    from harness.history.hook_checks import hook_git, staged_problems
    hook = sorted({p.rule for p in staged_problems(hook_git(Path(repo)))})
    git(repo, "commit", "-q", "--no-verify", "-m", "an event with an unknown field")
    rules = audit_rules(base, git(repo, "rev-parse", "HEAD"))
except Exception as exc:  # noqa: BLE001
    print(f"setup failed: {exc!r}", file=sys.stderr)
    sys.exit(2)
print("the hook's check (the cache vouches for the ledger):", hook)
print("`harness audit` after it, in the same process:", rules)
if "valid-ledger-and-files" in rules:
    print("held: the audit validated the ledger itself and refused it")
    sys.exit(0)
print("DEFECT: the audit took the ledger the hook's cache vouched for as validated")
sys.exit(1)
EOF
python3 "$work/run.py" run "$work"
