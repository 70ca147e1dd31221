"""A task that gained events on two branches cannot be merged: its ledger is one chain of events, each naming the
hash of the one before, so two chains are never joined line by line, and a merge commit's ledger must extend each
parent's. What the harness says then names a way out that works when followed as written (read 105's F-0371): the
conflicted ledger and the merge commit are recognised as such, never answered with a `git checkout` git refuses for
an unmerged path or that sends the next commit to the other parent's ledger. A merge where only one side advanced
the task is no such case, and is accepted as before."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from support.cli import cli, validate_staged
from support.gitrepo import commit_all_ok, git, head

SIDE_REQUIREMENT = "The side branch's requirement"


def ledger_of(repo: Path, tid: str) -> str:
    return f".harness/tasks/{tid}/events.jsonl"


def restore(rev: str, tid: str) -> str:
    """Taking one side's record of a task whole: its ledger alone would keep the other side's statements (free-form
    text is read from the YAML files) and evidence files."""
    return f"git restore --source={rev} --staged --worktree -- .harness/tasks/{tid}"


def named(text: str) -> list[str]:
    """The commands a message puts in backticks, in order, each once."""
    found = re.findall(r"`((?:git|harness) [^`]*)`", text)
    return list(dict.fromkeys(found))


def branch(repo: Path) -> str:
    return git(repo, "branch", "--show-current").stdout.strip()


def diverge(h, repo: Path) -> str:
    """The task committed, then a requirement added to it on branch `side` and another on the first branch, and
    `git merge side` stopped in conflict. Returns the side branch's commit."""
    main = branch(repo)
    commit_all_ok(repo, "the task")
    git(repo, "checkout", "-qb", "side")
    h.ok("requirement", "add", SIDE_REQUIREMENT, "--priority", "must")
    (repo / "side.py").write_text("SIDE = 1\n")
    side = commit_all_ok(repo, "the side branch's work")
    git(repo, "checkout", "-q", main)
    h.ok("requirement", "add", "The first branch's requirement", "--priority", "must")
    commit_all_ok(repo, "the first branch's work")
    assert git(repo, "merge", "-q", "side", "-m", "merge side", check=False).returncode != 0
    return side


def run(h, repo: Path, command: str) -> None:
    """Run a command a message named, as written."""
    argv = shlex.split(command)
    if argv[0] == "git":
        git(repo, *argv[1:])
    else:
        h.ok(*argv[1:])


def statements(repo: Path, tid: str) -> list[str]:
    text = (repo / f".harness/tasks/{tid}/requirements.yaml").read_text()
    return re.findall(r"statement: (.+)", text)


# -- the ledger left in conflict ---------------------------------------------------------------------------------

def test_a_ledger_left_in_conflict_is_named_so_with_ways_out_git_accepts(h, repo, task):
    diverge(h, repo)
    ledger = ledger_of(repo, task)
    r = h("status")
    assert r.code == 2 and "conflict" in r.err and task in r.err, r.err
    commands = named(r.err)
    assert f"git checkout -- {ledger}" not in commands  # git refuses it: "path ... is unmerged"
    assert commands == ["git merge --abort", restore("HEAD", task), "git merge --quit"], r.err
    run(h, repo, "git merge --abort")
    assert h("status").code == 0


def test_keeping_one_sides_record_and_recording_the_others_events_again_is_committed(h, repo, task):
    diverge(h, repo)
    first = head(repo)
    for command in named(h("status").err)[1:]:  # all but abandoning the merge, in the order named
        run(h, repo, command)
    h.ok("requirement", "add", SIDE_REQUIREMENT, "--priority", "must")  # the other side's events, again
    r = validate_staged(repo)
    assert r.returncode == 0, r.stderr
    commit_all_ok(repo, "the side branch's work, its task's events recorded again")
    assert git(repo, "rev-parse", "HEAD^@").stdout.split() == [first]  # an ordinary commit: no merge
    assert (repo / "side.py").exists()
    assert statements(repo, task) == ["The first branch's requirement", SIDE_REQUIREMENT]


def test_a_ledger_resolved_by_hand_keeping_both_sides_lines_is_named_as_in_conflict(h, repo, task):
    diverge(h, repo)
    ledger = repo / ledger_of(repo, task)
    # The usual answer to a conflict in an append-only file: keep both sides' lines. The chain breaks.
    kept = [line for line in ledger.read_text().splitlines(keepends=True) if not re.match(r"[<=>|]{7}", line)]
    ledger.write_text("".join(kept))
    r = h("status")
    assert r.code == 2 and "conflict" in r.err, r.err
    assert "git merge --abort" in named(r.err) and f"git checkout -- {ledger_of(repo, task)}" not in named(r.err)


def test_a_task_file_left_in_conflict_names_the_command_that_renders_it_again(h, repo, task):
    diverge(h, repo)
    git(repo, "checkout", "--ours", "--", ledger_of(repo, task))
    r = h("status")  # requirements.yaml still holds git's markers
    assert r.code == 2 and "requirements.yaml" in r.err, r.err
    assert "harness replay --write" in named(r.err), r.err
    h.ok("replay", "--write")
    assert h("status").code == 0


