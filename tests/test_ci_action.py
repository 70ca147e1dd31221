"""The GitHub Action's one script, `ci/audit.sh`, end to end: the events a CI sees, against a CI clone
of a local bare remote (fast-forward, force push to the default branch, new branch, pull request, tag)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from support.flows import forged_done_force_pushed, gated_done, hand_done_no_verify
from support.gitrepo import NOTES, ZERO, ci_clone, commit_all_ok, git, head, pushed_to_bare
from support.paths import ROOT

pytestmark = pytest.mark.e2e  # the CI action's script end to end against CI clones

SCRIPT = ROOT / "ci" / "audit.sh"


@pytest.fixture
def remote(h, repo, tmp_path) -> Path:
    return pushed_to_bare(repo, tmp_path)


def run_script(ci: Path, **env: str) -> subprocess.CompletedProcess:
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"  # `harness` on PATH, as after pip install
    return subprocess.run(["bash", str(SCRIPT)], cwd=ci, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PATH": path, **env})


def test_action_yml_is_a_composite_action_calling_the_script_with_its_inputs():
    action = yaml.safe_load((ROOT / "action.yml").read_text())
    assert action["runs"]["using"] == "composite"
    assert set(action["inputs"]) == {"python-version", "rerun", "allowed-signers", "mode", "commit", "verdicts", "jobs"}
    assert action["inputs"]["mode"]["default"] == "audit"  # the existing inputs alone: the audit as before
    (step,) = [s for s in action["runs"]["steps"] if "ci/audit.sh" in s.get("run", "")]
    script = SCRIPT.read_text()
    for name in step["env"]:
        assert name in script, f"action.yml passes {name}, which ci/audit.sh never reads"
    assert "inputs.rerun" in step["env"]["HARNESS_RERUN"]
    assert "inputs.allowed-signers" in step["env"]["HARNESS_ALLOWED_SIGNERS"]
    assert "inputs.jobs" in step["env"]["HARNESS_JOBS"]  # the aggregate hears the jobs' own results (F-0364)


def test_fast_forward_push_passes_and_rerun_runs(h, repo, remote, tmp_path):
    before = head(repo)
    gated_done(h)
    h.ok("stamp")
    done = commit_all_ok(repo, "done")
    git(repo, "push", "-q", "origin", "main", f"{NOTES}:{NOTES}")
    ci = ci_clone(remote, tmp_path / "ci")
    p = run_script(ci, HARNESS_EVENT="push", HARNESS_BEFORE=before, HARNESS_AFTER=done, HARNESS_RERUN="true")
    assert p.returncode == 1, p.stderr  # the task's evidence names no configured command: --rerun refuses
    assert "no evidence.build.command" in p.stderr and "fast-forward" in p.stderr
    p = run_script(ci, HARNESS_EVENT="push", HARNESS_BEFORE=before, HARNESS_AFTER=done)
    assert p.returncode == 0, p.stderr
    assert "1 commit(s) checked, no problems" in p.stderr
    assert git(ci, "rev-parse", "--verify", "-q", NOTES, check=False).returncode == 0  # stamps fetched


def test_force_push_of_a_forged_done_to_the_default_branch_fails_the_job(h, repo, remote, tmp_path):
    old_tip, tid, forged, ci = forged_done_force_pushed(h, repo, remote, tmp_path / "ci")
    p = run_script(ci, HARNESS_EVENT="push", HARNESS_BEFORE=old_tip, HARNESS_AFTER=forged)
    assert p.returncode == 1, p.stderr
    assert forged[:12] in p.stderr and f".harness/tasks/{tid}/" in p.stderr
    assert "every commit reachable" in p.stderr


def test_new_branch_with_a_forged_done_fails_the_job(h, repo, remote, tmp_path):
    git(repo, "switch", "-q", "-c", "feature")
    _, forged = hand_done_no_verify(repo, h)
    git(repo, "push", "-q", "origin", "feature")
    ci = ci_clone(remote, tmp_path / "ci")
    p = run_script(ci, HARNESS_EVENT="push", HARNESS_BEFORE=ZERO, HARNESS_AFTER=forged)
    assert p.returncode == 1 and forged[:12] in p.stderr, p.stderr


def test_pull_request_audits_base_to_head(h, repo, remote, tmp_path):
    base = head(repo)
    git(repo, "switch", "-q", "-c", "feature")
    gated_done(h)
    done = commit_all_ok(repo, "done")
    git(repo, "push", "-q", "origin", "feature")
    ci = ci_clone(remote, tmp_path / "ci")
    p = run_script(ci, HARNESS_EVENT="pull_request", HARNESS_BASE=base, HARNESS_HEAD=done)
    assert p.returncode == 0, p.stderr
    assert "a pull request" in p.stderr and "1 commit(s) checked" in p.stderr
    p = run_script(ci, HARNESS_EVENT="pull_request", HARNESS_HEAD=done)
    assert p.returncode != 0 and "base commit is needed" in p.stderr


def test_tag_push_audits_what_the_tag_reaches(h, repo, remote, tmp_path):
    _, forged = hand_done_no_verify(repo, h)
    git(repo, "tag", "-a", "v1", "-m", "release")
    tag_object = head(repo, "refs/tags/v1")
    git(repo, "push", "-q", "origin", "v1")
    ci = ci_clone(remote, tmp_path / "ci")
    p = run_script(ci, HARNESS_EVENT="push", HARNESS_BEFORE=ZERO, HARNESS_AFTER=tag_object)
    assert p.returncode == 1 and forged[:12] in p.stderr, p.stderr


def test_a_push_deleting_a_branch_has_nothing_to_audit_and_passes(h, repo, remote, tmp_path):
    git(repo, "push", "-q", "origin", "main:topic")
    topic = head(repo)
    git(repo, "push", "-q", "origin", "--delete", "topic")
    ci = ci_clone(remote, tmp_path / "ci")
    p = run_script(ci, HARNESS_EVENT="push", HARNESS_BEFORE=topic, HARNESS_AFTER=ZERO)
    assert p.returncode == 0, p.stderr
    assert "deleted the ref" in p.stderr and "nothing to audit" in p.stderr


# -- pull requests from forks ------------------------------------------------------------------------

def test_a_rerun_under_pull_request_target_is_refused_unless_the_workflow_opts_in(h, repo, remote, tmp_path):
    base = head(repo)
    git(repo, "switch", "-q", "-c", "feature")
    gated_done(h)
    done = commit_all_ok(repo, "done")
    git(repo, "push", "-q", "origin", "feature")
    ci = ci_clone(remote, tmp_path / "ci")
    event = {"HARNESS_EVENT": "pull_request_target", "HARNESS_BASE": base, "HARNESS_HEAD": done}
    p = run_script(ci, **event, HARNESS_RERUN="true")
    assert p.returncode == 2 and "refusing to re-run a pull request's code under pull_request_target" in p.stderr
    assert "commit(s) to check" not in p.stderr  # refused before anything ran
    p = run_script(ci, **event)  # no re-run: the audit reads git objects only
    assert p.returncode == 0 and "1 commit(s) checked" in p.stderr, p.stderr
    p = run_script(ci, **event, HARNESS_RERUN="true", HARNESS_ALLOW_UNTRUSTED_RERUN="true")
    assert "refusing to re-run" not in p.stderr and "rerun-reproduces" in p.stderr, p.stderr  # it re-ran
    p = run_script(ci, **{**event, "HARNESS_EVENT": "pull_request"}, HARNESS_RERUN="true")
    assert "refusing to re-run" not in p.stderr


def test_the_documented_workflow_leaves_no_token_for_the_commands_it_re_runs():
    docs = (ROOT / "docs" / "ci.md").read_text()
    workflow = yaml.safe_load(docs.split("```yaml\n", 1)[1].split("```", 1)[0])
    checkout = next(s for s in workflow["jobs"]["audit"]["steps"] if s["uses"].startswith("actions/checkout"))
    assert checkout["with"]["persist-credentials"] is False and checkout["with"]["fetch-depth"] == 0
    assert "pull_request_target" not in workflow[True]  # YAML reads the key `on` as true


# -- found by review (read 108's F-0378): the script a job runs is read whole before the re-run ------------------

FAKE_HARNESS = """#!/bin/sh
# A re-run's code in the job: it rewrites, in place (same inode), everything of the running script after the
# line that started the audit, then fails, as the audit of a commit whose tests fail in CI does.
case "$*" in *--version*) echo "harness 0"; exit 0;; esac
python3 - "$AUDIT_SH" <<'PY'
import sys
path = sys.argv[1]
with open(path, "r+b") as f:
    text = f.read()
    at = text.index(b"harness audit", text.index(b"# --output, not a redirection"))
    end = text.index(b"\\n", at) + 1
    f.seek(end)
    f.write(b'echo FORGED > "$out"; exit 0\\n' + b"#" * max(0, len(text) - end - 30) + b"\\n")
