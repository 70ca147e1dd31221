"""Every output ends with what to run next: the pure table over all 13 states, and the CLI's use of it."""

from __future__ import annotations

import json
import shutil

import pytest

from harness.core.gate import DECIDING_STATES, state_blocker
from harness.core.next_step import NextStep, next_steps, work_blockers
from harness.core.states import STATES

from support.cli import TO_VERIFYING, gate_json, status_json, walk_to
from support.flows import to_gating
from support.gitrepo import git

FRESH = {"build": "PASS", "unit_test": "PASS"}

# state -> (blockers, findings, evidence, extra keywords, the recommended command)
TABLE = {
    "CREATED": ([], {}, {}, {}, "harness contract apply"),
    "SPECIFYING": ([], {}, {}, {"requirements": 2}, "harness transition PLANNED"),
    "PLANNED": ([], {}, {}, {"requirements": 2}, "harness transition IMPLEMENTING"),
    "IMPLEMENTING": (["build evidence is missing (required)"], {}, {"build": "MISSING"}, {},
                     "harness transition VERIFYING"),
    "VERIFYING": (["unit_test evidence is stale: collected on source tree aaa, the source is now bbb"], {},
                  {"build": "PASS", "unit_test": "STALE"}, {}, "harness evidence unit_test"),
    "REVIEWING": (["Major finding F-0001 is open"], {"F-0001": "PROPOSED"}, FRESH, {},
                  "harness finding reproduce F-0001"),
    "REPRODUCING": (["Confirmed finding F-0001 has no regression test"], {"F-0001": "CONFIRMED"}, FRESH, {},
                    "harness finding regression F-0001 PATH -- COMMAND"),
    "FIXING": (["Finding F-0001 regression test not verified yet"], {"F-0001": "FIXING"}, FRESH, {},
               "harness finding fixed F-0001"),
    "GATING": (["unit_test evidence failed: failed (exit 1)"], {}, {"build": "PASS", "unit_test": "FAIL"}, {},
               "harness converge --apply"),
    "BLOCKED": (["unit_test evidence failed: failed (exit 1)"], {}, {"unit_test": "FAIL"},
                {"iteration": 1, "max_iterations": 5}, "harness converge --apply"),
    "CONVERGED": ([], {}, FRESH, {"gate_pass": True}, "harness transition DONE"),
    "DONE": ([], {}, FRESH, {}, 'harness task new "TITLE"'),
    "ESCALATED": (["Major finding F-0001 is open"], {"F-0001": "CONFIRMED"}, FRESH, {}, 'harness task new "TITLE"'),
}


def test_the_table_covers_every_state():
    assert set(TABLE) == set(STATES)


@pytest.mark.parametrize("state", STATES)
def test_every_state_with_its_typical_blockers_has_a_recommended_command_with_a_why(state):
    blockers, findings, evidence, extra, expected = TABLE[state]
    as_gated = [state_blocker(state)] if state not in DECIDING_STATES else []  # what the gate itself adds
    steps = next_steps(state, [*as_gated, *blockers], findings, evidence, **extra)
    assert steps and steps[0].command == expected
    for s in steps:
        assert s.command.startswith("harness ") and s.why.strip() and "\n" not in s.why
    assert all(set(s.as_dict()) == {"command", "why"} for s in steps)


def test_the_not_in_gating_yet_blocker_is_dropped_but_real_blockers_stay():
    real = "REQ-001 not verified"
    assert work_blockers("IMPLEMENTING", [state_blocker("IMPLEMENTING"), real]) == [real]
    assert work_blockers("GATING", [real]) == [real]


def test_gating_with_only_stale_evidence_recollects_and_judges_without_spending_an_iteration():
    steps = next_steps("GATING", ["unit_test evidence is stale: collected on source tree a, the source is now b",
                                  "REQ-001 cites unit_test evidence that is stale"], {}, {"unit_test": "STALE"})
    assert [s.command for s in steps] == ["harness evidence unit_test", "harness gate"]
    assert "--advance" not in " ".join(s.command for s in steps)


def test_gating_with_nothing_blocking_advances():
    # Only once a recorded PASS holds for this tree (read first: the quality-gate skill's order).
    assert next_steps("GATING", [], {}, FRESH, gate_pass=True)[0].command == "harness gate --advance"


def test_gating_with_an_unverified_requirement_sets_it_in_place():
    steps = next_steps("GATING", ["REQ-002 not verified"], {}, FRESH)
    assert steps[0].command == "harness requirement set REQ-002 --status verified --evidence TYPE"


