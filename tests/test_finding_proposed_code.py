"""Only the reviewer's reproducer, run on the code it was proposed against, decides a finding (F-0324,
F-0326, F-0329): a proposal records the source tree, HEAD and the digest of each file its command names;
a run on other code or of an edited script is an attempt that neither confirms nor refutes; a command the
ledger would keep redacted cannot name the reviewer's command, and is refused when proposed."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import yaml

from harness.core.sha256 import sha256
from harness.gitio.git import Git

from support.flows import proposal, propose
from support.gitrepo import git, head
from support.records import append_event, events, ledger_bytes, tdir

PY = sys.executable
SCRIPT = "import os, sys\nsys.path.insert(0, os.getcwd())\nimport app\nsys.exit(0 if app.answer() == 41 else 1)\n"
EXIT_0 = "import sys\nsys.exit(0)\n"
TOKEN = "ghp_" + "a1B2c3D4e5" * 3 + "f6G7h8"  # a GitHub token's shape, 40 characters


def status(repo: Path, tid: str, fid: str = "F-0001") -> str:
    return yaml.safe_load((tdir(repo, tid) / "findings" / f"{fid}.yaml").read_text("utf-8"))["status"]


def with_script(repo: Path, rel: str, severity: str = "major") -> dict:
    """A proposal whose reproducer is the script ``rel`` (exit 1 while answer() is 42), written now."""
    (repo / rel).parent.mkdir(parents=True, exist_ok=True)
    (repo / rel).write_text(SCRIPT, "utf-8")
    doc = proposal(severity=severity)
    doc["recommended_reproducer"]["command"] = [PY, rel]
    return doc


def ignore(repo: Path, folder: str) -> None:
    with (repo / ".gitignore").open("a", encoding="utf-8") as f:
        f.write(f"{folder}/\n")


# -- F-0326: the files the reproducer's command names are bound to the finding ---------------------------------

def test_the_proposal_records_its_tree_head_and_the_digest_of_the_reproducers_script(h, ft, repo, tmp_path):
    assert propose(h, tmp_path, with_script(repo, "reproducers/r1.py")).code == 0
    data = events(repo, ft)[-1]["data"]
    assert data["tree"] == Git(repo).worktree_source_tree() and data["head"] == head(repo)
    # The interpreter is outside the repository, `-c` code is no file: only the script is bound.
    assert data["files"] == {"reproducers/r1.py": sha256(SCRIPT.encode()).hexdigest()}
    assert h("replay").code == 0


def test_an_edited_reproducer_script_neither_confirms_nor_refutes_and_a_restored_one_confirms(h, ft, repo, tmp_path):
    ignore(repo, "scratch")  # a script git ignores: the source tree is the proposal's, only the file differs
    assert propose(h, tmp_path, with_script(repo, "scratch/repro.py")).code == 0
    (repo / "scratch/repro.py").write_text(EXIT_0, "utf-8")
    r = h("finding", "reproduce", "F-0001")
    assert r.code == 0, r.text
    assert "only an attempt" in r.out and "scratch/repro.py" in r.out and "git log -- scratch/repro.py" in r.out
    assert status(repo, ft) == "REPRODUCING"
    r = h("finding", "reject", "F-0001", "--reason", "the reviewer's reproducer passes")
    assert r.code == 1 and "does not count" in r.err, r.text
    assert status(repo, ft) == "REPRODUCING"
    # Still allowed: the script put back as proposed is the reviewer's reproducer again.
    (repo / "scratch/repro.py").write_text(SCRIPT, "utf-8")
    r = h("finding", "reproduce", "F-0001")
    assert r.code == 0 and "only an attempt" not in r.out, r.text
    assert status(repo, ft) == "CONFIRMED"
    assert h("replay").code == 0


def test_a_failing_run_of_an_edited_script_confirms_nothing_either(h, ft, repo, tmp_path):
    ignore(repo, "scratch")
    doc = with_script(repo, "scratch/repro.py", severity="minor")
    (repo / "app.py").write_text("def answer():\n    return 41\n", "utf-8")  # the claim is wrong here
    assert propose(h, tmp_path, doc).code == 0
    (repo / "scratch/repro.py").write_text("import sys\nsys.exit(1)\n", "utf-8")
    r = h("finding", "reproduce", "F-0001")
    assert r.code == 0 and "only an attempt" in r.out, r.text
    assert status(repo, ft) == "REPRODUCING"


def test_a_file_that_did_not_exist_at_proposal_is_not_bound(h, ft, repo, tmp_path):
    ignore(repo, "scratch")
    doc = proposal()
    doc["recommended_reproducer"]["command"] = [PY, "-c", "import sys, app; sys.exit(app.answer() != 41)",
                                                "scratch/later.txt", "--not-a-file"]
    assert propose(h, tmp_path, doc).code == 0
    assert events(repo, ft)[-1]["data"]["files"] == {}
    (repo / "scratch").mkdir()
    (repo / "scratch/later.txt").write_text("written after the proposal\n", "utf-8")
    r = h("finding", "reproduce", "F-0001")
    assert r.code == 0 and "only an attempt" not in r.out, r.text
    assert status(repo, ft) == "CONFIRMED"


def test_a_rejection_is_not_kept_refuted_by_an_edited_script(h, ft, repo, tmp_path):
    (repo / "app.py").write_text("def answer():\n    return 41\n", "utf-8")  # the claim is wrong here
    assert propose(h, tmp_path, with_script(repo, "repro.py")).code == 0
    h.ok("finding", "reproduce", "F-0001")
    h.ok("finding", "reject", "F-0001", "--reason", "answer() is 41")
    assert json.loads(h.ok("status", "--json").out)["findings"]["major"] == 0
    (repo / "app.py").write_text("def answer():\n    return 42\n", "utf-8")  # the bug comes in later
    (repo / "repro.py").write_text(EXIT_0, "utf-8")                          # and its reproducer is silenced
    r = h("finding", "reproduce", "F-0001")
    assert r.code == 0 and "no re-check" in r.out and "repro.py" in r.out, r.text
    assert json.loads(h.ok("status", "--json").out)["findings"]["major"] == 1
    # Still allowed: the script as proposed re-checks the rejection on later code that keeps it true.
    (repo / "app.py").write_text("def answer():\n    return 41\n\n\n# later\n", "utf-8")
    (repo / "repro.py").write_text(SCRIPT, "utf-8")
    r = h("finding", "reproduce", "F-0001")
    assert r.code == 0 and "re-check" not in r.out, r.text
    assert json.loads(h.ok("status", "--json").out)["findings"]["major"] == 0


# -- F-0324: only a run on the code the finding was proposed against decides it --------------------------------

def test_a_fix_made_before_reproducing_leaves_the_run_an_attempt_until_run_on_the_proposed_code(h, ft, repo, tmp_path):
    assert propose(h, tmp_path, proposal()).code == 0
    (repo / "app.py").write_text("def answer():\n    return 41\n", "utf-8")  # fixed silently, no test
    r = h("finding", "reproduce", "F-0001")
    assert r.code == 0, r.text
    assert "only an attempt" in r.out and "other code than F-0001 was proposed against" in r.out
    assert status(repo, ft) == "REPRODUCING"
    r = h("finding", "reject", "F-0001", "--reason", "answer() is 41: the reviewer's reproducer passes")
    assert r.code == 1 and "does not count" in r.err, r.text
    assert status(repo, ft) == "REPRODUCING"
    # The way the message gives: the fix put aside, the proposed code confirms the finding.
    git(repo, "stash", "push", "--include-untracked", "--", ".", ":!.harness")
    r = h("finding", "reproduce", "F-0001")
    assert r.code == 0 and "only an attempt" not in r.out, r.text
    assert status(repo, ft) == "CONFIRMED"
    git(repo, "stash", "pop")
    assert "return 41" in (repo / "app.py").read_text("utf-8")


def test_a_finding_proposed_on_code_where_its_reproducer_passes_is_still_rejected(h, ft, repo, tmp_path):
    (repo / "app.py").write_text("def answer():\n    return 41\n", "utf-8")
    assert propose(h, tmp_path, proposal()).code == 0
    h.ok("finding", "reproduce", "F-0001")
    h.ok("finding", "reject", "F-0001", "--reason", "answer() is 41")
    assert status(repo, ft) == "REJECTED"


def test_a_proposal_recorded_before_the_tree_was_kept_decides_as_it_did(h, ft, repo, tmp_path):
    """An old ledger's proposal (no tree, no files) keeps today's rule: any run of the reviewer's command."""
    append_event(repo, ft, "finding.proposed", {"id": "F-0001", "content": proposal()})
    (repo / "app.py").write_text("def answer():\n    return 41\n", "utf-8")
    h.ok("finding", "reproduce", "F-0001")
    h.ok("finding", "reject", "F-0001", "--reason", "answer() is 41")
    assert status(repo, ft) == "REJECTED" and h("replay").code == 0


