"""Evidence freshness: evidence counts for exactly the source tree (code minus .harness/) it ran on."""

from __future__ import annotations

import json
import os
import re
import sys
import time
from pathlib import Path

from harness import resources
from harness.gitio.git import Git

from support.cli import TO_VERIFYING, gate_json, status_json, walk_to
from support.gitrepo import git
from support.processes import py

PY = sys.executable


def record(repo: Path, tid: str, etype: str) -> dict:
    return json.loads((repo / ".harness/tasks" / tid / "evidence" / f"{etype}.json").read_text("utf-8"))


def to_gating_with_pass(h) -> None:
    """A must requirement verified by unit_test; build + unit_test collected; task in GATING."""
    h.ok("requirement", "add", "The answer is 42", "--priority", "must")
    walk_to(h, *TO_VERIFYING)
    h.ok("evidence", "build", "--", *py("pass"))
    h.ok("evidence", "unit_test", "--", *py("pass"))
    h.ok("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "unit_test")
    walk_to(h, "REVIEWING", "GATING")


# Edits below change a file's size on purpose: a same-size edit in the same second as
# the last index write is the racy-git case, tested on its own at the end of this file.

# -- commits ----------------------------------------------------------------------------

def test_committing_only_harness_changes_keeps_evidence_fresh(h, repo, task):
    to_gating_with_pass(h)
    assert h("gate").code == 0
    git(repo, "add", ".harness")
    git(repo, "commit", "-qm", "harness records")
    assert git(repo, "status", "--porcelain").stdout == ""
    st = status_json(h)
    assert {t: e["freshness"] for t, e in st["evidence"].items()} == {"build": "FRESH", "unit_test": "FRESH"}
    code, doc = gate_json(h)
    assert (code, doc["verdict"], doc["blockers"]) == (0, "PASS", [])
    assert doc["tree"] == record(repo, task, "unit_test")["tree"] == Git(repo).source_tree("HEAD")


def test_evidence_on_dirty_tree_is_fresh_at_the_commit_that_records_it_exactly(h, repo, task):
    (repo / "app.py").write_text("def answer():\n    return 6 * 7 + 1\n")
    (repo / "new_module.py").write_text("X = 1\n")  # untracked, not ignored: part of the source
    h.ok("evidence", "unit_test", "--", *py("pass"))
    rec = record(repo, task, "unit_test")
    g = Git(repo)
    assert rec["dirty"] is True
    assert rec["tree"] != g.source_tree("HEAD")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "the change and its evidence")
    assert g.source_tree("HEAD") == rec["tree"]
    assert status_json(h)["evidence"]["unit_test"]["freshness"] == "FRESH"


def test_partial_commit_of_a_dirty_tree_is_not_the_evidence_tree(h, repo, task):
    (repo / "util.py").write_text("def helper():\n    return 1\n")
    git(repo, "add", "util.py")
    git(repo, "commit", "-qm", "util")
    (repo / "app.py").write_text("def answer():\n    return 6 * 7 + 1\n")
    (repo / "util.py").write_text("def helper():\n    return 1 + 1\n")
    h.ok("evidence", "unit_test", "--", *py("pass"))
    rec = record(repo, task, "unit_test")
    git(repo, "commit", "-qm", "only app.py", "app.py")
    g = Git(repo)
    committed = g.source_tree("HEAD")
    assert committed != rec["tree"], "evidence of app.py + util.py must not count for a commit of app.py alone"
    assert g.changed_paths(rec["tree"], committed)[0] == ["util.py"]
    # the working directory still holds exactly what was tested
    assert g.worktree_source_tree() == rec["tree"]
    git(repo, "commit", "-qm", "the rest", "util.py")
    assert g.source_tree("HEAD") == rec["tree"]


def test_staging_does_not_change_the_source_tree_and_the_index_is_untouched(h, repo, task):
    (repo / "app.py").write_text("def answer():\n    return 6 * 7 + 1\n")
    (repo / "extra.py").write_text("Y = 2\n")
    h.ok("evidence", "unit_test", "--", *py("pass"))
    h.ok("status")
    # computing source trees never stages anything for the user
    assert git(repo, "diff", "--cached", "--name-only").stdout == ""
    assert "?? extra.py" in git(repo, "status", "--porcelain").stdout
    git(repo, "add", "app.py")
    assert status_json(h)["evidence"]["unit_test"]["freshness"] == "FRESH"


# -- changes after the run --------------------------------------------------------------

