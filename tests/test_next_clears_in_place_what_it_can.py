"""`Next:` names what clears a blocker in place, in every state that can clear it, and never a loop (read 114).

F-0406: CONVERGED with an unapproved change of config.yaml named only `harness gate`, again and again. F-0407: in
GATING, the `introduced_command` blocker of that change (one per must requirement citing the type) was taken for work
and sent the task round the loop (`harness converge --apply`, iteration + 1). F-0408: in GATING, a FIXED finding's
blockers were taken for work too, though `harness finding verify` clears them there. F-0409: after a reproduce run on
other code than the finding was proposed against (only an attempt: it decides nothing), `Next:` was the same reproduce.

Each is followed here as an agent follows `Next:` — the first step it may run (a human's approval is not the agent's)
— in a real repository, until the task moves on."""

from __future__ import annotations

import json
import shlex
import subprocess
from pathlib import Path

from harness.core.blockers import CONFIG_UNAPPROVED, Blocker
from harness.core.next_step import clearing, detour, next_steps

from support.cli import TO_VERIFYING, Harness, status_json, walk_to
from support.flows import changed_command, collect_all, proposal, propose
from support.gitrepo import commit_all_ok, git, head
from support.paths import PY
from support.processes import run_in_pty
from support.records import PASS_CMD, configure, narrow_unit_test

FRESH = {"build": "PASS", "unit_test": "PASS"}
APPROVE = "harness approve config-change"
REVERT = "git checkout HEAD -- .harness/config.yaml"
CONFIG = Blocker("files_valid", CONFIG_UNAPPROVED, ("config.yaml",), "config.yaml changes evidence.unit_test.command")


def introduced(step: str | None = None) -> Blocker:
    return Blocker("requirements_verified", "introduced_command", ("REQ-001", "unit_test", *([step] if step else [])),
                   "REQ-001 cites unit_test, whose command is not the one config.yaml configured at the task's base")


def commands(steps) -> list[str]:
    return [s.command for s in steps]


def run_line(repo: Path, line: str) -> None:
    """Run a `git …` line as `Next:` names it, pasted into a shell (`&&` chains stop at a failure)."""
    assert line.startswith("git "), line
    proc = subprocess.run(["bash", "-c", line], cwd=repo, capture_output=True, text=True)
    assert proc.returncode == 0, (line, proc.stdout, proc.stderr)


def follow(h: Harness, repo: Path, until, rounds: int = 8) -> list[str]:
    """Run what `harness status` names first, as an agent does (a human's approval is passed over: the guard refuses
    it to an agent), until ``until(status)`` holds. Returns the commands run; fails when it never holds."""
    ran: list[str] = []
    for _ in range(rounds):
        status = status_json(h)
        if until(status):
            return ran
        cmd = next(n["command"] for n in status["next"] if not n["command"].startswith("harness approve"))
        assert cmd not in ran[-1:] or cmd.startswith("harness evidence"), (cmd, ran, status["next"])  # no loop
        ran.append(cmd)
        if cmd.startswith("git "):
            run_line(repo, cmd)
        else:
            r = h(*shlex.split(cmd)[1:])
            assert r.code == 0, (cmd, r.text)
    raise AssertionError(f"never moved on: ran {ran}; Next: {[n['command'] for n in status_json(h)['next']]}")