# -- F-0329: a reproducer the ledger would keep redacted names no command --------------------------------------

def test_a_reproducer_whose_command_holds_a_secret_is_refused_when_proposed(h, ft, repo, tmp_path):
    doc = proposal()
    doc["recommended_reproducer"]["command"] = [PY, "-c", "import sys; sys.exit(1)", TOKEN]
    before = ledger_bytes(repo, ft)
    r = propose(h, tmp_path, doc)
    assert r.code == 2, r.text
    assert "shaped like a secret" in r.err and "[REDACTED:" in r.err and "from a file" in r.err
    assert TOKEN not in r.text
    assert ledger_bytes(repo, ft) == before


def test_the_secret_read_from_a_file_is_proposed_and_its_file_is_not_bound(h, ft, repo, tmp_path):
    (repo / "token.txt").write_text(TOKEN + "\n", "utf-8")
    (repo / "check.py").write_text("import sys\nsys.exit(len(open(sys.argv[1]).read().strip()) != 41)\n", "utf-8")
    doc = proposal(claim=f"a 40-character token such as {TOKEN} is refused")  # free text: kept redacted
    doc["recommended_reproducer"]["command"] = [PY, "check.py", "token.txt"]
    r = propose(h, tmp_path, doc)
    assert r.code == 0, r.text
    assert list(events(repo, ft)[-1]["data"]["files"]) == ["check.py"]  # a digest of the token is no place for it
    kept = ledger_bytes(repo, ft)
    assert TOKEN.encode() not in kept and sha256((TOKEN + "\n").encode()).hexdigest().encode() not in kept
    h.ok("finding", "reproduce", "F-0001")
    assert status(repo, ft) == "CONFIRMED"


def test_a_ledger_holding_a_redacted_reproducer_still_replays(h, ft, repo, tmp_path):
    doc = proposal()
    doc["recommended_reproducer"]["command"] = [PY, "-c", "import sys; sys.exit(1)", "[REDACTED:github_token]"]
    append_event(repo, ft, "finding.proposed", {"id": "F-0001", "content": doc})  # as an older harness kept it
    assert h("replay", "--write").code == 0 and h("replay").code == 0
    assert status(repo, ft) == "PROPOSED"