def test_status_json_reports_fresh_then_stale_naming_the_changed_path(h, repo, task):
    h.ok("evidence", "build", "--", *py("pass"))
    ev = status_json(h)["evidence"]["build"]
    assert (ev["freshness"], ev["changed"], ev["changed_total"]) == ("FRESH", [], 0)
    (repo / "app.py").write_text("def answer():\n    return 6 * 7 - 1\n")
    ev = status_json(h)["evidence"]["build"]
    assert ev["freshness"] == "STALE"
    assert ev["changed"] == ["app.py"] and ev["changed_total"] == 1
    text = h.ok("status").out
    assert re.search(r"build PASS STALE — changed since: app\.py", text), text


def test_new_untracked_file_makes_evidence_stale(h, repo, task):
    h.ok("evidence", "build", "--", *py("pass"))
    (repo / "brand_new.py").write_text("Z = 3\n")
    ev = status_json(h)["evidence"]["build"]
    assert ev["freshness"] == "STALE" and ev["changed"] == ["brand_new.py"]


def test_deleting_a_tracked_file_makes_evidence_stale(h, repo, task):
    h.ok("evidence", "build", "--", *py("pass"))
    (repo / "app.py").unlink()
    ev = status_json(h)["evidence"]["build"]
    assert ev["freshness"] == "STALE" and ev["changed"] == ["app.py"]


def test_reverting_a_change_makes_evidence_fresh_again(h, repo, task):
    h.ok("evidence", "build", "--", *py("pass"))
    original = (repo / "app.py").read_text()
    (repo / "app.py").write_text(original + "# temporary\n")
    assert status_json(h)["evidence"]["build"]["freshness"] == "STALE"
    (repo / "app.py").write_text(original)
    assert status_json(h)["evidence"]["build"]["freshness"] == "FRESH"


def test_ignored_and_harness_files_do_not_affect_freshness(h, repo, task):
    (repo / ".gitignore").write_text("build/\n*.pyc\n")
    git(repo, "add", ".gitignore")
    git(repo, "commit", "-qm", "ignore")
    h.ok("evidence", "build", "--", *py("pass"))
    (repo / "build").mkdir()
    (repo / "build/out.bin").write_bytes(b"\x00" * 10)
    (repo / "cache.pyc").write_bytes(b"pyc")
    (repo / ".harness/notes.txt").write_text("scratch notes\n")
    assert status_json(h)["evidence"]["build"]["freshness"] == "FRESH"


def test_command_writing_only_into_harness_or_ignored_files_keeps_its_evidence_fresh(h, repo, task):
    (repo / ".gitignore").write_text("reports/\n")
    git(repo, "add", ".gitignore")
    git(repo, "commit", "-qm", "ignore reports")
    h.ok("evidence", "unit_test", "--", *py("""
        import os
        os.makedirs('reports', exist_ok=True)
        open('reports/result.txt', 'w').write('ok')
        open('.harness/local/scratch.txt', 'w').write('ok')
        open('.harness/cache.txt', 'w').write('ok')
    """))
    rec = record(repo, task, "unit_test")
    assert rec["tree_after"] is None
    assert status_json(h)["evidence"]["unit_test"]["freshness"] == "FRESH"


def test_command_modifying_source_records_tree_after_and_stays_bound_to_pre_run_tree(h, repo, task):
    before = Git(repo).worktree_source_tree()
    r = h("evidence", "lint", "--", *py("open('app.py', 'a').write('# formatted\\n')"))
    assert r.code == 0
    rec = record(repo, task, "lint")
    after = Git(repo).worktree_source_tree()
    assert after != before
    assert rec["tree"] == before
    assert rec["tree_after"] == after
    ev = status_json(h)["evidence"]["lint"]
    assert ev["freshness"] == "STALE" and ev["changed"] == ["app.py"]


def test_template_junit_report_location_keeps_evidence_fresh(h, repo, task):
    # config.yaml's template suggests a JUnit report path; following the suggestion must
    # not make the evidence stale the moment the report is written.
    template = resources.template("config.yaml").decode()
    m = re.search(r"^#\s*junit:\s*([^\s#]+)", template, re.M)
    assert m, "the config template documents a junit path"
    report = m.group(1)
    (repo / "test_ok.py").write_text("def test_ok():\n    assert True\n")
    git(repo, "add", "test_ok.py")
    git(repo, "commit", "-qm", "a test")
    # -B: the report is this test's subject; the bytecode pytest writes where the caller's shell keeps it
    # (__pycache__/, not ignored in this scratch repository) would make the evidence stale by itself (F-0054).
    h.ok("evidence", "unit_test", "--junit", report, "--",
         PY, "-B", "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_ok.py", f"--junitxml={report}")
    rec = record(repo, task, "unit_test")
    assert rec["outcome"] == "passed" and rec["passed"] == 1
    ev = status_json(h)["evidence"]["unit_test"]
    assert ev["freshness"] == "FRESH", f"writing {report} made the evidence stale: changed {ev['changed']}"


