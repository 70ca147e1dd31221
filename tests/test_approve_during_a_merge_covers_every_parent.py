"""`harness approve gate-change|signers-change|config-change` during a merge approves the merged file against every
parent it changes (read 154's F-0542).

The commit rule asks, for each parent of a merge whose file the merge result differs from, an approval bound to THAT
parent's file; `approve` bound only to HEAD's. A merge of two branches that each made an approved change could then
not be committed however often the human approved it, and the refusal's hint ("approve again") led in a circle.
Approving while the merge is in progress now records one signed approval per such parent, after one confirmation
that shows what is approved against each; every line is checked by the commit hook as any other is."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from support.cli import cli, validate_staged
from support.cli import commit_validated as commit
from support.gitrepo import git, head
from support.processes import run_in_pty
from support.ssh_keys import make_key, repository_id, sign_as_listed, signers_line

GATE = ".harness/gate.yaml"
SIGNERS = ".harness/allowed_signers"
CONFIG = ".harness/config.yaml"
APPROVALS = ".harness/approvals.jsonl"
SIDE_LOOSENS = ("major_allowed: 0", "major_allowed: 1")
MAIN_LOOSENS = ("    build: required", "    build: optional")


@pytest.fixture(scope="module")
def keys(tmp_path_factory) -> dict[str, tuple[Path, str]]:
    folder = tmp_path_factory.mktemp("keys")
    return {name: make_key(folder, name) for name in ("human", "other")}


@pytest.fixture
def adopted(h, repo, keys) -> Path:
    """A repository that adopted the harness with the human's key listed, and signs with it."""
    sign_as_listed(repo, *keys["human"])
    commit(repo, "adopt the harness")
    return repo


def approve(repo: Path, kind: str) -> str:
    code, screen = run_in_pty(repo, ["approve", kind], "approve")
    assert code == 0 and "approved by" in screen, screen
    return screen


def edit(repo: Path, rel: str, how: tuple[str, str]) -> None:
    path = repo / rel
    assert how[0] in path.read_text(), path.read_text()
    path.write_text(path.read_text().replace(*how))


def lines(repo: Path) -> list[str]:
    path = repo / APPROVALS
    return path.read_text().splitlines() if path.exists() else []


def merge_side(repo: Path) -> None:
    """`git merge side` stops on approvals.jsonl (both sides appended); resolved to every line of both, main's first."""
    git(repo, "merge", "-q", "--no-commit", "side", check=False)
    main, side = git(repo, "show", f"main:{APPROVALS}").stdout, git(repo, "show", f"side:{APPROVALS}").stdout
    (repo / APPROVALS).write_text(main + "".join(line + "\n" for line in side.splitlines() if line not in main))


def two_approved_gate_loosenings(repo: Path) -> str:
    """side and main each loosen gate.yaml with an approval; a merge in progress holds both loosenings. The fork."""
    fork = head(repo)
    git(repo, "checkout", "-qb", "side")
    edit(repo, GATE, SIDE_LOOSENS)
    approve(repo, "gate-change")
    commit(repo, "side: major findings allowed (approved)")
    git(repo, "checkout", "-q", "main")
    edit(repo, GATE, MAIN_LOOSENS)
    approve(repo, "gate-change")
    commit(repo, "main: build optional (approved)")
    merge_side(repo)
    merged = git(repo, "show", f"main:{GATE}").stdout.replace(*SIDE_LOOSENS)  # both loosenings
    (repo / GATE).write_text(merged)
    return fork


def test_f0542_a_merge_of_two_approved_gate_loosenings_is_approved_against_each_parent(adopted):
    fork = two_approved_gate_loosenings(adopted)
    before = len(lines(adopted))
    r = validate_staged(adopted)
    assert r.returncode == 1 and "gate-only-tightens" in r.stderr, r.stderr
    screen = approve(adopted, "gate-change")
    # One confirmation that shows what is approved against each parent: each parent's loosening beside its name.
    assert screen.count('type "approve"') == 1, screen
    main, side = head(adopted, "HEAD"), head(adopted, "MERGE_HEAD")
    assert main[:12] in screen and side[:12] in screen, screen
    assert "verification.unit_test" not in screen and "findings.major_allowed" in screen, screen
    assert "verification.build" in screen, screen
    added = [json.loads(line) for line in lines(adopted)[before:]]
    assert len(added) == 2, added
    bound_from = {record["from_digest"] for record in added}
    parents = {hashlib.sha256(git(adopted, "show", f"{rev}:{GATE}").stdout.encode()).hexdigest() for rev in (main, side)}
    assert bound_from == parents and {record["repository"] for record in added} == {repository_id(adopted)}
    commit(adopted, "merge side")
    r = cli(adopted, "audit", "--from", fork)  # the push guard's and the server's check of the merge commit
    assert r.returncode == 0, r.stderr


