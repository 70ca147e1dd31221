"""`harness metrics` reads DONE claims and "after the DONE" from history itself (read 111).

- A commit that marks a task DONE is a DONE claim whatever else it breaks: one that also rewrites the task's
  committed ledger (forks it in a merge, or leaves it unreadable) got no verdict from the change rules and was no claim at all, so
  its bypass was invisible (F-0385).
- A commit marks a task DONE only where no parent already marked it so, by ledger or by task.yaml: a DONE typed
  into task.yaml was counted again by every later commit touching the task, the merge among them (F-0386).
- Only an event first carried by the DONE's own commit or a descendant of it comes after the DONE: a finding
  confirmed on a branch forked before the DONE counted against it or not by the order of the merge's parents
  (F-0387).
"""

from __future__ import annotations

import json

import pytest
import yaml

from support.cli import TO_VERIFYING, walk_to
from support.flows import collect_passing_evidence, finding, gate_to_converged, new_task
from support.gitrepo import commit_all_ok, commit_ok, git, head
from support.records import append_event, ledger_path, rechain, set_state_by_hand


def metrics(h, base: str) -> dict:
    return json.loads(h.ok("metrics", "--from", base, "--json").out)


def pair(rate: dict) -> tuple[int, int]:
    return rate["numerator"], rate["denominator"]


def by_hand(repo, msg: str) -> str:
    git(repo, "add", "-A")
    return commit_ok(repo, msg, "--no-verify")


def walked_to_done(h, repo, title: str = "Change the answer", commit_first: bool = False) -> str:
    """A task walked honestly to DONE on a change to app.py (nothing committed after IMPLEMENTING, and that
    only with ``commit_first``). Its id."""
    tid = new_task(h, title)
    walk_to(h, *TO_VERIFYING[:-1])
    if commit_first:
        commit_all_ok(repo, f"{title}: at IMPLEMENTING")
    (repo / "app.py").write_text("def answer():\n    return 43\n")
    walk_to(h, TO_VERIFYING[-1])
    collect_passing_evidence(h)
    gate_to_converged(h)
    h.ok("transition", "DONE")
    return tid


def confirmed_on_app_py(h, repo, tmp_path, title: str = "Review the answer") -> str:
    """Another task whose reviewer confirms a finding located in app.py; committed. The commit."""
    new_task(h, title)
    walk_to(h, *TO_VERIFYING, "REVIEWING")
    proposal = tmp_path / f"findings-{title.replace(' ', '-')}.yaml"
    proposal.write_text(yaml.safe_dump({"findings": [
        finding("answer is wrong", "answer() is wrong", "import sys; sys.exit(1)")]}))
    h.ok("finding", "propose", "--file", str(proposal))
    h.ok("finding", "reproduce", "F-0001")
    return commit_all_ok(repo, title)


# F-0385: a DONE commit that also rewrites (or breaks) the ledger is a claim without a PASS.

def test_a_done_commit_that_rewrites_an_earlier_ledger_line_is_a_bypass(h, repo, tmp_path):
    base = commit_all_ok(repo, "harness init")
    tid = walked_to_done(h, repo, commit_first=True)
    (repo / "app.py").write_text("def answer():\n    return 44  # never gated\n")
    rechain(ledger_path(repo, tid), lambda evs: evs[1]["data"].update(statement="reworded"))
    h.ok("replay", "--write")
    done = by_hand(repo, "done, and an earlier ledger line rewritten")
    confirmed_on_app_py(h, repo, tmp_path)
    doc = metrics(h, base)
    assert pair(doc["convergence"]) == (1, 1), doc["convergence"]
    assert pair(doc["gate_bypass"]) == (1, 1), doc["gate_bypass"]
    assert doc["gate_bypass"]["ids"] == [f"{done[:12]} {tid}"]
    # Its changed files are known as any DONE claim's: the later finding on app.py contradicts it.
    assert pair(doc["false_done"]) == (1, 1), doc["false_done"]