PY
exit 1
"""


def test_a_rerun_that_rewrites_the_rest_of_the_running_script_changes_nothing(tmp_path):
    """F-0378: bash reads a script as it runs it, and the job's user (the re-run's code) can write it: a rewritten
    tail after the audit's line made the job exit 0 with a forged verdict. The script is read whole first: the
    job ends with the audit's own exit and leaves the verdict the audit wrote (here none)."""
    script = tmp_path / "action" / "ci" / "audit.sh"
    script.parent.mkdir(parents=True)
    script.write_bytes(SCRIPT.read_bytes())
    bindir = tmp_path / "bin"
    bindir.mkdir()
    (bindir / "harness").write_text(FAKE_HARNESS, "utf-8")
    (bindir / "harness").chmod(0o755)
    env = {**os.environ, "PATH": f"{bindir}{os.pathsep}{os.environ['PATH']}", "AUDIT_SH": str(script),
           "HARNESS_MODE": "only", "HARNESS_COMMIT": "0" * 40, "HARNESS_OUT": str(tmp_path / "verdict.json"),
           "HARNESS_REMOTE": "nowhere"}
    env.pop("GITHUB_OUTPUT", None)
    work = tmp_path / "work"
    work.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=work, check=True)
    r = subprocess.run(["bash", str(script)], cwd=work, capture_output=True, text=True, timeout=60, env=env)
    assert b"FORGED" in script.read_bytes(), "the fake re-run did not rewrite the script: the test proves nothing"
    assert r.returncode == 1, (r.returncode, r.stdout, r.stderr)
    assert not (tmp_path / "verdict.json").exists() or "FORGED" not in (tmp_path / "verdict.json").read_text()