def test_f0542_a_merge_of_two_approved_signer_additions_is_approved_against_each_parent(adopted, keys):
    fork = head(adopted)
    listed = (adopted / SIGNERS).read_text()
    git(adopted, "checkout", "-qb", "side")
    (adopted / SIGNERS).write_text(listed + signers_line("side@example.com", keys["other"][1]))
    approve(adopted, "signers-change")
    commit(adopted, "side: lists side@ (approved)")
    git(adopted, "checkout", "-q", "main")
    (adopted / SIGNERS).write_text(listed + signers_line("main@example.com", keys["other"][1]))
    approve(adopted, "signers-change")
    commit(adopted, "main: lists main@ (approved)")
    merge_side(adopted)
    (adopted / SIGNERS).write_text(listed + signers_line("main@example.com", keys["other"][1])
                                   + signers_line("side@example.com", keys["other"][1]))
    before = len(lines(adopted))
    screen = approve(adopted, "signers-change")
    assert "adds signer side@example.com" in screen and "adds signer main@example.com" in screen, screen
    assert len(lines(adopted)) == before + 2
    commit(adopted, "merge side")
    assert cli(adopted, "audit", "--from", fork).returncode == 0


def test_f0542_a_merge_of_two_approved_command_changes_is_approved_against_each_parent(adopted):
    def configure(name: str) -> None:
        config = (adopted / CONFIG).read_text()
        (adopted / CONFIG).write_text(config.replace("evidence: {}", f"evidence:\n  {name}:\n    command: ['true']"))

    git(adopted, "checkout", "-qb", "side")
    configure("lint")
    approve(adopted, "config-change")
    commit(adopted, "side: lint is `true` (approved)")
    git(adopted, "checkout", "-q", "main")
    configure("build")
    approve(adopted, "config-change")
    commit(adopted, "main: build is `true` (approved)")
    merge_side(adopted)
    config = git(adopted, "show", f"main:{CONFIG}").stdout
    (adopted / CONFIG).write_text(config.replace("evidence:\n", "evidence:\n  lint:\n    command: ['true']\n"))
    r = validate_staged(adopted)
    assert r.returncode == 1 and "evidence-commands-need-approval" in r.stderr, r.stderr
    before = len(lines(adopted))
    screen = approve(adopted, "config-change")
    assert "evidence.lint.command" in screen and "evidence.build.command" in screen, screen
    assert len(lines(adopted)) == before + 2
    commit(adopted, "merge side")


def test_f0542_only_the_parents_a_merge_changes_get_an_approval(adopted):
    # The merge takes main's loosened gate.yaml as it is: only the side's file differs, one line is written.
    two_approved_gate_loosenings(adopted)
    edit(adopted, GATE, (SIDE_LOOSENS[1], SIDE_LOOSENS[0]))  # main's file, unchanged
    before = len(lines(adopted))
    approve(adopted, "gate-change")
    added = [json.loads(line) for line in lines(adopted)[before:]]
    side = git(adopted, "show", f"MERGE_HEAD:{GATE}").stdout.encode()
    assert [record["from_digest"] for record in added] == [hashlib.sha256(side).hexdigest()], added
    commit(adopted, "merge side, main's gate kept")


def test_f0542_each_line_a_merge_approval_writes_is_checked_like_any_other(adopted):
    two_approved_gate_loosenings(adopted)
    before = lines(adopted)
    approve(adopted, "gate-change")
    ours, theirs = lines(adopted)[len(before):]
    (adopted / APPROVALS).write_text("".join(line + "\n" for line in [*before, ours]))  # the side's line left out
    r = validate_staged(adopted)
    assert r.returncode == 1 and "gate-only-tightens" in r.stderr and "findings.major_allowed" not in r.stderr, r.stderr
    forged = json.loads(theirs) | {"changes": ["nothing at all"]}  # edited after signing: it counts as none
    (adopted / APPROVALS).write_text("".join(line + "\n" for line in [*before, ours, json.dumps(forged)]))
    r = validate_staged(adopted)
    assert r.returncode == 1 and "gate-only-tightens" in r.stderr and "does not verify" in r.stderr, r.stderr


def test_f0542_the_refusal_of_a_merge_says_approving_during_it_covers_every_parent(adopted):
    two_approved_gate_loosenings(adopted)
    r = validate_staged(adopted)
    assert r.returncode == 1 and "gate-only-tightens" in r.stderr, r.stderr
    assert "during the merge" in r.stderr and "every parent" in r.stderr, r.stderr


def test_f0542_an_approval_outside_a_merge_still_writes_exactly_one_line(adopted):
    # The honest case a careless fix would change: no merge in progress, one approval bound to HEAD's file.
    before = lines(adopted)
    committed = (adopted / GATE).read_bytes()
    edit(adopted, GATE, SIDE_LOOSENS)
    screen = approve(adopted, "gate-change")
    assert "findings.major_allowed" in screen, screen
    added = lines(adopted)[len(before):]
    assert len(added) == 1 and json.loads(added[0])["from_digest"] == hashlib.sha256(committed).hexdigest()
    commit(adopted, "loosen, approved")