def test_a_done_commit_that_leaves_the_ledger_unreadable_is_a_bypass_and_its_repair_no_second_claim(h, repo):
    base = commit_all_ok(repo, "harness init")
    tid = walked_to_done(h, repo, commit_first=True)
    path = ledger_path(repo, tid)
    good = path.read_bytes()
    path.write_bytes(good + b"{not json\n")
    done = by_hand(repo, "done, the ledger broken")
    path.write_bytes(good)  # the repair rewrites the committed (broken) ledger: the task was DONE already
    by_hand(repo, "ledger repaired")
    doc = metrics(h, base)
    assert pair(doc["gate_bypass"]) == (1, 1), doc["gate_bypass"]
    assert doc["gate_bypass"]["ids"] == [f"{done[:12]} {tid}"]
    assert pair(doc["convergence"]) == (1, 1), doc["convergence"]


def test_a_merge_of_a_ledger_advanced_on_both_sides_that_marks_done_is_a_bypass(h, repo):
    """The merge's ledger extends one side's only (ledger-diverged: no verdict), and its task.yaml says DONE."""
    base = commit_all_ok(repo, "harness init")
    main = git(repo, "rev-parse", "--abbrev-ref", "HEAD").stdout.strip()
    tid = at_implementing(h, repo)
    git(repo, "checkout", "-q", "-b", "side")
    append_event(repo, tid, "requirement.added", {"id": "REQ-008", "priority": "must", "source": "user",
                                                  "statement": "side's reading"})
    by_hand(repo, "side advances the task")
    git(repo, "checkout", "-q", main)
    append_event(repo, tid, "requirement.added", {"id": "REQ-009", "priority": "must", "source": "user",
                                                  "statement": "main's reading"})
    by_hand(repo, "main advances the task")
    git(repo, "merge", "-q", "-s", "ours", "--no-commit", "side")
    set_state_by_hand(repo, tid, "DONE")
    merge = by_hand(repo, "merge side, the task marked DONE")
    bypass = metrics(h, base)["gate_bypass"]
    assert pair(bypass) == (1, 1), bypass
    assert bypass["ids"] == [f"{merge[:12]} {tid}"]


def test_a_ledger_rewrite_that_marks_nothing_done_is_no_claim(h, repo):
    """The neighbour: rewriting the ledger of a task that is not DONE (nor becomes it) claims nothing, and
    rewriting the ledger of a task DONE before adds no second claim to its honest one."""
    base = commit_all_ok(repo, "harness init")
    open_task = new_task(h, "Still open")
    walk_to(h, "SPECIFYING", "PLANNED", "IMPLEMENTING")
    commit_all_ok(repo, "a task at IMPLEMENTING")
    rechain(ledger_path(repo, open_task), lambda evs: evs[1]["data"].update(statement="reworded"))
    h.ok("replay", "--write", "--task", open_task)
    by_hand(repo, "its ledger rewritten")
    assert pair(metrics(h, base)["gate_bypass"]) == (0, 0)
    finished = walked_to_done(h, repo, "Finished honestly")
    commit_all_ok(repo, "DONE, gated")
    rechain(ledger_path(repo, finished), lambda evs: evs[1]["data"].update(statement="reworded"))
    h.ok("replay", "--write", "--task", finished)
    by_hand(repo, "the DONE task's ledger rewritten")
    doc = metrics(h, base)
    assert pair(doc["gate_bypass"]) == (0, 1), doc["gate_bypass"]
    assert pair(doc["convergence"]) == (1, 1), doc["convergence"]


# F-0386: a DONE typed into task.yaml is one claim, however many later commits carry it.

def at_implementing(h, repo) -> str:
    """A task at IMPLEMENTING, committed. Its id."""
    tid = h.ok("task", "new", "Shortcut").out.strip()
    walk_to(h, "SPECIFYING", "PLANNED", "IMPLEMENTING")
    commit_all_ok(repo, "a task at IMPLEMENTING")
    return tid


def hand_done(repo, tid: str) -> str:
    """DONE typed into the task's task.yaml, committed with --no-verify. The commit."""
    set_state_by_hand(repo, tid, "DONE")
    return by_hand(repo, "claim done")


def test_a_hand_typed_done_merged_into_main_is_one_claim(h, repo):
    base = commit_all_ok(repo, "harness init")
    main = git(repo, "rev-parse", "--abbrev-ref", "HEAD").stdout.strip()
    tid = at_implementing(h, repo)
    git(repo, "checkout", "-q", "-b", "feature")
    done = hand_done(repo, tid)
    git(repo, "checkout", "-q", main)
    (repo / "notes.txt").write_text("main moves on\n")
    commit_all_ok(repo, "main moves on")
    git(repo, "merge", "-q", "--no-ff", "--no-verify", "-m", "merge feature", "feature")
    bypass = metrics(h, base)["gate_bypass"]
    assert pair(bypass) == (1, 1), bypass
    assert bypass["ids"] == [f"{done[:12]} {tid}"]


