"""`harness metrics` counts a DONE committed without a usable gate.yaml as a DONE claim with no gate PASS
(read 96's F-0327): dropping the policy in the same commit hid the bypass, and the claim."""

from __future__ import annotations

import json

import yaml

from support.cli import TO_VERIFYING, walk_to
from support.flows import collect_passing_evidence, finding, gate_to_converged, new_task
from support.gitrepo import commit_all_ok, git, head


def done_no_verify(h, repo, gate_yaml: str | None) -> str:
    """A task walked honestly to DONE, committed with --no-verify together with code the gate never judged;
    ``gate_yaml`` None: gate.yaml is kept, else it is written so in that commit (and put back in the next)."""
    new_task(h, "Change the answer")
    (repo / "app.py").write_text("def answer():\n    return 43\n")
    walk_to(h, *TO_VERIFYING)
    collect_passing_evidence(h)
    gate_to_converged(h)
    h.ok("transition", "DONE")
    (repo / "app.py").write_text("def answer():\n    return 44  # never gated\n")
    policy = repo / ".harness/gate.yaml"
    kept = policy.read_text()
    if gate_yaml == "":
        policy.unlink()
    elif gate_yaml is not None:
        policy.write_text(gate_yaml)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "done", "--no-verify")
    done = head(repo)
    if gate_yaml is not None:
        policy.write_text(kept)
        git(repo, "add", "-A")
        git(repo, "commit", "-qm", "gate.yaml back", "--no-verify")
    return done


def later_finding_on_app_py(h, repo, tmp_path) -> None:
    """Another task confirms a finding located in app.py, which the DONE task changed: a false done."""
    new_task(h, "Review the answer")
    walk_to(h, *TO_VERIFYING, "REVIEWING")
    proposal = tmp_path / "findings.yaml"
    proposal.write_text(yaml.safe_dump({"findings": [
        finding("answer is 44", "answer() is not 42", "import app, sys; sys.exit(app.answer() != 42)")]}))
    h.ok("finding", "propose", "--file", str(proposal))
    h.ok("finding", "reproduce", "F-0001")
    commit_all_ok(repo, "review")


def metrics(h, base: str) -> dict:
    return json.loads(h.ok("metrics", "--from", base, "--json").out)


def test_a_done_commit_that_deletes_gate_yaml_counts_as_a_bypass_and_as_a_claim(h, repo, tmp_path):
    base = commit_all_ok(repo, "harness init")
    done = done_no_verify(h, repo, "")
    later_finding_on_app_py(h, repo, tmp_path)
    doc = metrics(h, base)
    bypass = doc["gate_bypass"]
    assert (bypass["numerator"], bypass["denominator"]) == (1, 1), bypass
    assert bypass["ids"][0].startswith(done[:12]), bypass
    # Its changed files are known as any DONE claim's: a later finding on app.py contradicts it.
    assert doc["false_done"]["numerator"] == 1, doc["false_done"]


def test_a_done_commit_with_an_unreadable_gate_yaml_counts_as_a_bypass(h, repo, tmp_path):
    base = commit_all_ok(repo, "harness init")
    done_no_verify(h, repo, "version: [this is not a policy\n")
    bypass = metrics(h, base)["gate_bypass"]
    assert (bypass["numerator"], bypass["denominator"]) == (1, 1), bypass


def test_the_same_done_with_gate_yaml_kept_is_the_bypass_it_always_was(h, repo, tmp_path):
    """The neighbour: with the policy in place the DONE commit was counted already, and still is, once."""
    base = commit_all_ok(repo, "harness init")
    done_no_verify(h, repo, None)
    later_finding_on_app_py(h, repo, tmp_path)
    doc = metrics(h, base)
    assert (doc["gate_bypass"]["numerator"], doc["gate_bypass"]["denominator"]) == (1, 1), doc["gate_bypass"]
    assert doc["false_done"]["numerator"] == 1, doc["false_done"]


def test_an_honest_done_after_the_policy_is_back_is_a_claim_with_its_pass(h, repo, tmp_path):
    """The neighbour: a DONE committed with its gate PASS and gate.yaml in place is no bypass."""
    base = commit_all_ok(repo, "harness init")
    new_task(h, "Change the answer")
    (repo / "app.py").write_text("def answer():\n    return 43\n")
    walk_to(h, *TO_VERIFYING)
    collect_passing_evidence(h)
    gate_to_converged(h)
    h.ok("transition", "DONE")
    commit_all_ok(repo, "done")
    bypass = metrics(h, base)["gate_bypass"]
    assert (bypass["numerator"], bypass["denominator"]) == (0, 1), bypass