# -- the merge commit ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("side", ["--ours", "--theirs"])
def test_a_merge_of_a_task_advanced_on_both_sides_is_refused_as_such(h, repo, task, side):
    other = diverge(h, repo)
    ledger = ledger_of(repo, task)
    git(repo, "checkout", side, "--", ledger)
    h.ok("replay", "--write")
    r = validate_staged(repo)
    assert r.returncode == 1 and f"task {task} advanced on both sides of the merge" in r.stderr, r.stderr
    assert "[ledger-diverged]" in r.stderr and "ledger-append-only" not in r.stderr, r.stderr
    commands = named(r.stderr)
    # Not the other parent's ledger: the commit after that is sent back to this one's (the loop).
    assert not any(c.startswith("git checkout ") and other[:12] in c for c in commands), r.stderr
    assert commands == ["git merge --abort", "git merge --quit", restore("HEAD", task)], r.stderr


def test_the_way_out_the_merge_refusal_names_is_accepted(h, repo, task):
    diverge(h, repo)
    git(repo, "checkout", "--theirs", "--", ledger_of(repo, task))
    h.ok("replay", "--write")
    for command in named(validate_staged(repo).stderr)[1:]:  # all but abandoning the merge
        run(h, repo, command)
    h.ok("requirement", "add", SIDE_REQUIREMENT, "--priority", "must")
    r = validate_staged(repo)
    assert r.returncode == 0, r.stderr
    assert statements(repo, task) == ["The first branch's requirement", SIDE_REQUIREMENT]


def test_abandoning_the_merge_as_the_refusal_names_it_leaves_both_branches_as_they_were(h, repo, task):
    other = diverge(h, repo)
    first = head(repo)
    git(repo, "checkout", "--ours", "--", ledger_of(repo, task))
    h.ok("replay", "--write")
    run(h, repo, named(validate_staged(repo).stderr)[0])
    assert head(repo) == first and head(repo, "side") == other and h("status").code == 0


# -- still accepted: a merge where one side's ledger extends the other's ------------------------------------------

def test_a_merge_where_one_side_did_not_touch_the_task_is_accepted(h, repo, task):
    main = branch(repo)
    base = commit_all_ok(repo, "the task")
    git(repo, "checkout", "-qb", "side")
    (repo / "side.py").write_text("SIDE = 1\n")
    commit_all_ok(repo, "code only")
    git(repo, "checkout", "-q", main)
    h.ok("requirement", "add", "The first branch's requirement", "--priority", "must")
    commit_all_ok(repo, "the first branch's work")
    git(repo, "merge", "-q", "--no-commit", "side")
    r = validate_staged(repo)
    assert r.returncode == 0, r.stderr
    commit_all_ok(repo, "merge side")
    assert cli(repo, "audit", "--from", base).returncode == 0


def test_a_merge_bringing_a_ledger_that_extends_this_branchs_is_accepted(h, repo, task):
    main = branch(repo)
    base = commit_all_ok(repo, "the task")
    h.ok("requirement", "add", "The first branch's requirement", "--priority", "must")
    commit_all_ok(repo, "the first branch's work")
    git(repo, "checkout", "-qb", "side")  # the task advances on the side branch, after this branch's events
    h.ok("requirement", "add", SIDE_REQUIREMENT, "--priority", "must")
    commit_all_ok(repo, "the side branch's work")
    git(repo, "checkout", "-q", main)
    (repo / "main.py").write_text("MAIN = 1\n")
    commit_all_ok(repo, "code only")
    git(repo, "merge", "-q", "--no-commit", "side")
    r = validate_staged(repo)
    assert r.returncode == 0, r.stderr
    commit_all_ok(repo, "merge side")
    assert cli(repo, "audit", "--from", base).returncode == 0
    assert statements(repo, task) == ["The first branch's requirement", SIDE_REQUIREMENT]


def test_a_merge_that_drops_a_line_both_parents_hold_is_still_an_append_only_refusal(h, repo, task):
    main = branch(repo)
    commit_all_ok(repo, "the task")
    git(repo, "checkout", "-qb", "side")
    (repo / "side.py").write_text("SIDE = 1\n")
    commit_all_ok(repo, "code only")
    git(repo, "checkout", "-q", main)
    h.ok("requirement", "add", "The first branch's requirement", "--priority", "must")
    commit_all_ok(repo, "the first branch's work")
    git(repo, "merge", "-q", "--no-commit", "side")
    ledger = repo / ledger_of(repo, task)
    ledger.write_text("".join(ledger.read_text().splitlines(keepends=True)[:-1]))
    r = validate_staged(repo)
    assert r.returncode == 1 and "[ledger-append-only]" in r.stderr, r.stderr
    assert "advanced on both sides" not in r.stderr