def test_a_rejected_finding_not_refuted_on_this_tree_is_reproduced_in_place():
    b = ("Major finding F-0002 is open (rejected, but its reproducer has not passed on this source tree: "
         "harness finding reproduce F-0002)")
    assert next_steps("GATING", [b], {"F-0002": "REJECTED"}, FRESH)[0].command == "harness finding reproduce F-0002"


def test_blocked_at_max_iterations_can_only_escalate():
    steps = next_steps("BLOCKED", ["x"], {}, {}, iteration=5, max_iterations=5)
    assert len(steps) == 1 and steps[0].command.startswith("harness transition ESCALATED --reason")


def test_blocked_with_open_findings_goes_to_reproducing():
    assert [s.command for s in next_steps("BLOCKED", [], {"F-0001": "PROPOSED"}, {}, iteration=1)] == \
        ["harness converge --apply", "harness transition REPRODUCING"]


def test_verifying_with_failing_evidence_goes_back_to_implementing():
    steps = next_steps("VERIFYING", ["unit_test evidence failed: failed (exit 1)"], {}, {"unit_test": "FAIL"})
    assert steps[0].command == "harness transition IMPLEMENTING" and "unit_test" in steps[0].why


def test_reviewing_without_findings_asks_for_the_review_packet():
    assert next_steps("REVIEWING", [], {}, FRESH)[0].command.startswith("harness review packet")


def test_converged_whose_pass_no_longer_holds_recollects_before_done():
    steps = next_steps("CONVERGED", ["unit_test evidence is stale: x"], {}, {"unit_test": "STALE"})
    assert [s.command for s in steps] == ["harness evidence unit_test", "harness gate"]


def test_next_step_is_a_plain_value():
    assert NextStep("harness status", "why").as_dict() == {"command": "harness status", "why": "why"}


# -- the CLI ------------------------------------------------------------------------------

def test_status_ends_with_next_lines_and_json_carries_next(h, task):
    r = h.ok("status")
    assert "Next:" in r.out.splitlines()[-2] or "Next:" in r.out
    assert "the gate decides only in GATING" not in r.out
    doc = status_json(h)
    assert doc["next"][0] == {"command": "harness contract apply", "why": doc["next"][0]["why"]}
    assert "state CREATED: the gate decides only in GATING" not in doc["gate_now"]["blockers"]


def test_gate_json_carries_next_and_a_blocked_gate_in_gating_does_not_recommend_advance(h, repo, task):
    to_gating(h, verify=False)
    code, doc = gate_json(h)
    assert code == 1
    assert doc["next"][0]["command"] == "harness requirement set REQ-001 --status verified --evidence TYPE"
    assert all("--advance" not in n["command"] for n in doc["next"])
    h.ok("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "unit_test")
    code, doc = gate_json(h)
    assert code == 0 and doc["next"][0]["command"] == "harness gate --advance"
    code, doc = gate_json(h, "--advance")
    assert doc["advanced_to"] == "CONVERGED" and doc["next"][0]["command"] == "harness transition DONE"


def test_gate_text_ends_with_the_next_step(h, repo, task):
    to_gating(h)
    assert h("gate").out.rstrip().splitlines()[-1].startswith("Next:         harness gate --advance")


def test_task_new_prints_the_id_alone_on_stdout_and_the_next_step_on_stderr(h):
    r = h.ok("task", "new", "A task")
    assert r.out.strip().startswith("TASK-") and len(r.out.strip().splitlines()) == 1
    assert "Next:" in r.err and "harness contract apply" in r.err


def test_transition_and_evidence_print_the_next_step(h, task):
    h.ok("requirement", "add", "x", "--priority", "must")
    assert "Next:         harness transition PLANNED" in h.ok("transition", "SPECIFYING").out
    walk_to(h, "PLANNED", "IMPLEMENTING", "VERIFYING")
    r = h.ok("evidence", "build", "--", "true")
    assert "Next:" in r.err and "harness evidence unit_test" in r.err


def test_a_refused_transition_names_the_next_step(h, task):
    r = h("transition", "DONE")
    assert r.code == 1
    assert "INVALID TRANSITION: CREATED → DONE" in r.err and "next: harness contract apply" in r.err


def test_status_with_no_task_exits_0_and_says_task_new(h):
    r = h("status")
    assert r.code == 0 and r.out.startswith("No task yet.") and 'harness task new "TITLE"' in r.out
    doc = json.loads(h.ok("status", "--json").out)
    assert doc["task"] is None and doc["tasks"] == [] and doc["next"][0]["command"] == 'harness task new "TITLE"'


def _done_task(h) -> None:
    to_gating(h)
    h.ok("gate", "--advance")
    h.ok("transition", "DONE")


def test_a_clone_where_every_task_is_done_summarises_them_and_exits_0(h, repo, task, tmp_path):
    _done_task(h)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "done")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(repo), str(clone))
    r = h("status", cwd=clone)
    assert r.code == 0, r.text
    assert "No open task. 1 finished: 1 DONE" in r.out and task in r.out
    doc = json.loads(h("status", "--json", cwd=clone).out)
    assert [t["state"] for t in doc["tasks"]] == ["DONE"] and doc["next"][0]["command"].startswith("harness task new")