def test_a_later_commit_touching_a_hand_done_task_adds_no_claim(h, repo):
    base = commit_all_ok(repo, "harness init")
    tid = at_implementing(h, repo)
    done = hand_done(repo, tid)
    append_event(repo, tid, "requirement.added", {"id": "REQ-009", "priority": "must", "source": "user",
                                                  "statement": "one more"})
    by_hand(repo, "the task's ledger grows, task.yaml still says DONE")
    bypass = metrics(h, base)["gate_bypass"]
    assert pair(bypass) == (1, 1), bypass
    assert bypass["ids"] == [f"{done[:12]} {tid}"]


def test_a_hand_done_taken_back_and_typed_again_is_two_claims(h, repo):
    """The neighbour: a DONE typed in, put back to the ledger's state, then typed in again is marked DONE twice."""
    base = commit_all_ok(repo, "harness init")
    tid = at_implementing(h, repo)
    first = hand_done(repo, tid)
    set_state_by_hand(repo, tid, "IMPLEMENTING")
    by_hand(repo, "taken back")
    set_state_by_hand(repo, tid, "DONE")
    second = by_hand(repo, "claimed again")
    bypass = metrics(h, base)["gate_bypass"]
    assert pair(bypass) == (2, 2), bypass
    assert bypass["ids"] == [f"{first[:12]} {tid}", f"{second[:12]} {tid}"]


# F-0387: "after the DONE" is by descent from the DONE's commit, whichever way branches were merged.

def done_beside_a_feature(h, repo, tmp_path, fork_after_done: bool) -> tuple[str, str]:
    """main: a task DONE (gated) on a change to app.py; feature: a review confirming a finding in app.py, forked
    before the DONE (or after it). Nothing merged yet. (base, main's branch name)."""
    base = commit_all_ok(repo, "harness init")
    main = git(repo, "rev-parse", "--abbrev-ref", "HEAD").stdout.strip()
    if not fork_after_done:
        git(repo, "checkout", "-q", "-b", "feature")
        confirmed_on_app_py(h, repo, tmp_path)
        git(repo, "checkout", "-q", main)
    walked_to_done(h, repo)
    commit_all_ok(repo, "DONE, gated")
    git(repo, "tag", "xdone")
    if fork_after_done:
        git(repo, "checkout", "-q", "-b", "feature")
        confirmed_on_app_py(h, repo, tmp_path)
        git(repo, "checkout", "-q", main)
        (repo / "notes.txt").write_text("main moves on\n")
        commit_all_ok(repo, "main moves on")
    return base, main


def merged(repo, main: str, direction: str) -> None:
    if direction == "main merges feature":
        git(repo, "merge", "-q", "--no-ff", "--no-verify", "-m", "merge feature", "feature")
        return
    git(repo, "checkout", "-q", "feature")
    git(repo, "merge", "-q", "--no-ff", "--no-verify", "-m", "merge main", main)
    git(repo, "checkout", "-q", main)
    git(repo, "merge", "-q", "--ff-only", "feature")


@pytest.mark.parametrize("direction", ["main merges feature", "feature merges main"])
def test_a_finding_confirmed_on_a_branch_forked_before_the_done_never_contradicts_it(h, repo, tmp_path, direction):
    base, main = done_beside_a_feature(h, repo, tmp_path, fork_after_done=False)
    merged(repo, main, direction)
    assert head(repo) == head(repo, main)
    doc = metrics(h, base)
    assert pair(doc["false_done"]) == (0, 1), doc["false_done"]
    assert pair(doc["finding_confirmation"]) == (1, 1), doc["finding_confirmation"]


@pytest.mark.parametrize("direction", ["main merges feature", "feature merges main"])
def test_a_finding_confirmed_on_a_branch_forked_after_the_done_contradicts_it(h, repo, tmp_path, direction):
    """The neighbour: a branch that holds the DONE's work, merged either way, is after the DONE."""
    base, main = done_beside_a_feature(h, repo, tmp_path, fork_after_done=True)
    merged(repo, main, direction)
    doc = metrics(h, base)
    assert pair(doc["false_done"]) == (1, 1), doc["false_done"]
