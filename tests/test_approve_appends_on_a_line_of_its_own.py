"""`harness approve` records its approval on a line of its own, even after a committed approvals.jsonl that lacks a
final newline (read 154's F-0544).

The commit hook accepts such a file (an editor resolving a merge conflict in it may leave it so); `approve` wrote
`existing + line`, gluing its signed line onto the last one: the file then held one line that is no approval, the new
approval counted as none and the committed one above it was "rewritten". The newline is written first now, and the
append-only rule accepts exactly that completion of the last line and no other change to it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from support.cli import commit_validated as commit
from support.cli import validate_staged
from support.processes import run_in_pty
from support.ssh_keys import make_key, sign_as_listed

GATE = ".harness/gate.yaml"
APPROVALS = ".harness/approvals.jsonl"


@pytest.fixture
def adopted(h, repo, tmp_path) -> Path:
    sign_as_listed(repo, *make_key(tmp_path / "keys", "human"))
    commit(repo, "adopt the harness")
    return repo


def loosen_and_approve(repo: Path, how: tuple[str, str]) -> None:
    gate = repo / GATE
    gate.write_text(gate.read_text().replace(*how))
    code, screen = run_in_pty(repo, ["approve", "gate-change"], "approve")
    assert code == 0 and "approved by" in screen, screen


def test_f0544_an_approval_after_a_last_line_without_its_newline_is_a_line_of_its_own(adopted):
    loosen_and_approve(adopted, ("major_allowed: 0", "major_allowed: 1"))
    commit(adopted, "loosen, approved")
    committed = (adopted / APPROVALS).read_text()
    (adopted / APPROVALS).write_text(committed.rstrip("\n"))  # the same line, without its newline: accepted
    commit(adopted, "approvals.jsonl without a final newline")
    loosen_and_approve(adopted, ("    build: required", "    build: optional"))
    written = (adopted / APPROVALS).read_text()
    assert written.startswith(committed) and written.endswith("\n"), written
    records = [json.loads(line) for line in written.splitlines()]
    assert len(records) == 2 and records[0] == json.loads(committed), records
    r = validate_staged(adopted)
    assert r.returncode == 0, r.stderr


class _Src:
    """approvals.jsonl as a tree holds it."""

    def __init__(self, raw: bytes, label: str) -> None:
        self.raw, self.label = raw, label

    def read(self, rel: str) -> bytes:
        return self.raw


def _refusals(parent: bytes, new: bytes) -> list[str]:
    from harness.history.change_rules import _check_approvals_kept

    problems: list = []
    _check_approvals_kept([_Src(parent, "HEAD")], _Src(new, "index"), problems)
    return [p.rule for p in problems]


RECORD = b'{"kind": "gate-change", "digest": "x"}'
NEXT = b'{"kind": "gate-change", "digest": "y"}\n'


def test_f0544_completing_the_last_line_with_its_newline_is_accepted():
    assert _refusals(RECORD, RECORD + b"\n" + NEXT) == []
    assert _refusals(RECORD, RECORD + b"\n") == []


@pytest.mark.parametrize("new", [RECORD + b" \n" + NEXT, RECORD + NEXT, RECORD[:-1] + b"\n" + NEXT,
                                 RECORD + b"\r\n" + NEXT, RECORD + b"x\n"])
def test_f0544_any_other_change_to_a_last_line_without_its_newline_is_refused(new):
    assert _refusals(RECORD, new) == ["approvals-append-only"]