def test_done_task_with_changed_code_says_so_instead_of_listing_blockers(h, repo, task):
    _done_task(h)
    r = h.ok("status")
    assert "DONE, not committed yet" in r.out and "gate PASS on this source tree" in r.out
    (repo / "app.py").write_text("def answer():\n    return 43\n")
    r = h.ok("status")
    assert "; the code has changed since" in r.out
    assert "Blocking" not in r.out
    doc = status_json(h)
    assert doc["done"]["changed_since"] is True


def test_two_open_tasks_and_none_chosen_still_refuses_status(h, repo):
    h.ok("task", "new", "one")
    h.ok("task", "new", "two")
    shutil.rmtree(repo / ".harness/local", ignore_errors=True)
    (repo / ".harness/local").mkdir()
    r = h("status")
    assert r.code == 2 and "harness task switch" in r.err


def test_any_refused_task_command_names_the_next_step(h, task):
    r = h("finding", "close", "F-0001")
    assert r.code == 1 and "next: harness contract apply" in r.err


def test_a_refusal_without_a_hint_prints_the_next_step_on_a_line_of_its_own(h, task):
    r = h("requirement", "add", "", "--priority", "must")
    assert r.code == 1 and "the statement must be non-empty text" in r.err
    assert "\n  next: harness contract apply" in r.err and "hint: next:" not in r.err


def test_a_refusal_with_a_hint_keeps_it_and_adds_the_next_step_below(h, task):
    r = h("invariant", "add", "x", "--category", "\u00fcn\u00efcode", "--severity", "major")
    assert r.code == 1 and "\n  hint: use a lower-case ASCII word" in r.err
    assert "\n  next: harness contract apply" in r.err


def test_a_refusal_outside_a_task_command_is_left_as_it_is(h, task):
    r = h("task", "new", "x", "--max-iterations", "99")
    assert r.code == 1 and "next:" not in r.err


def test_a_hand_edited_task_file_makes_replay_write_the_next_step(h, repo, task):
    path = repo / ".harness/tasks" / task / "task.yaml"
    path.write_text(path.read_text().replace("state: CREATED", "state: DONE"))
    doc = json.loads(h.ok("status", "--json").out)
    assert doc["next"][0]["command"] == "harness replay --write"
    r = h("transition", "DONE")
    assert r.code == 1 and "next: harness replay --write" in r.err


def test_a_finished_current_task_with_another_open_points_at_switching(h, repo, task):
    _done_task(h)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "done")  # a DONE not in HEAD is committed first
    other = h.ok("task", "new", "Next piece").out.strip()
    h.ok("task", "switch", task)
    doc = status_json(h)
    assert doc["state"] == "DONE" and doc["next"][0]["command"] == f"harness task switch {other}"


def test_an_unverified_requirement_step_cites_the_types_its_contract_plans_not_a_placeholder():
    steps = next_steps("VERIFYING", ["REQ-001 not verified", "INV-001 not verified"], {}, FRESH,
                       plan={"REQ-001": ["unit_test"], "INV-001": ["unit_test", "build"]})
    assert [s.command for s in steps][:2] == [
        "harness requirement set REQ-001 --status verified --evidence unit_test",
        "harness invariant set INV-001 --status verified --evidence unit_test --evidence build"]


def test_the_next_step_after_evidence_for_a_contract_requirement_runs_as_printed(h, repo, task):
    (repo / "contract.yaml").write_text(
        "contract:\n  acceptance_criteria: [forty-two]\n  requirements:\n    - statement: The answer is 42\n      priority: must\n"
        "      verified_by: [unit_test]\n")
    h.ok("contract", "apply", "--file", "contract.yaml")
    walk_to(h, "IMPLEMENTING", "VERIFYING")
    h.ok("evidence", "build", "--", "python3", "-c", "pass")
    h.ok("evidence", "unit_test", "--", "python3", "-c", "pass")
    first = status_json(h)["next"][0]["command"]
    assert first == "harness requirement set REQ-001 --status verified --evidence unit_test"
    h.ok(*first.split()[1:])  # exactly the printed command
    assert status_json(h)["next"][0]["command"] == "harness transition REVIEWING"


