"""`.harness/local/` is one machine's (its lock, caches, the current task, scratch): a commit may not carry it, and
the audit of a checkout never reads its cache of known-valid documents (#28's task F-0147), which would let a
ledger the schema refuses pass."""

from __future__ import annotations

import json

from harness.core.chain import GENESIS, canonical, line_hash
from harness.store.validate import _key

from support.cli import cli, validate_staged
from support.gitrepo import git


def _forged_task_with_a_planted_cache(h, repo) -> None:
    """A task whose first event carries a field the schema refuses (its chain re-hashed), and the digest of
    that ledger in .harness/local/valid, committed with it."""
    tid = h.ok("task", "new", "forged").out.strip()
    ledger = repo / ".harness/tasks" / tid / "events.jsonl"
    events = [json.loads(line) for line in ledger.read_text().splitlines()]
    events[0]["data"]["x"] = 1
    prev, lines = GENESIS, []
    for event in events:
        event["prev"] = prev
        lines.append(canonical(event))
        prev = line_hash(lines[-1])
    raw = "".join(f"{line}\n" for line in lines).encode()
    ledger.write_bytes(raw)
    (repo / ".harness/local/valid").write_text(_key("event", raw) + "\n")
    git(repo, "add", "-A")
    git(repo, "add", "-f", ".harness/local/valid")


def test_a_commit_carrying_harness_local_is_refused(h, task, repo):
    (repo / ".harness/local/notes.txt").write_text("scratch\n")
    git(repo, "add", "-A")
    git(repo, "add", "-f", ".harness/local/notes.txt")
    r = cli(repo, "hook", "validate")
    assert r.returncode == 1 and ".harness/local" in r.stderr, r.stderr


def test_an_ordinary_commit_of_the_record_is_not_refused_for_local_files(h, task, repo):
    (repo / ".harness/local/notes.txt").write_text("scratch\n")  # ignored, as .gitignore says: not committed
    assert validate_staged(repo).returncode == 0


def test_the_audit_does_not_trust_a_checkout_s_cache_of_valid_documents(h, task, repo):
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "task", "--no-verify")
    base = git(repo, "rev-parse", "HEAD").stdout.strip()
    _forged_task_with_a_planted_cache(h, repo)
    git(repo, "commit", "-qm", "forged", "--no-verify")
    r = cli(repo, "audit", "--from", base, "--to", "HEAD")
    assert r.returncode == 1, r.stdout + r.stderr
    assert "unknown field" in r.stdout + r.stderr


def test_the_agent_may_not_write_the_cache_of_valid_documents(h, task, repo):
    from support.agent_guard import guard_answer

    # the local commit hook skips the schema check of what it lists (F-0148); the rest of local/ stays scratch
    for command in ("echo 0123456789abcdef0123456789abcdef >> .harness/local/valid", "cp digests.txt .harness/local/valid"):
        assert guard_answer(repo, "Bash", {"command": command}) == "deny", command
    assert guard_answer(repo, "Write", {"file_path": str(repo / ".harness/local/valid"), "content": "x\n"}) == "deny"
    assert guard_answer(repo, "Bash", {"command": "echo notes > .harness/local/notes.txt"}) == "allow"
    assert guard_answer(repo, "Bash", {"command": "cat .harness/local/valid"}) == "allow"


def test_the_cache_of_valid_documents_is_not_reached_by_a_glob_or_a_replaced_folder(h, task, repo):
    from support.agent_guard import guard_answer

    # F-0149: a glob that may name the cache; F-0150: the folder that holds it, copied over, linked or renamed in
    for command in ("echo K >> .harness/local/vali*", "cp -r evil/. .harness/local", "ln -s evil .harness/local",
                    "rm -rf .harness/local && cp -r evil .harness/local", "mv evil .harness/local"):
        assert guard_answer(repo, "Bash", {"command": command}) == "deny", command
    for command in ("cp report.md .harness/local/", "echo x > .harness/local/notes-1.txt", "ls .harness/local"):
        assert guard_answer(repo, "Bash", {"command": command}) == "allow", command


def test_harness_local_is_refused_in_a_commit_whatever_its_case(h, task, repo):
    (repo / ".harness/LOCAL").mkdir()
    (repo / ".harness/LOCAL/valid").write_text("0123\n")  # `.harness/local/valid` on a case-insensitive checkout
    git(repo, "add", "-A")
    git(repo, "add", "-f", ".harness/LOCAL/valid")
    r = cli(repo, "hook", "validate")
    assert r.returncode == 1 and "local-not-committed" in r.stderr, r.stderr
