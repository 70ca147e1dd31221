"""A commit appending to a ledger has its new lines scanned for secrets (the lines its parent holds
were scanned with that parent), and a secret there is named at its line in the whole file."""

from __future__ import annotations

from support.cli import validate_staged
from support.gitrepo import commit_all_ok
from support.records import append_event, ledger_bytes

TOKEN = "ghp_" + "Q7wErTy5UiOp3AsDfGh2JkLzXcVbNm4s1D9f"


def _requirement(n: int, statement: str) -> dict:
    return {"id": f"REQ-{n:03d}", "priority": "must", "source": "user", "statement": statement}


def test_a_secret_in_an_appended_ledger_line_is_refused_at_its_line(h, task):
    commit_all_ok(h.root, "task")
    kept = ledger_bytes(h.root, task).count(b"\n")
    append_event(h.root, task, "requirement.added", _requirement(1, "it works"))
    append_event(h.root, task, "requirement.added", _requirement(2, f"use {TOKEN} to log in"))
    r = validate_staged(h.root)
    assert r.returncode == 1
    assert f"events.jsonl:{kept + 2} [secret-in-harness-files]" in r.stderr
    assert f"events.jsonl:{kept + 1} " not in r.stderr


def test_clean_appended_ledger_lines_pass_the_scan(h, task):
    commit_all_ok(h.root, "task")
    h.ok("requirement", "add", "It works", "--priority", "must")
    r = validate_staged(h.root)
    assert "secret-in-harness-files" not in r.stderr
    assert r.returncode == 0, r.stderr