def configured_task(h: Harness, repo: Path) -> None:
    """A task whose evidence commands config.yaml configured (committed), its must requirement verified by unit_test,
    walked to REVIEWING."""
    configure(repo, PASS_CMD, PASS_CMD)
    commit_all_ok(repo, "the evidence commands")
    h.ok("task", "new", "t")
    h.ok("requirement", "add", "it works", "--priority", "must")
    walk_to(h, *TO_VERIFYING)
    h.ok("evidence", "build")
    h.ok("evidence", "unit_test")
    h.ok("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "unit_test")
    walk_to(h, "REVIEWING")


def reviewing(h: Harness) -> None:
    """The current task's must requirement verified by fresh evidence, walked to REVIEWING."""
    h.ok("requirement", "add", "it works", "--priority", "must")
    walk_to(h, *TO_VERIFYING)
    collect_all(h)
    h.ok("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "unit_test")
    walk_to(h, "REVIEWING")


# -- F-0406: CONVERGED names the approval or the revert, as GATING does -----------------------------------------

def test_converged_with_an_unapproved_config_change_names_the_approval_and_the_revert_and_done_follows(h, repo):
    configured_task(h, repo)
    walk_to(h, "GATING")
    h.ok("gate", "--advance")
    narrow_unit_test(repo)
    h.ok("evidence", "unit_test")  # what Next: said before: re-collect (with the changed command)
    steps = [n["command"] for n in status_json(h)["next"]]
    assert steps[:2] == [APPROVE, REVERT] and steps[-1] == "harness gate", steps
    ran = follow(h, repo, lambda st: st["next"][0]["command"] == "harness transition DONE")
    assert ran[:2] == [REVERT, "harness evidence unit_test"], ran
    h.ok("transition", "DONE")


def test_converged_pure_steps_name_the_in_place_clearing_before_the_gate():
    steps = commands(next_steps("CONVERGED", [CONFIG, introduced()], {}, FRESH))
    assert steps == [APPROVE, REVERT, "harness gate"]


def test_converged_with_stale_evidence_still_recollects_and_rejudges():
    # The neighbour: nothing of config.yaml; the steps are as they were.
    stale = Blocker("required_evidence", "evidence_stale", ("unit_test",), "unit_test evidence is stale")
    steps = commands(next_steps("CONVERGED", [stale], {}, {"build": "PASS", "unit_test": "STALE"}))
    assert steps == ["harness evidence unit_test", "harness gate"]
    assert commands(next_steps("CONVERGED", [], {}, FRESH, gate_pass=True)) == ["harness transition DONE"]


# -- F-0407: an introduced command is cleared in place, no iteration spent ---------------------------------------

def test_gating_with_an_unapproved_command_change_clears_it_in_place_and_spends_no_iteration(h, repo):
    configured_task(h, repo)
    walk_to(h, "GATING")
    narrow_unit_test(repo)
    status = status_json(h)
    assert any("whose command is not the one" in b for b in status["gate_now"]["blockers"]), status
    steps = [n["command"] for n in status["next"]]
    assert "harness converge --apply" not in steps and steps[:2] == [APPROVE, REVERT], steps
    ran = follow(h, repo, lambda st: st["next"][0]["command"] == "harness gate --advance")
    assert ran[0] == REVERT, ran
    after = status_json(h)
    assert after["state"] == "GATING" and after["iteration"] == 0, after
    h.ok("gate", "--advance")
    assert status_json(h)["state"] == "CONVERGED"


def test_a_committed_unapproved_step_names_the_approval_of_that_commit_and_a_human_s_approval_clears_it(h, repo,
                                                                                                      tmp_path):
    d = changed_command(h, repo, tmp_path)
    h.ok("evidence", "build", "--", *PASS_CMD)
    h.ok("evidence", "unit_test", "--", *PASS_CMD)
    walk_to(h, "REVIEWING", "GATING")
    steps = [n["command"] for n in status_json(h)["next"]]
    # Reverting config.yaml to HEAD's would keep the committed change: only the approval of that step clears it.
    assert steps == [f"{APPROVE} --commit {d['unapproved'][:12]}", "harness gate"], steps
    git(repo, "config", "user.signingKey", str(d["keys"]["human"][0]))
    code, screen = run_in_pty(repo, ["approve", "config-change", "--commit", d["unapproved"][:12]], "approve")
    assert code == 0, screen
    assert head(repo) == d["unapproved"]
    status = status_json(h)
    assert status["gate_now"]["verdict"] == "PASS" and status["iteration"] == 0, status


def test_introduced_command_clears_with_the_approval_or_the_revert_and_a_commit_s_with_its_approval():
    assert commands(clearing(introduced())) == [APPROVE, REVERT]
    assert commands(clearing(introduced("0123456789ab"))) == [f"{APPROVE} --commit 0123456789ab"]
    steps = commands(next_steps("GATING", [CONFIG, introduced()], {}, FRESH))
    assert steps == [APPROVE, REVERT, "harness gate"]


def test_the_committed_step_is_data_of_the_blocker_and_an_old_ledger_s_sentence_reads_back_the_same():
    from harness import resources
    from harness.core.blocker_text import classify
    from harness.core.gate import GateInput, evaluate
    from harness.store.settings import parse_gate

    run = {"outcome": "passed", "tree": "a" * 40, "exit_code": 0}
    req = {"id": "REQ-001", "priority": "must", "status": "verified", "evidence": ["unit_test"]}
    for step, subject in ((None, ("REQ-001", "unit_test")), ("c" * 40, ("REQ-001", "unit_test", "c" * 12))):
        g = GateInput(state="GATING", requirements=[req], invariants=[], evidence={"build": run, "unit_test": run},
                      pending={}, findings=[], policy=parse_gate(resources.template("gate.yaml")).doc, tree="a" * 40,
                      introduced=["unit_test"], config_unapproved_at=step)
        found = [b for b in evaluate(g).blockers if b.kind == "introduced_command"]
        assert [b.subject for b in found] == [subject]
        assert classify(found[0].text) == found[0]


def test_gating_with_a_failing_run_beside_an_introduced_command_still_loops_back():
    # The neighbour: a failing run takes a change of code, and the iteration is what the convergence rules count.
    failing = Blocker("required_evidence", "evidence_fail", ("build",), "build evidence failed")
    steps = commands(next_steps("GATING", [introduced(), failing], {}, {"build": "FAIL", "unit_test": "PASS"}))
    assert steps[0] == "harness converge --apply", steps


# -- F-0408: a FIXED finding is verified in GATING, where verify is allowed ----------------------------------------

FIXED_BLOCKERS = [Blocker("major_findings", "finding_open", ("F-0001",), "Major finding F-0001 is open"),
                  Blocker("regression_verified", "regression_unverified", ("F-0001",),
                          "Finding F-0001 regression test not verified yet")]


def test_gating_with_a_fixed_finding_names_verify_after_the_evidence_it_needs():
    steps = commands(next_steps("GATING", FIXED_BLOCKERS, {"F-0001": "FIXED"}, FRESH))
    assert steps == ["harness finding verify F-0001", "harness gate"]
    stale = commands(next_steps("GATING", FIXED_BLOCKERS, {"F-0001": "FIXED"},
                                {"build": "PASS", "unit_test": "STALE", "pass_to_pass": "MISSING"}))
    assert stale == ["harness evidence pass_to_pass", "harness evidence unit_test", "harness finding verify F-0001",
                     "harness gate"]


def test_gating_with_a_finding_still_being_fixed_loops_back():
    # The neighbour: a FIXING finding needs its fix, which is work for IMPLEMENTING, not a step in place.
    steps = commands(next_steps("GATING", FIXED_BLOCKERS, {"F-0001": "FIXING"}, FRESH))
    assert steps[0] == "harness converge --apply"


def test_gating_with_a_fixed_finding_is_verified_in_place_and_the_gate_passes_with_no_iteration_spent(h, ft, repo,
                                                                                                      tmp_path):
    reviewing(h)
    assert propose(h, tmp_path, proposal()).code == 0
    h.ok("finding", "reproduce", "F-0001")
    (repo / "test_answer.py").write_text("import app, sys\nsys.exit(0 if app.answer() == 41 else 1)\n")
    h.ok("finding", "regression", "F-0001", "test_answer.py", "--", PY, "test_answer.py")
    (repo / "app.py").write_text("def answer():\n    return 41\n")
    h.ok("finding", "fixed", "F-0001")
    collect_all(h)
    walk_to(h, "GATING")
    first = status_json(h)["next"][0]["command"]
    assert first == "harness finding verify F-0001", first
    ran = follow(h, repo, lambda st: st["next"][0]["command"] == "harness gate --advance")
    assert "harness converge --apply" not in ran, ran
    after = status_json(h)
    assert after["state"] == "GATING" and after["iteration"] == 0 and after["gate_now"]["verdict"] == "PASS", after


# -- F-0409: an attempt on other code is followed by the way to the proposed code and back -------------------------

def finding_status(h: Harness, fid: str = "F-0001") -> str:
    listed = json.loads(h.ok("finding", "list", "--json").out)
    return next(f["status"] for f in (listed["findings"] if isinstance(listed, dict) else listed) if f["id"] == fid)


def _first_next(out: str) -> str:
    line = next(line for line in out.splitlines() if line.startswith("Next:"))
    return line.removeprefix("Next:").strip().split("  — ")[0]


def test_after_an_attempt_on_other_code_next_sets_the_change_aside_reproduces_and_brings_it_back(h, ft, repo, tmp_path):
    reviewing(h)
    assert propose(h, tmp_path, proposal()).code == 0
    (repo / "app.py").write_text("def answer():\n    return 41\n")  # fixed before reproducing
    (repo / "notes.txt").write_text("an untracked file of the change\n")
    r = h("finding", "reproduce", "F-0001")
    assert r.code == 0 and "only an attempt" in r.out, r.text
    # The reproduce's own Next: and status's name the way to the proposed code first, not the same reproduce.
    assert _first_next(r.out).startswith("git clean -fdq -e .harness -- . && git restore --source="), r.out
    steps = [n["command"] for n in status_json(h)["next"]]
    assert steps[0].startswith("git clean") and steps[1] == "harness finding reproduce F-0001", steps
    assert steps[2].startswith("git clean") and steps[2] != steps[0], steps

    ran = follow(h, repo, lambda st: not any(n["command"].startswith("git ") for n in st["next"]))
    assert ran.count("harness finding reproduce F-0001") == 1, ran
    assert ran[0].startswith("git clean") and ran[-1].startswith("git clean"), ran
    # The change is back, untracked file and all, and the finding was decided on the proposed code.
    assert "return 41" in (repo / "app.py").read_text() and (repo / "notes.txt").is_file()
    assert finding_status(h) == "CONFIRMED"
    assert status_json(h)["next"][0]["command"] == "harness finding regression F-0001 PATH -- COMMAND"


def test_code_changed_after_the_attempt_is_reproduced_on_first_so_the_way_back_brings_back_all_of_it(h, ft, repo,
                                                                                                    tmp_path):
    reviewing(h)
    assert propose(h, tmp_path, proposal()).code == 0
    (repo / "app.py").write_text("def answer():\n    return 41\n")
    h.ok("finding", "reproduce", "F-0001")
    (repo / "later.py").write_text("LATER = 1\n")  # more work after the attempt: its tree is not the attempt's
    # A run on this code records its tree (the one to come back to); setting aside now would bring back the attempt's.
    assert status_json(h)["next"][0]["command"] == "harness finding reproduce F-0001"
    ran = follow(h, repo, lambda st: not any(n["command"].startswith("git ") for n in st["next"])
                 and finding_status(h) == "CONFIRMED")
    assert ran[0] == "harness finding reproduce F-0001" and ran[1].startswith("git clean"), ran
    assert (repo / "later.py").read_text() == "LATER = 1\n" and "return 41" in (repo / "app.py").read_text()


def test_a_finding_reproduced_on_the_proposed_code_goes_on_as_before(h, ft, repo, tmp_path):
    # The neighbour: no attempt elsewhere, no way there and back to name.
    reviewing(h)
    assert propose(h, tmp_path, proposal()).code == 0
    r = h("finding", "reproduce", "F-0001")
    assert r.code == 0 and "only an attempt" not in r.out, r.text
    assert _first_next(r.out) == "harness finding regression F-0001 PATH -- COMMAND"
    assert not any(n["command"].startswith("git ") for n in status_json(h)["next"])


def test_an_attempt_run_again_on_the_same_other_code_is_not_what_next_names(h, ft, repo, tmp_path):
    reviewing(h)
    assert propose(h, tmp_path, proposal()).code == 0
    (repo / "app.py").write_text("def answer():\n    return 41\n")
    h.ok("finding", "reproduce", "F-0001")
    assert status_json(h)["next"][0]["command"] != "harness finding reproduce F-0001"


# -- F-0415, F-0416 (read 116): the set-aside brings back what no recorded tree holds, and never goes round ----------

def _followed_to_the_end(h: Harness, repo: Path) -> list[str]:
    ran = follow(h, repo, lambda st: not any(n["command"].startswith("git ") for n in st["next"])
                 and finding_status(h) == "CONFIRMED")
    assert ran.count("harness finding reproduce F-0001") == 1, ran
    assert not (repo / PARK).exists(), ran  # brought back: nothing is left parked
    return ran


def test_a_file_only_the_change_s_gitignore_ignores_comes_back_with_the_whole_change(h, ft, repo, tmp_path):
    reviewing(h)
    assert propose(h, tmp_path, proposal()).code == 0
    gitignore = repo / ".gitignore"
    before = gitignore.read_text() if gitignore.exists() else ""
    (repo / "app.py").write_text("def answer():\n    return 41\n")
    gitignore.write_text(before + "secret.env\n")
    (repo / "secret.env").write_text("TOKEN=local-only\n")  # no tree the harness measured holds it
    r = h("finding", "reproduce", "F-0001")
    assert r.code == 0 and "only an attempt" in r.out, r.text
    _followed_to_the_end(h, repo)
    assert "return 41" in (repo / "app.py").read_text() and gitignore.read_text() == before + "secret.env\n"
    assert (repo / "secret.env").read_text() == "TOKEN=local-only\n"


def test_an_untracked_nested_repository_is_set_aside_and_comes_back_with_its_history(h, ft, repo, tmp_path):
    reviewing(h)
    assert propose(h, tmp_path, proposal()).code == 0
    (repo / "app.py").write_text("def answer():\n    return 41\n")
    lib = repo / "vendor" / "lib"
    lib.mkdir(parents=True)
    git(lib, "init", "-q")
    (lib / "x").write_text("x\n")
    git(lib, "add", "x")
    git(lib, "commit", "-qm", "x")
    r = h("finding", "reproduce", "F-0001")
    assert r.code == 0 and "only an attempt" in r.out, r.text
    _followed_to_the_end(h, repo)  # follow() fails on a step named again right after it ran
    assert "return 41" in (repo / "app.py").read_text() and (lib / "x").read_text() == "x\n"
    assert git(lib, "log", "--format=%s").stdout.strip() == "x"


def test_a_file_ignored_by_the_proposal_too_stays_where_it_is_through_the_detour(h, ft, repo, tmp_path):
    # The neighbour: what the proposal's .gitignore ignores as well is no part of either tree, and is left alone.
    (repo / ".gitignore").write_text("*.log\n")
    commit_all_ok(repo, "ignore logs")
    reviewing(h)
    assert propose(h, tmp_path, proposal()).code == 0
    (repo / "app.py").write_text("def answer():\n    return 41\n")
    (repo / "run.log").write_text("kept\n")
    h.ok("finding", "reproduce", "F-0001")
    aside = status_json(h)["next"][0]["command"]
    assert aside.startswith("git clean"), aside
    run_line(repo, aside)
    assert (repo / "run.log").read_text() == "kept\n" and not (repo / PARK / "run.log").exists()
    assert "return 42" in (repo / "app.py").read_text()
    _followed_to_the_end(h, repo)
    assert (repo / "run.log").read_text() == "kept\n" and "return 41" in (repo / "app.py").read_text()


P, A, S = "p" * 40, "a" * 40, "s" * 40
PARK = ".harness/local/aside"  # where the set-aside parks what no recorded tree holds


def _finding(status: str, *attempts: dict) -> dict:
    return {"id": "F-0001", "status": status, "proposed_on": {"tree": P, "head": None, "files": {}},
            "attempts": list(attempts)}


def test_a_set_aside_that_fell_short_is_not_named_again_and_the_change_it_started_from_comes_back():
    f = _finding("REPRODUCING", {"tree": A}, {"tree": S, "aside": True})
    way = detour(f, S)
    assert way is not None
    steps = [s.command for s in way.steps([], True)]
    assert f"--source={A} " in steps[0] and not any(f"--source={P} " in c for c in steps), steps
    assert f"git diff --name-status {P} {S}" in way.steps([], True)[0].why


def test_a_run_on_a_tree_a_set_aside_made_is_never_the_tree_brought_back():
    f = _finding("CONFIRMED", {"tree": A}, {"tree": S, "aside": True}, {"tree": P, "aside": True})
    way = detour(f, P)
    assert way is not None and way.back == A


def test_a_run_on_changed_code_outside_a_set_aside_is_still_the_tree_to_come_back_to():
    # The neighbour: more work after an attempt (no park then) is the change now, set aside and brought back whole.
    f = _finding("REPRODUCING", {"tree": A}, {"tree": S})
    way = detour(f, S)
    assert way is not None and way.aside and way.back == S
    assert f"--source={P} " in way.steps([], True)[0].command