def test_a_requirement_planned_on_evidence_never_collected_is_told_to_collect_it_before_citing_it(h, repo, task):
    # Citing a type with no run is refused ("run `harness evidence integration_test` first"): the
    # next step must not be the refused command again.
    (repo / "contract.yaml").write_text(
        "contract:\n  acceptance_criteria: [forty-two]\n  requirements:\n    - statement: The answer is 42\n"
        "      priority: must\n      verified_by: [integration_test]\n")
    h.ok("contract", "apply", "--file", "contract.yaml")
    walk_to(h, "IMPLEMENTING", "VERIFYING")
    h.ok("evidence", "build", "--", "python3", "-c", "pass")
    h.ok("evidence", "unit_test", "--", "python3", "-c", "pass")
    cite = "harness requirement set REQ-001 --status verified --evidence integration_test"
    assert h(*cite.split()[1:]).code == 1
    steps = [n["command"] for n in status_json(h)["next"]]
    assert steps.index("harness evidence integration_test") < steps.index(cite)
    h.ok("evidence", "integration_test", "--", "python3", "-c", "pass")
    assert status_json(h)["next"][0]["command"] == cite
    h.ok(*cite.split()[1:])


def test_a_failure_on_an_older_tree_is_re_run_after_the_fix_not_sent_back_to_implementing(h, repo, task):
    h.ok("requirement", "add", "The answer is 43", "--priority", "must")
    walk_to(h, *TO_VERIFYING)
    assert h("evidence", "unit_test", "--", "python3", "-c", "raise SystemExit(1)").code == 1
    assert status_json(h)["next"][0]["command"] == "harness transition IMPLEMENTING"
    walk_to(h, "IMPLEMENTING")
    (repo / "app.py").write_text("def answer():\n    return 43\n")  # the fix
    walk_to(h, "VERIFYING")
    steps = [n["command"] for n in status_json(h)["next"]]
    assert "harness evidence unit_test" in steps and "harness transition IMPLEMENTING" not in steps


def test_three_failed_verification_rounds_in_a_row_send_the_task_to_the_gate():
    failing = (["unit_test evidence failed: failed (exit 1)"], {}, {"unit_test": "FAIL"})
    assert next_steps("VERIFYING", *failing, failed_rounds=2)[0].command == "harness transition IMPLEMENTING"
    assert next_steps("VERIFYING", *failing, failed_rounds=3)[0].command == "harness transition REVIEWING"


def test_a_finding_whose_reproducer_passed_is_rejected_next_not_reproduced_again(h, task, tmp_path):
    import shlex

    from support.flows import proposal, propose
    from support.records import PASS_CMD

    walk_to(h, *TO_VERIFYING, "REVIEWING")
    assert propose(h, tmp_path, {"findings": [proposal(recommended_reproducer={
        "type": "unit_test", "description": "d", "command": list(PASS_CMD)})]}).code == 0
    h.ok("finding", "reproduce", "F-0001")  # it passes: the claim does not hold
    first = status_json(h)["next"][0]["command"]
    assert first.startswith("harness finding reject F-0001 --reason ")
    h.ok(*shlex.split(first)[1:])
    assert h.ok("finding", "list").out.split()[1] == "REJECTED"


def test_a_done_task_not_yet_committed_is_committed_before_new_work(h, repo, task):
    to_gating(h)
    h.ok("gate", "--advance")
    h.ok("transition", "DONE")
    first = status_json(h)["next"][0]["command"]
    assert first.startswith("git add -A && git commit")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "done")
    assert status_json(h)["next"][0]["command"] == 'harness task new "TITLE"'


def test_the_next_step_after_a_run_that_edited_the_code_judges_the_code_as_the_run_left_it(h, repo, task):
    # evidence hands its after-run tree to the next step instead of measuring again: the build
    # collected before is stale now, as `status` says too, not fresh as on the tree the run began on
    walk_to(h, *TO_VERIFYING)
    h.ok("evidence", "build", "--", "python3", "-c", "pass")
    edit = "open('app.py', 'a').write('# edited by the suite\\n')"
    printed = h.ok("evidence", "unit_test", "--", "python3", "-c", edit).err  # the next step goes to stderr
    after = [line for line in printed.splitlines() if "  — " in line]
    assert "harness evidence build  — build evidence is stale" in after[0]
    status_next = [f"{n['command']}  — {n['why']}" for n in status_json(h)["next"]]
    assert [line.split(None, 1)[1] if line.startswith("Next:") else line.strip() for line in after] == status_next
