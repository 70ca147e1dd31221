"""`harness audit --rerun` re-runs everything a DONE rests on: evidence, the reproducers of rejected
and fixed findings, regression tests — in a clean environment — and tells "does not reproduce" from
"could not run"."""

from __future__ import annotations

import json
import os

from harness.gitio.git import Git

from support.answer_project import to_gating
from support.gitrepo import NOTES, commit_all_ok, git
from support.records import PASS_CMD, append_event, configure, events
from support.reviewed_done import ANSWER_CHECK, PY, done_with_findings, shadow_bin


def rerun_json(h, base: str) -> tuple[int, dict, str]:
    r = h("audit", "--json", "--rerun", "--from", base, "--to", "HEAD")
    return r.code, json.loads(r.out), r.err


def test_honest_done_reruns_evidence_reproducers_and_regression_tests_and_lists_each(h, repo, tmp_path, monkeypatch):
    base, _, done = done_with_findings(h, repo, tmp_path, monkeypatch)
    code, doc, err = rerun_json(h, base)
    assert code == 0, err
    (row,) = [r for r in doc["results"] if r["commit"] == done]
    runs = {(r["kind"], r["what"]): r for r in row["reruns"]}
    assert set(runs) == {("evidence", "build"), ("evidence", "unit_test"), ("reproducer", "F-0001 (fixed)"),
                         ("regression", "F-0001 regress.py"), ("reproducer", "F-0002 (rejected)")}
    assert all(r["result"] == "reproduces" and r["commit"] == done for r in runs.values())
    assert all(isinstance(r["duration_s"], float) and r["cwd"] for r in runs.values())
    assert runs[("regression", "F-0001 regress.py")]["command"] == "python3 regress.py"
    # One streamed line as each command starts and one as it ends, saying what, where and how long.
    assert err.count("harness: rerun: ") == 2 * len(runs)
    assert "F-0002 (rejected): `python3 -c" in err and "s)" in err
    r = h("audit", "--rerun", "--from", base, "--to", "HEAD")
    assert r.code == 0 and "no problems" in r.err and r.err.count("→ reproduces") == 5, r.text


def test_a_rejection_won_under_a_bent_environment_does_not_reproduce(h, repo, tmp_path, monkeypatch):
    """answer() is really 41; a shadowing `python3` on the laptop made the reviewer's reproducer pass."""
    liar = shadow_bin(tmp_path, "python3", "exit 0")
    base, tid, done = done_with_findings(h, repo, tmp_path, monkeypatch, answer=41, reject_bin=liar)
    assert h("audit", "--from", base, "--to", "HEAD").code == 0  # the record itself is consistent
    code, doc, err = rerun_json(h, base)
    assert code == 1, err
    (row,) = [r for r in doc["results"] if r["commit"] == done]
    bad = [r for r in row["reruns"] if r["result"] == "does not reproduce"]
    assert [(r["kind"], r["what"]) for r in bad] == [("reproducer", "F-0002 (rejected)")]
    (problem,) = row["problems"]
    assert problem["file"] == f".harness/tasks/{tid}/findings/F-0002.yaml" and problem["rule"] == "rerun-reproduces"
    assert "REJECTED" in problem["message"] and "does not reproduce" in problem["message"]


def test_a_fix_verified_under_a_bent_environment_does_not_reproduce(h, repo, tmp_path, monkeypatch):
    """The bug was never fixed; a shadowing `python3` made the regression test and reproducer pass."""
    liar = shadow_bin(tmp_path, "python3", "exit 0")
    base, tid, done = done_with_findings(h, repo, tmp_path, monkeypatch, verify_bin=liar)
    code, doc, err = rerun_json(h, base)
    assert code == 1, err
    (row,) = [r for r in doc["results"] if r["commit"] == done]
    bad = sorted((r["kind"], r["what"]) for r in row["reruns"] if r["result"] == "does not reproduce")
    assert bad == [("regression", "F-0001 regress.py"), ("reproducer", "F-0001 (fixed)")]
    assert {p["file"] for p in row["problems"]} == {f".harness/tasks/{tid}/findings/F-0001.yaml"}


def test_a_rejection_whose_reproducer_script_was_edited_is_reported_not_reproduced(h, repo, tmp_path, monkeypatch):
    """F-0326: the reviewer's reproducer is a script, rewritten to `exit 0` after the rejection; locally its
    re-check no longer counts, so the ledger's re-check is written by hand, as a forger would. CI does not
    call a run of the rewritten script the reviewer's reproducer: it reports the mismatch."""
    def silence() -> None:
        (repo / "check.py").write_text("import sys\nsys.exit(0)\n")

    def forged_recheck(tid: str) -> None:
        assert "no re-check" in h.ok("finding", "reproduce", "F-0002").out  # the harness does not count it
        runs = [e["data"] for e in events(repo, tid) if e["type"] == "finding.reproduced"]
        [*_, honest] = [d for d in runs if d["id"] == "F-0002" and d["files"].get("check.py")]  # the rejecting run
        append_event(repo, tid, "finding.reproduced", {**honest, "tree": Git(repo).worktree_source_tree()})
        h.ok("replay", "--write")

    (repo / "check.py").write_text(f"{ANSWER_CHECK}\n")
    base, tid, done = done_with_findings(h, repo, tmp_path, monkeypatch, reject_cmd=["python3", "check.py"],
                                         after_reject=silence, recheck=forged_recheck)
    assert h("audit", "--from", base, "--to", "HEAD").code == 0  # the record itself is consistent
    code, doc, err = rerun_json(h, base)
    assert code == 1, err
    (row,) = [r for r in doc["results"] if r["commit"] == done]
    assert not any(r["what"] == "F-0002 (rejected)" for r in row["reruns"])
    (problem,) = row["problems"]
    assert problem["file"] == f".harness/tasks/{tid}/findings/F-0002.yaml" and problem["rule"] == "rerun-reproduces"
    assert "check.py is not the file" in problem["message"]