# -- freshness at the gate --------------------------------------------------------------

def test_stale_required_evidence_blocks_the_gate_naming_the_type(h, repo, task):
    to_gating_with_pass(h)
    assert h("gate").code == 0
    (repo / "app.py").write_text("def answer():\n    return 0\n")
    code, doc = gate_json(h)
    assert code == 1 and doc["verdict"] == "BLOCKED"
    assert any(b.startswith("build evidence is stale") for b in doc["blockers"])
    assert any(b.startswith("unit_test evidence is stale") for b in doc["blockers"])
    assert any("REQ-001 cites unit_test evidence that is stale" in b for b in doc["blockers"])
    text = h("gate")
    assert text.code == 1 and "QUALITY GATE: BLOCKED" in text.out and "unit_test evidence is stale" in text.out


def test_requirement_citing_stale_evidence_blocks_even_when_required_evidence_is_fresh(h, repo, task):
    h.ok("requirement", "add", "Integrates with the store", "--priority", "must")
    walk_to(h, *TO_VERIFYING)
    h.ok("evidence", "integration_test", "--", *py("pass"))
    h.ok("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "integration_test")
    (repo / "app.py").write_text("def answer():\n    return 42  # changed\n")
    h.ok("evidence", "build", "--", *py("pass"))
    h.ok("evidence", "unit_test", "--", *py("pass"))
    walk_to(h, "REVIEWING", "GATING")
    code, doc = gate_json(h)
    assert code == 1
    assert doc["blockers"] == ["REQ-001 cites integration_test evidence that is stale"]


def test_gate_pass_is_lost_by_a_code_change_and_regained_by_fresh_evidence(h, repo, task):
    to_gating_with_pass(h)
    assert h("gate").code == 0
    (repo / "app.py").write_text("def answer():\n    return 42  # refactored\n")
    assert h("gate").code == 1
    assert h("transition", "CONVERGED").code == 1
    h.ok("evidence", "build", "--", *py("pass"))
    h.ok("evidence", "unit_test", "--", *py("pass"))
    assert h("gate").code == 0
    h.ok("transition", "CONVERGED")


# -- an edit in the same second as the last index write ---------------------------------

def _make_racy_edit(repo: Path) -> None:
    """Edit app.py as if in the same second git last wrote its index (same size, same mtime).

    Git's own answer to this ("racy git") is to re-read any entry whose mtime is not
    older than the index file; the timestamps are set by hand so the test does not
    depend on the clock ticking over at the right moment.
    """
    app, index = repo / "app.py", repo / ".git/index"
    past = time.time_ns() - 100 * 10**9
    os.utime(app, ns=(past, past))
    git(repo, "update-index", "--refresh", check=False)  # the entry now records mtime `past`
    git(repo, "config", "core.trustctime", "false")       # compare like most filesystems: by mtime
    os.utime(index, ns=(past, past))                       # index written "in the same second"
    original = app.read_text()
    edited = original.replace("42", "41")
    assert len(edited) == len(original) and edited != original
    app.write_text(edited)
    os.utime(app, ns=(past, past))


def test_same_second_same_size_edit_changes_the_worktree_source_tree(repo):
    head_tree = Git(repo).source_tree("HEAD")
    _make_racy_edit(repo)
    worktree = Git(repo).worktree_source_tree()
    # git itself sees the change …
    assert git(repo, "diff", "--name-only").stdout.split() == ["app.py"]
    # … and so must the source tree the evidence is bound to
    assert worktree != head_tree, "an edit git reports was missed: the stat cache was trusted"


def test_same_second_same_size_edit_makes_evidence_stale(h, repo, task):
    h.ok("evidence", "build", "--", *py("pass"))
    _make_racy_edit(repo)
    ev = status_json(h)["evidence"]["build"]
    assert git(repo, "diff", "--name-only").stdout.split() == ["app.py"]
    assert ev["freshness"] == "STALE", "evidence reads FRESH for code it never ran on"
