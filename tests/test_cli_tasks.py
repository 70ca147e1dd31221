"""The task CLI end to end (in-process): tasks, transitions, requirements, replay, --task."""

from __future__ import annotations

import hashlib
import json
import re
import sys
from pathlib import Path

import pytest
import yaml

from support.cli import TO_VERIFYING, Harness, status_json, walk_to
from support.gitrepo import git
from support.records import events, ledger_path, tdir

STATES = ("CREATED", "SPECIFYING", "PLANNED", "IMPLEMENTING", "VERIFYING", "REVIEWING",
          "REPRODUCING", "FIXING", "GATING", "BLOCKED", "CONVERGED", "DONE", "ESCALATED")
TO_GATING = (*TO_VERIFYING, "REVIEWING", "GATING")
PASS_CMD = ("--", sys.executable, "-c", "pass")


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` with its bytes, except the untracked per-clone caches in local/."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and "local" not in p.relative_to(folder).parts[:1]}


def task_yaml(repo: Path, tid: str) -> dict:
    return yaml.safe_load((tdir(repo, tid) / "task.yaml").read_text("utf-8"))["task"]


def assert_no_traceback(r) -> None:
    assert "Traceback" not in r.text, r.text


# -- task new / list / switch -------------------------------------------------------------

def test_task_new_prints_an_id_and_makes_it_current(h, repo):
    r = h.ok("task", "new", "Add resumable execution")
    tid = r.out.strip()
    assert re.fullmatch(r"TASK-\d{8}-[0-9a-f]{6}", tid), r.out
    folder = tdir(repo, tid)
    for name in ("task.yaml", "requirements.yaml", "invariants.yaml", "events.jsonl"):
        assert (folder / name).is_file(), name
    for sub in ("findings", "evidence"):
        assert (folder / sub).is_dir(), sub
    assert status_json(h)["task"]["id"] == tid
    doc = task_yaml(repo, tid)
    assert (doc["id"], doc["title"], doc["state"], doc["iteration"]) == (tid, "Add resumable execution", "CREATED", 0)
    (first,) = events(repo, tid)
    assert first["type"] == "task.created" and first["data"]["id"] == tid
    assert first["data"]["base_commit"] == git(repo, "rev-parse", "HEAD").stdout.strip()


def test_a_second_task_new_becomes_current_and_switch_changes_it_back(h, task):
    second = h.ok("task", "new", "Second").out.strip()
    assert second != task
    assert status_json(h)["task"]["id"] == second
    listing = h.ok("task", "list").out
    assert re.search(rf"^\* {second}\s+CREATED\s+Second$", listing, re.M), listing
    assert re.search(rf"^  {task}\s+CREATED", listing, re.M), listing
    h.ok("task", "switch", task)
    assert status_json(h)["task"]["id"] == task
    rows = json.loads(h.ok("task", "list", "--json").out)
    assert {r["id"]: r["current"] for r in rows} == {task: True, second: False}


def test_task_switch_to_an_unknown_id_is_refused(h, task):
    r = h("task", "switch", "TASK-20000101-000000")
    assert r.code == 2 and "TASK-20000101-000000" in r.text and task in r.text
    assert_no_traceback(r)
    assert status_json(h)["task"]["id"] == task


def test_task_switch_choice_is_not_tracked_by_git(h, repo, task):
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "harness task")
    other = h.ok("task", "new", "Other").out.strip()
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "other task")
    assert git(repo, "status", "--porcelain").stdout == ""
    h.ok("task", "switch", task)
    porcelain = git(repo, "status", "--porcelain", "--untracked-files=all").stdout
    assert porcelain == "", porcelain
    assert ".harness/local" not in git(repo, "ls-files").stdout
    assert status_json(h)["task"]["id"] == task
    h.ok("task", "switch", other)
    assert git(repo, "status", "--porcelain", "--untracked-files=all").stdout == ""


def test_tasks_made_on_two_branches_from_one_base_do_not_collide_and_merge(h, repo):
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "harness init")
    git(repo, "checkout", "-qb", "feature-a")
    a = h.ok("task", "new", "On branch A").out.strip()
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "task a")
    git(repo, "checkout", "-q", "main")
    git(repo, "checkout", "-qb", "feature-b")
    b = h.ok("task", "new", "On branch B").out.strip()
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "task b")
    assert a != b
    git(repo, "checkout", "-q", "main")
    git(repo, "merge", "-q", "--no-edit", "feature-a")
    git(repo, "merge", "-q", "--no-edit", "feature-b")
    assert (tdir(repo, a) / "events.jsonl").is_file() and (tdir(repo, b) / "events.jsonl").is_file()
    ids = {r["id"] for r in json.loads(h.ok("task", "list", "--json").out)}
    assert ids == {a, b}
    h.ok("replay", "--all")


def test_max_iterations_above_the_gate_ceiling_is_refused(h, repo):
    r = h("task", "new", "Too many loops", "--max-iterations", "6")  # gate.yaml ceiling is 5
    assert r.code == 1, r.text
    assert "6" in r.text and "max_iterations" in r.text
    assert_no_traceback(r)
    assert list((repo / ".harness" / "tasks").iterdir()) == []
    tid = h.ok("task", "new", "At the ceiling", "--max-iterations", "5").out.strip()
    assert task_yaml(repo, tid)["max_iterations"] == 5
    tid = h.ok("task", "new", "Below it", "--max-iterations", "2").out.strip()
    assert task_yaml(repo, tid)["max_iterations"] == 2


def test_max_iterations_defaults_to_the_gate_ceiling(h, repo):
    gate = repo / ".harness" / "gate.yaml"
    gate.write_text(gate.read_text().replace("max_iterations: 5", "max_iterations: 3"))
    tid = h.ok("task", "new", "Default").out.strip()
    assert task_yaml(repo, tid)["max_iterations"] == 3
    assert h("task", "new", "Over", "--max-iterations", "4").code == 1


def test_task_new_with_an_empty_title_is_refused(h, repo):
    r = h("task", "new", "   ")
    assert r.code == 1 and "title" in r.text
    assert list((repo / ".harness" / "tasks").iterdir()) == []


# -- init ---------------------------------------------------------------------------------

def test_init_is_idempotent_and_keeps_existing_files(h, repo):
    config = repo / ".harness" / "config.yaml"
    config.write_text(config.read_text() + "# my edit\n")
    before = snapshot(repo / ".harness")
    r = h.ok("init")
    assert "already initialized" in r.out
    assert snapshot(repo / ".harness") == before


def test_init_writes_the_templates(h, repo):
    root = Path(__file__).resolve().parents[1]
    for name in ("config.yaml", "gate.yaml"):
        assert (repo / ".harness" / name).read_bytes() == (root / "templates" / name).read_bytes()
    assert "local" in (repo / ".harness" / ".gitignore").read_text()


def test_init_from_a_subdirectory_sets_up_the_work_tree_root(repo, capfd):
    sub = repo / "src" / "pkg"
    sub.mkdir(parents=True)
    r = Harness(repo, capfd)("init", cwd=sub)
    assert r.code == 0, r.text
    assert (repo / ".harness" / "gate.yaml").is_file() and not (sub / ".harness").exists()


def test_init_outside_a_git_work_tree_is_refused(tmp_path, capfd):
    outside = tmp_path / "plain"
    outside.mkdir()
    r = Harness(outside, capfd)("init")
    assert r.code == 2
    assert "git" in r.err and "Traceback" not in r.text
    assert not (outside / ".harness").exists()


# -- transitions --------------------------------------------------------------------------

def test_illegal_transition_from_implementing_to_done_exits_1_and_writes_nothing(h, repo, task):
    walk_to(h, "SPECIFYING", "PLANNED", "IMPLEMENTING")
    ledger_before = ledger_path(repo, task).read_bytes()
    yaml_before = (tdir(repo, task) / "task.yaml").read_bytes()
    all_before = snapshot(repo / ".harness")
    r = h("transition", "DONE")
    assert r.code == 1, r.text
    assert "INVALID TRANSITION: IMPLEMENTING → DONE" in r.text
    assert_no_traceback(r)
    assert ledger_path(repo, task).read_bytes() == ledger_before
    assert (tdir(repo, task) / "task.yaml").read_bytes() == yaml_before
    assert snapshot(repo / ".harness") == all_before


@pytest.mark.parametrize("target", [s for s in STATES if s != "SPECIFYING"])
def test_every_illegal_target_from_created_is_refused_without_writing(h, repo, task, target):
    before = snapshot(tdir(repo, task))
    r = h("transition", target)
    assert r.code == 1, r.text
    assert f"INVALID TRANSITION: CREATED → {target}" in r.text
    assert snapshot(tdir(repo, task)) == before


def test_legal_walk_records_each_transition_in_the_ledger(h, repo, task):
    path = ("SPECIFYING", "PLANNED", "IMPLEMENTING", "VERIFYING", "IMPLEMENTING", "VERIFYING", "REVIEWING", "GATING")
    previous = "CREATED"
    for target in path:
        r = h.ok("transition", target)
        assert f"{previous} → {target}" in r.out
        assert task_yaml(repo, task)["state"] == target
        previous = target
    moves = [(e["data"]["from"], e["data"]["to"]) for e in events(repo, task) if e["type"] == "task.transitioned"]
    assert moves == list(zip(("CREATED", *path[:-1]), path))
    assert status_json(h)["state"] == "GATING" and status_json(h)["iteration"] == 0
    h.ok("replay")


def test_transition_target_is_case_insensitive(h, repo, task):
    h.ok("transition", "specifying")
    assert task_yaml(repo, task)["state"] == "SPECIFYING"


def test_gating_to_blocked_counts_iterations_and_max_iterations_forces_escalation(h, repo):
    tid = h.ok("task", "new", "Loops", "--max-iterations", "2").out.strip()
    walk_to(h, *TO_GATING)
    gate = h("gate")
    assert gate.code == 1, gate.text  # no evidence: BLOCKED
    assert events(repo, tid)[-1]["type"] == "gate.evaluated"
    assert events(repo, tid)[-1]["data"]["verdict"] == "BLOCKED"
    r = h.ok("transition", "BLOCKED")
    assert "iteration 1/2" in r.out
    assert status_json(h)["iteration"] == 1 and task_yaml(repo, tid)["iteration"] == 1
    # below the ceiling BLOCKED may loop back
    walk_to(h, "IMPLEMENTING", "VERIFYING", "REVIEWING", "GATING")
    h.ok("transition", "BLOCKED")  # legal from GATING without a gate evaluation
    assert status_json(h)["iteration"] == 2
    before = snapshot(tdir(repo, tid))
    for target in ("IMPLEMENTING", "REPRODUCING"):
        r = h("transition", target)
        assert r.code == 1, r.text
        assert f"INVALID TRANSITION: BLOCKED → {target}" in r.text and "max_iterations" in r.text
    assert snapshot(tdir(repo, tid)) == before


def test_escalated_needs_a_reason_code_and_then_nothing_leaves_it(h, repo, task):
    walk_to(h, *TO_GATING, "BLOCKED")
    before = snapshot(tdir(repo, task))
    for args in ((), ("--reason", "just stuck"), ("--reason", "NOT_A_CODE: detail"), ("--reason", "")):
        r = h("transition", "ESCALATED", *args)
        assert r.code == 1, (args, r.text)
        assert "INVALID TRANSITION: BLOCKED → ESCALATED" in r.text and "reason code" in r.text
    assert snapshot(tdir(repo, task)) == before
    h.ok("transition", "ESCALATED", "--reason", "SPEC_AMBIGUITY: two readings of REQ-001")
    last = events(repo, task)[-1]
    assert last["data"]["to"] == "ESCALATED"
    assert last["data"]["reason"] == "SPEC_AMBIGUITY: two readings of REQ-001"
    assert task_yaml(repo, task)["state"] == "ESCALATED"
    before = snapshot(tdir(repo, task))
    for target in STATES:
        r = h("transition", target, "--reason", "MAX_ITERATIONS: x")
        assert r.code == 1, r.text
        assert f"INVALID TRANSITION: ESCALATED → {target}" in r.text
    assert snapshot(tdir(repo, task)) == before
    h.ok("replay")


def test_escalation_reason_starting_with_a_colon_is_refused_not_a_crash(h, repo, task):
    walk_to(h, *TO_GATING, "BLOCKED")
    before = snapshot(tdir(repo, task))
    r = h("transition", "ESCALATED", "--reason", ": no code given")
    assert r.code == 1, r.text
    assert "INVALID TRANSITION: BLOCKED → ESCALATED" in r.text
    assert snapshot(tdir(repo, task)) == before


def test_gating_to_converged_is_refused_when_no_gate_pass_was_recorded(h, repo, task):
    walk_to(h, *TO_GATING)
    before = snapshot(tdir(repo, task))
    r = h("transition", "CONVERGED")
    assert r.code == 1, r.text
    assert "INVALID TRANSITION: GATING → CONVERGED" in r.text
    assert "no gate evaluation recorded" in r.text
    assert snapshot(tdir(repo, task)) == before
    assert h("gate").code == 1  # BLOCKED: no evidence
    r = h("transition", "CONVERGED")
    assert r.code == 1 and "the last gate evaluation was BLOCKED" in r.text


def test_gate_pass_allows_converged_and_done_only_for_the_same_source_tree(h, repo, task):
    walk_to(h, *TO_GATING)
    h.ok("evidence", "build", *PASS_CMD)
    h.ok("evidence", "unit_test", *PASS_CMD)
    r = h("gate")
    assert r.code == 0, r.text
    (repo / "app.py").write_text("def answer():\n    return 41\n")
    r = h("transition", "CONVERGED")
    assert r.code == 1 and "INVALID TRANSITION: GATING → CONVERGED" in r.text and "tree" in r.text
    (repo / "app.py").write_text("def answer():\n    return 42\n")  # the judged tree again
    h.ok("transition", "CONVERGED")
    (repo / "new_module.py").write_text("x = 1\n")
    r = h("transition", "DONE")
    assert r.code == 1 and "INVALID TRANSITION: CONVERGED → DONE" in r.text
    (repo / "new_module.py").unlink()
    h.ok("transition", "DONE")
    assert task_yaml(repo, task)["state"] == "DONE"
    before = snapshot(tdir(repo, task))
    for target in STATES:
        assert h("transition", target).code == 1
    assert snapshot(tdir(repo, task)) == before
    h.ok("replay")


# -- requirements and invariants ----------------------------------------------------------

def test_requirement_add_assigns_sequential_ids_and_records_events(h, repo, task):
    assert h.ok("requirement", "add", "Resume after a crash", "--priority", "must").out.strip() == "REQ-001"
    assert h.ok("requirement", "add", "Log progress", "--priority", "could", "--source", "spec").out.strip() == "REQ-002"
    reqs = yaml.safe_load((tdir(repo, task) / "requirements.yaml").read_text())["requirements"]
    assert [(r["id"], r["statement"], r["priority"], r["source"], r["status"]) for r in reqs] == [
        ("REQ-001", "Resume after a crash", "must", "user", "pending"),
        ("REQ-002", "Log progress", "could", "spec", "pending"),
    ]
    assert [e["type"] for e in events(repo, task)[1:]] == ["requirement.added"] * 2
    doc = status_json(h)
    assert doc["requirements"] == {"total": 2, "verified": 0, "uncovered": ["REQ-001"]}


def test_requirement_add_rejects_a_wrong_priority_as_usage_error(h, repo, task):
    before = snapshot(tdir(repo, task))
    r = h("requirement", "add", "x", "--priority", "urgent")
    assert r.code == 2 and "urgent" in r.text
    assert snapshot(tdir(repo, task)) == before


def test_requirement_set_verified_without_evidence_is_refused(h, repo, task):
    h.ok("requirement", "add", "Resume after a crash", "--priority", "must")
    before = snapshot(tdir(repo, task))
    r = h("requirement", "set", "REQ-001", "--status", "verified")
    assert r.code == 1, r.text
    assert "REQ-001" in r.text and "evidence" in r.text
    assert_no_traceback(r)
    r = h("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "unit_test")
    assert r.code == 1 and "unit_test" in r.text  # cites evidence never collected
    assert snapshot(tdir(repo, task)) == before


def test_requirement_set_with_passing_evidence_verifies(h, repo, task):
    h.ok("requirement", "add", "Resume after a crash", "--priority", "must")
    h.ok("requirement", "set", "REQ-001", "--status", "implemented")
    h.ok("evidence", "unit_test", *PASS_CMD)
    h.ok("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "unit_test")
    (req,) = yaml.safe_load((tdir(repo, task) / "requirements.yaml").read_text())["requirements"]
    assert (req["status"], req["evidence"]) == ("verified", ["unit_test"])
    assert status_json(h)["requirements"]["verified"] == 1
    h.ok("replay")


def test_requirement_set_on_an_unknown_id_is_refused(h, task):
    r = h("requirement", "set", "REQ-042", "--status", "implemented")
    assert r.code == 1 and "REQ-042" in r.text


def test_invariant_add_and_set(h, repo, task):
    assert h.ok("invariant", "add", "Never lose a ledger line", "--category", "recovery",
                "--severity", "critical").out.strip() == "INV-001"
    h.ok("invariant", "set", "INV-001", "--status", "violated")
    (inv,) = yaml.safe_load((tdir(repo, task) / "invariants.yaml").read_text())["invariants"]
    assert (inv["id"], inv["category"], inv["severity"], inv["status"]) == ("INV-001", "recovery", "critical", "violated")
    assert status_json(h)["invariants"] == {"total": 1, "verified": 0, "violated": ["INV-001"]}
    r = h("invariant", "set", "INV-001", "--status", "verified")
    assert r.code == 1 and "evidence" in r.text


def test_text_with_yaml_syntax_and_unicode_line_breaks_round_trips_exactly(h, repo):
    title = "Résumé: [not, a list] # not a comment \u2028 LS \x85 NEL \r CR 'q' \"dq\""
    statement = "- item: {x: 1} & *alias !tag \ttab \x0b\x0c end"
    tid = h.ok("task", "new", title).out.strip()
    h.ok("requirement", "add", "--priority", "must", "--", statement)
    h.ok("invariant", "add", "--category", "correctness", "--severity", "minor", "--", statement)
    assert task_yaml(repo, tid)["title"] == title
    (first, req, inv) = events(repo, tid)
    assert first["data"]["title"] == title and req["data"]["statement"] == statement
    reqs = yaml.safe_load((tdir(repo, tid) / "requirements.yaml").read_text("utf-8"))["requirements"]
    invs = yaml.safe_load((tdir(repo, tid) / "invariants.yaml").read_text("utf-8"))["invariants"]
    assert reqs[0]["statement"] == statement and invs[0]["statement"] == statement
    assert status_json(h)["task"]["title"] == title
    h.ok("replay")


# -- status -------------------------------------------------------------------------------

def test_status_json_has_the_documented_keys(h, task):
    doc = status_json(h)
    assert set(doc) >= {"task", "state", "iteration", "max_iterations", "spec", "requirements", "invariants",
                        "verification", "findings", "gate", "git", "timestamps"}
    assert doc["task"]["id"] == task and doc["task"]["title"] == "Add resumable execution"
    assert (doc["state"], doc["iteration"], doc["max_iterations"]) == ("CREATED", 0, 5)
    assert doc["timestamps"]["created_at"] and doc["timestamps"]["updated_at"]


def test_status_text_view_shows_the_task_at_a_glance(h, task):
    h.ok("requirement", "add", "Resume", "--priority", "must")
    walk_to(h, "SPECIFYING")
    out = h.ok("status").out
    assert out.splitlines()[0].startswith(f"{task}  Add resumable execution")
    for label, value in (("State", "SPECIFYING"), ("Iteration", "0 / 5"), ("Requirements", "0 / 1 verified"),
                         ("Invariants", "0 / 0 verified"), ("Evidence", ""), ("Findings", "critical 0"),
                         ("Gate", "")):
        assert re.search(rf"^{label}\s+.*{re.escape(value)}", out, re.M), (label, out)


def test_status_with_no_task_says_how_to_make_one(h):
    r = h("status")
    assert r.code == 0 and "Next:" in r.out and "harness task new" in r.out
    assert_no_traceback(r)


# -- replay -------------------------------------------------------------------------------

def test_replay_agrees_on_a_fresh_task(h, task):
    h.ok("requirement", "add", "Resume", "--priority", "must")
    walk_to(h, "SPECIFYING")
    r = h.ok("replay")
    assert task in r.out


def test_hand_edited_state_is_named_by_replay_and_replay_write_restores_it(h, repo, task):
    walk_to(h, "SPECIFYING", "PLANNED", "IMPLEMENTING")
    path = tdir(repo, task) / "task.yaml"
    good = path.read_bytes()
    path.write_text(path.read_text().replace("state: IMPLEMENTING", "state: DONE"))
    r = h("replay")
    assert r.code == 2, r.text
    assert f".harness/tasks/{task}/task.yaml" in r.text
    assert "task.state" in r.text and "IMPLEMENTING" in r.text and "DONE" in r.text
    assert "harness transition" in r.text
    h.ok("replay", "--write")
    assert task_yaml(repo, task)["state"] == "IMPLEMENTING"
    assert path.read_bytes() == good
    h.ok("replay")


def test_hand_edited_requirement_status_is_named_with_the_requirement_command(h, repo, task):
    h.ok("requirement", "add", "Resume", "--priority", "must")
    path = tdir(repo, task) / "requirements.yaml"
    path.write_text(path.read_text().replace("status: pending", "status: verified"))
    r = h("replay")
    assert r.code == 2
    assert "requirements.yaml" in r.text and "REQ-001.status" in r.text and "harness requirement set" in r.text


def test_replay_keeps_freeform_text_edits(h, repo, task):
    h.ok("requirement", "add", "Resume", "--priority", "must")
    path = tdir(repo, task) / "requirements.yaml"
    path.write_text(path.read_text().replace("statement: Resume", "statement: Resume after SIGKILL"))
    h.ok("replay")


def rewrite_line(path: Path, index: int, **changes) -> None:
    """Rewrite ledger line ``index`` (0-based) canonically, leaving its successor's prev stale."""
    from harness.core.ledger import canonical

    lines = path.read_bytes().decode("utf-8").split("\n")[:-1]
    lines = [line + "\n" for line in lines]
    event = json.loads(lines[index])
    event.update(changes)
    lines[index] = canonical(event) + "\n"
    path.write_text("".join(lines), "utf-8")


def test_a_rewritten_earlier_ledger_line_is_named_by_replay(h, repo, task):
    walk_to(h, "SPECIFYING", "PLANNED", "IMPLEMENTING")
    rewrite_line(ledger_path(repo, task), 1, ts="2001-01-01T00:00:00Z")  # line 2
    r = h("replay")
    assert r.code == 2, r.text
    assert "events.jsonl:3" in r.text and "broken hash chain" in r.text and "line 2" in r.text
    assert_no_traceback(r)


def test_replay_write_does_not_paper_over_a_broken_ledger(h, repo, task):
    walk_to(h, "SPECIFYING", "PLANNED")
    rewrite_line(ledger_path(repo, task), 1, ts="2001-01-01T00:00:00Z")
    before = snapshot(tdir(repo, task))
    r = h("replay", "--write")
    assert r.code == 2, r.text
    assert_no_traceback(r)
    assert snapshot(tdir(repo, task)) == before


def test_deleting_the_last_ledger_line_is_caught_by_replay(h, repo, task):
    walk_to(h, "SPECIFYING", "PLANNED")
    path = ledger_path(repo, task)
    lines = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join(lines[:-1]))
    r = h("replay")
    assert r.code == 2, r.text
    assert "task.state" in r.text and "SPECIFYING" in r.text and "PLANNED" in r.text


def test_a_ledger_truncated_mid_line_is_caught_by_replay(h, repo, task):
    walk_to(h, "SPECIFYING", "PLANNED")
    path = ledger_path(repo, task)
    raw = path.read_bytes()
    path.write_bytes(raw[:-40])
    r = h("replay")
    assert r.code == 2, r.text
    assert "events.jsonl" in r.text and "incomplete" in r.text
    assert_no_traceback(r)


def test_an_appended_illegal_event_with_a_correct_chain_is_caught_by_replay(h, repo, task):
    walk_to(h, "SPECIFYING", "PLANNED", "IMPLEMENTING")
    path = ledger_path(repo, task)
    lines = path.read_bytes().decode("utf-8").split("\n")[:-1]
    last = json.loads(lines[-1])
    event = {"seq": last["seq"] + 1, "ts": last["ts"], "type": "task.transitioned",
             "data": {"from": "IMPLEMENTING", "to": "DONE", "reason": None},
             "prev": hashlib.sha256(lines[-1].encode("utf-8")).hexdigest()}
    with path.open("a", encoding="utf-8") as fh:
        fh.write(json.dumps(event, sort_keys=True, separators=(",", ":"), ensure_ascii=False) + "\n")
    # the projections agree with the forged history, so only the rules can catch it
    doc = (tdir(repo, task) / "task.yaml")
    doc.write_text(doc.read_text().replace("state: IMPLEMENTING", "state: DONE"))
    r = h("replay")
    assert r.code == 2, r.text
    assert f"events.jsonl:{event['seq']}" in r.text
    assert "INVALID TRANSITION: IMPLEMENTING → DONE" in r.text
    # and no command builds on the forged history
    assert h("transition", "VERIFYING").code == 2


# -- --task on every command --------------------------------------------------------------

@pytest.fixture
def two_tasks(h) -> tuple[str, str]:
    """(other, current): two tasks, the second one current."""
    other = h.ok("task", "new", "Other task").out.strip()
    current = h.ok("task", "new", "Current task").out.strip()
    return other, current


OTHER = "{other}"
WRITE_COMMANDS = {
    "transition": (("transition", "SPECIFYING", "--task", OTHER), "task.transitioned"),
    "requirement add": (("requirement", "add", "r", "--priority", "must", "--task", OTHER), "requirement.added"),
    "invariant add": (("invariant", "add", "i", "--category", "correctness", "--severity", "minor",
                       "--task", OTHER), "invariant.added"),
    "gate": (("gate", "--task", OTHER), "gate.evaluated"),
    "evidence": (("evidence", "build", "--task", OTHER, *PASS_CMD), "evidence.collected"),
}


@pytest.mark.parametrize("name", list(WRITE_COMMANDS))
def test_writing_commands_honour_task_option(h, repo, two_tasks, name):
    other, current = two_tasks
    args, etype = WRITE_COMMANDS[name]
    untouched = snapshot(tdir(repo, current))
    r = h(*(other if a == OTHER else a for a in args))
    assert r.code == (1 if name == "gate" else 0), r.text  # the gate BLOCKS a CREATED task
    assert events(repo, other)[-1]["type"] == etype
    assert snapshot(tdir(repo, current)) == untouched
    assert status_json(h)["task"]["id"] == current  # --task does not switch


@pytest.mark.parametrize("kind,add", [("requirement", ("--priority", "must")),
                                      ("invariant", ("--category", "correctness", "--severity", "minor"))])
def test_set_commands_honour_task_option(h, repo, two_tasks, kind, add):
    other, current = two_tasks
    h.ok(kind, "add", "x", *add, "--task", other)
    h.ok(kind, "add", "x", *add, "--task", current)
    prefix = "REQ" if kind == "requirement" else "INV"
    untouched = snapshot(tdir(repo, current))
    h.ok(kind, "set", f"{prefix}-001", "--status", "pending" if kind == "invariant" else "implemented",
         "--task", other)
    assert events(repo, other)[-1]["type"] == f"{kind}.set"
    assert snapshot(tdir(repo, current)) == untouched


def test_status_and_replay_honour_task_option(h, repo, two_tasks):
    other, current = two_tasks
    h.ok("transition", "--task", other, "SPECIFYING")
    assert status_json(h, "--task", other)["task"]["id"] == other
    assert status_json(h, "--task", other)["state"] == "SPECIFYING"
    assert status_json(h)["state"] == "CREATED"
    assert other in h.ok("status", "--task", other).out
    assert other in h.ok("replay", "--task", other).out
    path = tdir(repo, other) / "task.yaml"
    path.write_text(path.read_text().replace("state: SPECIFYING", "state: PLANNED"))
    assert h("replay", "--task", other).code == 2
    assert h("replay").code == 0  # the current task is fine


def test_unknown_task_option_is_refused_naming_known_tasks(h, two_tasks):
    other, current = two_tasks
    for args in (("status",), ("transition", "SPECIFYING"), ("replay",), ("gate",),
                 ("requirement", "add", "x", "--priority", "must")):
        r = h(*args, "--task", "TASK-19990101-000000")
        assert r.code == 2, (args, r.text)
        assert "TASK-19990101-000000" in r.text and other in r.text and current in r.text
        assert_no_traceback(r)