def test_a_rejection_whose_reproducer_script_is_as_proposed_reproduces(h, repo, tmp_path, monkeypatch):
    (repo / "check.py").write_text(f"{ANSWER_CHECK}\n")
    base, _, done = done_with_findings(h, repo, tmp_path, monkeypatch, reject_cmd=["python3", "check.py"])
    code, doc, err = rerun_json(h, base)
    assert code == 0, err
    (row,) = [r for r in doc["results"] if r["commit"] == done]
    assert [r["result"] for r in row["reruns"] if r["what"] == "F-0002 (rejected)"] == ["reproduces"]


def test_a_tool_missing_on_the_ci_machine_could_not_run_and_exits_2(h, repo, tmp_path, monkeypatch):
    tool = shadow_bin(tmp_path, "answer-check", f"exec {PY} -c '{ANSWER_CHECK}'")
    base, _, done = done_with_findings(h, repo, tmp_path, monkeypatch, reject_cmd=["answer-check"],
                                         reject_bin=tool)
    code, doc, err = rerun_json(h, base)
    assert code == 2, err
    assert doc["could_not_run"] == 1 and doc["failed"] == 0
    (row,) = [r for r in doc["results"] if r["commit"] == done]
    (miss,) = [r for r in row["reruns"] if r["result"] == "could not run"]
    assert miss["what"] == "F-0002 (rejected)" and miss["outcome"] == "not_found"
    r = h("audit", "--rerun", "--from", base, "--to", "HEAD")
    assert r.code == 2 and "could not run on this machine" in r.err and "no problems" not in r.err, r.text
    assert "re-collect it honestly" not in r.text  # a missing tool is not the agent's dishonesty
    # What could not run checked nothing: the commit's stamp does not call it a PASS.
    assert json.loads(git(repo, "notes", "--ref", NOTES, "show", done).stdout)["verdict"] == "UNCHECKED"

    without = os.environ["PATH"]
    monkeypatch.setenv("PATH", f"{tool}{os.pathsep}{without}")
    assert h("audit", "--rerun", "--from", base, "--to", "HEAD").code == 0  # installed: it reproduces
    assert json.loads(git(repo, "notes", "--ref", NOTES, "show", done).stdout)["verdict"] == "PASS"
    # Gone again: the note's PASS is not contradicted by a re-run that checked nothing.
    monkeypatch.setenv("PATH", without)
    r = h("audit", "--rerun", "--from", base, "--to", "HEAD")
    assert r.code == 2 and "says PASS, recomputed" not in r.err, r.err


def test_rerun_environment_is_clean(h, repo, tmp_path, monkeypatch):
    """A variable the laptop (or the CI job) sets does not reach the re-run: PYTHONPATH here
    would make `import app` resolve elsewhere."""
    check = "import os, sys; sys.exit(1 if 'PYTHONPATH' in os.environ or 'GIT_DIR' in os.environ else 0)"
    monkeypatch.delenv("PYTHONPATH", raising=False)  # the evidence is recorded on a clean laptop, whatever ran pytest
    configure(repo, PASS_CMD, [PY, "-c", check])
    base = commit_all_ok(repo, "config")
    h.ok("task", "new", "Env").out.strip()
    to_gating(h)
    assert h("gate", "--advance").code == 0
    h.ok("transition", "DONE")
    commit_all_ok(repo, "done")
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    r = h("audit", "--rerun", "--from", base, "--to", "HEAD")
    assert r.code == 0, r.text


def test_a_token_in_a_configured_command_never_reaches_the_streamed_lines(h, repo, tmp_path, monkeypatch):
    token = "ghp_" + "A1b2C3d4" * 5
    configure(repo, PASS_CMD, [PY, "-c", "import sys; sys.exit(0)", token])
    base = commit_all_ok(repo, "config")
    h.ok("task", "new", "Token").out.strip()
    to_gating(h)
    assert h("gate", "--advance").code == 0
    h.ok("transition", "DONE")
    commit_all_ok(repo, "done")
    r = h("audit", "--json", "--rerun", "--from", base, "--to", "HEAD")
    assert r.code == 0, r.text
    assert token not in r.err and token not in r.out
    assert "unit_test" in r.err
