"""Cost follows the change: the guards read only what a commit changes, and still judge all of it.

Real repositories with many tasks, the native hook shims, real commits; the stamp's cache is
checked against a fresh computation commit by commit.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from harness import __version__
from harness.history.stamp_cache import FORMAT

from support.cli import Harness, walk_to
from support.flows import gated_done
from support.gitrepo import commit_all_ok, git, head, note, out, refused_commit
from support.records import set_state_by_hand, task_dir
from support.templates import Template, template

MANY = 12
# Real commits (and a merge) through the native hook shims, in the tests and in building ``many``:
# end-to-end by the suite's definition.
pytestmark = pytest.mark.e2e


@pytest.fixture(scope="session")
def many_template(tmp_path_factory, h_template) -> Template:
    """What ``many`` copies: the native shims installed and MANY tasks committed through them."""

    def build(repo: Path, h: Harness) -> dict:
        h.ok("install")
        ids = [h.ok("task", "new", f"Task number {n}").out.strip() for n in range(MANY)]
        commit_all_ok(repo, "many tasks")
        return {"ids": ids}

    return template(tmp_path_factory, "many", build, on=h_template)


@pytest.fixture
def many(many_template: Template, h: Harness, repo: Path) -> list[str]:
    """``repo`` with the native shims and MANY committed tasks (the last one current)."""
    return list(many_template.data["ids"])


def hook_validate(repo: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "harness", "hook", "validate"], cwd=repo,
                          capture_output=True, text=True, check=False)


# -- one task among many ------------------------------------------------------------------

def test_a_hand_edit_of_one_task_among_many_is_refused_naming_that_task(h, repo, many):
    victim = many[MANY // 2]
    set_state_by_hand(repo, victim, "DONE")
    git(repo, "add", "-A")
    text = refused_commit(repo, "claim one DONE")
    assert f".harness/tasks/{victim}/task.yaml" in text
    assert not any(tid in text for tid in many if tid != victim)


def test_a_rewritten_ledger_line_in_one_task_among_many_is_refused(h, repo, many):
    victim = many[3]
    ledger = task_dir(repo, victim) / "events.jsonl"
    ledger.write_text(ledger.read_text("utf-8").replace("Task number 3", "Task number 33"), "utf-8")
    git(repo, "add", "-A")
    text = refused_commit(repo, "rewrite history")
    assert "ledger-append-only" in text and victim in text


def test_deleting_one_task_among_many_is_refused(h, repo, many):
    git(repo, "rm", "-r", "-q", f".harness/tasks/{many[0]}")
    text = refused_commit(repo, "drop a task")
    assert "tasks-never-deleted" in text and many[0] in text


def test_a_legitimate_change_to_one_task_among_many_commits(h, repo, many):
    h.ok("task", "switch", many[5])
    walk_to(h, "SPECIFYING")
    sha = commit_all_ok(repo, "one task moves")
    stamp = note(repo, sha)
    assert stamp is not None and stamp["tasks"][many[5]]["state"] == "SPECIFYING"
    assert len(stamp["tasks"]) == MANY


def test_a_task_gated_to_done_among_many_has_its_gate_recomputed(h, repo, many):
    tid = gated_done(h, "The one that finishes")
    # Code changed after the gate PASS: the committed tree is not the one the gate judged.
    (repo / "app.py").write_text("def answer():\n    return 43\n")
    git(repo, "add", "-A")
    text = refused_commit(repo, "done, with untested code")
    assert "done-needs-gate-pass" in text and tid in text
    git(repo, "checkout", "-q", "HEAD", "--", "app.py")
    sha = commit_all_ok(repo, "done")
    assert note(repo, sha)["tasks"][tid]["gate"] == "PASS"


def test_audit_of_a_no_verify_commit_touching_one_task_among_many_refuses_it(h, repo, many):
    set_state_by_hand(repo, many[-1], "DONE")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "-m", "sneak")
    bad = head(repo)
    r = h("audit", "--from", "HEAD~1", "--to", "HEAD")
    assert r.code == 1 and bad[:12] in r.text and many[-1] in r.text


# -- global files -------------------------------------------------------------------------

def test_a_gate_loosening_with_every_task_unchanged_is_refused(h, repo, many):
    gate = repo / ".harness/gate.yaml"
    gate.write_text(gate.read_text("utf-8").replace("major_allowed: 0", "major_allowed: 1"), "utf-8")
    git(repo, "add", "-A")
    assert "gate-only-tightens" in refused_commit(repo, "loosen")


CONFIGURED = 'evidence:\n  unit_test:\n    command: ["python3", "-m", "pytest", "-q"]\n'


def test_an_evidence_command_swap_with_every_task_unchanged_is_refused(h, repo, many):
    config = repo / ".harness/config.yaml"
    config.write_text(config.read_text("utf-8").replace("evidence: {}\n", CONFIGURED), "utf-8")
    # A first command for a type needs a human's approval too (F-0108): committed around the check, as what is
    # tested is the swap that follows.
    commit_all_ok(repo, "name the unit_test command", "--no-verify")
    config.write_text(config.read_text("utf-8").replace('["python3", "-m", "pytest", "-q"]', '["true"]'), "utf-8")
    git(repo, "add", "-A")
    text = refused_commit(repo, "swap pytest for true")
    assert "evidence-commands-need-approval" in text and "harness approve config-change" in text


def test_an_approvals_change_alone_among_many_tasks_commits(h, repo, many):
    """approvals.jsonl is what the gate and config checks consult: changing it alone re-runs
    them (nothing loosened here, so the commit is accepted)."""
    (repo / ".harness/approvals.jsonl").write_text("")
    commit_all_ok(repo, "an empty approvals file")


def test_an_invalid_config_with_every_task_unchanged_is_refused(h, repo, many):
    config = repo / ".harness/config.yaml"
    config.write_text(config.read_text("utf-8") + "no_such_key: 1\n", "utf-8")
    git(repo, "add", "-A")
    text = refused_commit(repo, "bad config")
    assert ".harness/config.yaml" in text and "no_such_key" in text


def test_a_task_entering_done_is_gated_with_the_committed_config(h, repo, many):
    """config.yaml names the unit_test command in the same commit as a task entering DONE with
    evidence from another command: the gate, recomputed on the committed content, refuses."""
    tid = gated_done(h, "Gated before the config changed")
    config = repo / ".harness/config.yaml"
    config.write_text(config.read_text("utf-8").replace("evidence: {}\n", CONFIGURED), "utf-8")
    git(repo, "add", "-A")
    text = refused_commit(repo, "done, with a config naming another command")
    assert "done-needs-gate-pass" in text and tid in text


# -- the stamp's cache --------------------------------------------------------------------

def fresh_stamp(repo: Path, rev: str) -> tuple[str, dict]:
    from harness.gitio.git import Git
    from harness.history.stamp import stamp_for
    from harness.signatures.trust import Signers

    return stamp_for(Git(repo), head(repo, rev), Signers())  # no cache: everything computed from content


def test_a_cached_stamp_equals_a_freshly_computed_one_commit_by_commit(h, repo, many):
    done = gated_done(h, "Finished")
    commits = [commit_all_ok(repo, "one done")]
    (repo / "app.py").write_text("def answer():\n    return 43\n")
    commits.append(commit_all_ok(repo, "code only"))
    h.ok("task", "switch", many[2])
    walk_to(h, "SPECIFYING")
    commits.append(commit_all_ok(repo, "one task moves"))
    gate = repo / ".harness/gate.yaml"
    gate.write_text(gate.read_text("utf-8").replace("max_iterations: 5", "max_iterations: 4"), "utf-8")
    commits.append(commit_all_ok(repo, "tighten the gate"))
    (repo / "app.py").write_text("def answer():\n    return 44\n")
    commits.append(commit_all_ok(repo, "code again"))
    cache = repo / ".git" / "harness" / "stamp-cache.json"
    assert cache.is_file()
    for sha in commits:
        stamped = note(repo, sha)
        ref, fresh = fresh_stamp(repo, sha)
        assert ref == "refs/notes/harness"
        assert stamped == fresh, sha
    assert note(repo, commits[0])["tasks"][done]["gate"] == "PASS"
    # Re-stamping with the cache gone writes the very same note.
    before = note(repo, commits[-1])
    cache.unlink()
    h.ok("stamp", commits[-1])
    assert note(repo, commits[-1]) == before


def test_a_corrupt_or_foreign_stamp_cache_is_ignored(h, repo, many):
    cache = repo / ".git" / "harness" / "stamp-cache.json"
    cache.write_text("{not json")
    (repo / "app.py").write_text("def answer():\n    return 45\n")
    sha = commit_all_ok(repo, "code")
    assert note(repo, sha) == fresh_stamp(repo, sha)[1]
    lines = cache.read_text().splitlines()
    assert json.loads(lines[0]) == {"harness": __version__, "format": FORMAT}
    # Entries of another harness version are not this one's: poison them and re-stamp.
    poisoned = [json.dumps({"harness": "0.0.0-other"})]
    for line in lines[1:]:
        key, value = json.loads(line)
        poisoned.append(json.dumps([key, {"state": "DONE", "iteration": 99} if key.startswith("task:") else value]))
    cache.write_text("\n".join(poisoned) + "\n")
    h.ok("stamp", sha)
    assert note(repo, sha) == fresh_stamp(repo, sha)[1]
    # So are those of this version written in an older format (facts without the commands' identities).
    poisoned[0] = json.dumps({"harness": __version__})
    cache.write_text("\n".join(poisoned) + "\n")
    h.ok("stamp", sha)
    assert note(repo, sha) == fresh_stamp(repo, sha)[1]
    # A torn last line (a writer killed mid-append) costs only that entry.
    cache.write_text(cache.read_text() + '["task:TASK-x", {"sta')
    (repo / "app.py").write_text("def answer():\n    return 50\n")
    sha = commit_all_ok(repo, "more code")
    assert note(repo, sha) == fresh_stamp(repo, sha)[1]


def test_the_stamp_cache_stays_bounded_over_many_commits(h, repo, many, monkeypatch):
    from harness.history import stamp_cache

    monkeypatch.setattr(stamp_cache, "KEEP", 8)
    cache = repo / ".git" / "harness" / "stamp-cache.json"
    from harness.gitio.git import Git
    from harness.history.stamp import stamp
    from harness.signatures.trust import Signers

    for n in range(6):
        (repo / "app.py").write_text(f"def answer():\n    return {100 + n}\n")
        git(repo, "add", "app.py")
        git(repo, "commit", "-q", "--no-verify", "-m", f"code {n}",
            env={"GIT_CONFIG_PARAMETERS": "'core.hookspath=/dev/null'"})
        stamp(Git(repo), head(repo), Signers())
    keys = [json.loads(line)[0] for line in cache.read_text().splitlines()[1:]]
    # What the last stamp used — each open task's state, gate facts, what they rest on and verdict at the
    # last tree, the policy, notes ref and .harness/ snapshot — plus at most KEEP others; unbounded, every
    # commit's verdicts (MANY per source tree) would pile up.
    assert len(set(keys)) <= 4 * MANY + 3 + 8, len(set(keys))
    assert note(repo, head(repo)) == fresh_stamp(repo, "HEAD")[1]


# -- a code-only commit -------------------------------------------------------------------

@pytest.fixture
def traced(repo: Path, tmp_path: Path) -> Path:
    """The native shims made to log every Python start (stage and arguments) to a file."""
    log = tmp_path / "python-starts.log"
    wrapper = tmp_path / "python-wrapper"
    wrapper.write_text(f"#!/bin/sh\necho \"$*\" >> {log}\nexec {sys.executable} \"$@\"\n")
    wrapper.chmod(0o755)
    for shim in (repo / ".git" / "hooks").iterdir():
        text = shim.read_text() if shim.is_file() and not shim.name.endswith(".sample") else ""
        if "engineering-harness native hook shim" in text:
            shim.write_text(text.replace(f'py="{sys.executable}"', f'py="{wrapper}"'))
    return log


def starts(log: Path) -> str:
    return log.read_text() if log.exists() else ""


def test_a_code_only_commit_starts_python_only_for_the_stamp(h, repo, many, traced):
    (repo / "app.py").write_text("def answer():\n    return 46\n")
    sha = commit_all_ok(repo, "code only")
    assert "hook run pre-commit" not in starts(traced)
    assert "hook run post-commit" in starts(traced)
    assert note(repo, sha) is not None


def test_a_staged_harness_change_still_starts_the_commit_checks(h, repo, many, traced):
    set_state_by_hand(repo, many[1], "DONE")
    git(repo, "add", "-A")
    text = refused_commit(repo, "hand DONE")
    assert "hook run pre-commit" in starts(traced) and many[1] in text


def test_commit_a_of_a_hand_edited_task_is_still_refused_by_the_shim(h, repo, many, traced):
    set_state_by_hand(repo, many[4], "DONE")  # tracked, modified, not staged: `commit -a` stages it
    text = refused_commit(repo, "commit -a", "-a")
    assert many[4] in text and "hook run pre-commit" in starts(traced)


def test_commit_of_a_path_under_harness_is_still_refused_by_the_shim(h, repo, many, traced):
    set_state_by_hand(repo, many[6], "DONE")
    text = refused_commit(repo, "commit PATH", "--", f".harness/tasks/{many[6]}/task.yaml")
    assert many[6] in text


def test_concluding_a_merge_starts_the_commit_checks_even_when_harness_is_unchanged(h, repo, many, traced):
    base = head(repo)
    git(repo, "checkout", "-q", "-b", "side")
    (repo / "app.py").write_text("side\n")
    commit_all_ok(repo, "side")
    git(repo, "checkout", "-q", "main")
    (repo / "app.py").write_text("main\n")
    commit_all_ok(repo, "main")
    merge = git(repo, "merge", "side", check=False)
    assert merge.returncode != 0 and base  # a conflict in app.py: the merge is concluded by `git commit`
    (repo / "app.py").write_text("both\n")
    git(repo, "add", "app.py")
    commit_all_ok(repo, "merged", "--no-edit")
    assert "hook run pre-commit" in starts(traced)


def test_a_framework_hook_answers_a_code_only_commit_without_click_or_pygit2(h, repo, many):
    (repo / "app.py").write_text("def answer():\n    return 47\n")
    git(repo, "add", "app.py")
    for args in (["hook", "validate"], ["hook", "merge-guard"]):
        p = subprocess.run([sys.executable, "-X", "importtime", "-m", "harness", *args], cwd=repo,
                           capture_output=True, text=True, check=False)
        assert p.returncode == 0, out(p)
        imported = {line.rsplit("|", 1)[-1].strip() for line in p.stderr.splitlines() if "|" in line}
        assert "click" not in imported and "pygit2._pygit2" not in imported, args


def test_the_launcher_still_runs_the_full_checks_when_harness_is_staged(h, repo, many):
    set_state_by_hand(repo, many[7], "DONE")
    git(repo, "add", "-A")
    r = hook_validate(repo)
    assert r.returncode == 1 and many[7] in out(r)


def test_the_stamp_keeps_working_when_the_git_dir_cache_folder_cannot_be_made(h, repo, many):
    folder = repo / ".git" / "harness"
    shutil.rmtree(folder, ignore_errors=True)
    folder.write_text("a file where the cache folder goes")
    (repo / "app.py").write_text("def answer():\n    return 48\n")
    sha = commit_all_ok(repo, "code")
    assert note(repo, sha) == fresh_stamp(repo, sha)[1]


def test_the_stamp_of_a_code_only_commit_needs_no_pygit2_and_equals_a_fresh_one(h, repo, many):
    h.ok("task", "switch", many[0])
    walk_to(h, "SPECIFYING")
    commit_all_ok(repo, "a task moves")  # stamped in full: the cache now knows this .harness/ tree
    (repo / "app.py").write_text("def answer():\n    return 49\n")
    git(repo, "add", "app.py")
    git(repo, "commit", "-q", "--no-verify", "-m", "code only", env={"GIT_CONFIG_PARAMETERS": "'core.hookspath=/dev/null'"})
    sha = head(repo)
    assert note(repo, sha) is None
    p = subprocess.run([sys.executable, "-X", "importtime", "-m", "harness", "hook", "run", "post-commit"], cwd=repo,
                       capture_output=True, text=True, check=False)
    assert p.returncode == 0, out(p)
    imported = {line.rsplit("|", 1)[-1].strip() for line in p.stderr.splitlines() if "|" in line}
    assert "pygit2._pygit2" not in imported and "click" not in imported
    assert note(repo, sha) == fresh_stamp(repo, sha)[1]
    assert note(repo, sha)["tasks"][many[0]]["state"] == "SPECIFYING"


def test_the_code_only_answer_and_the_quick_stamp_hold_from_a_subdirectory(h, repo, many):
    sub = repo / "pkg"
    sub.mkdir()
    (sub / "mod.py").write_text("x = 1\n")
    set_state_by_hand(repo, many[8], "DONE")
    git(repo, "add", "-A")
    p = subprocess.run([sys.executable, "-m", "harness", "hook", "validate"], cwd=sub, capture_output=True, text=True,
                       check=False)
    assert p.returncode == 1 and many[8] in out(p)  # `.harness` is the top folder's, not pkg/.harness
    git(repo, "reset", "-q", "--hard")
    (repo / "app.py").write_text("def answer():\n    return 51\n")
    git(repo, "add", "app.py")
    git(repo, "commit", "-q", "--no-verify", "-m", "code", env={"GIT_CONFIG_PARAMETERS": "'core.hookspath=/dev/null'"})
    p = subprocess.run([sys.executable, "-m", "harness", "hook", "run", "post-commit"], cwd=repo / ".harness",
                       capture_output=True, text=True, check=False)
    assert p.returncode == 0, out(p)
    assert note(repo, head(repo)) == fresh_stamp(repo, "HEAD")[1]


def test_a_symlink_inside_one_task_among_many_is_refused(h, repo, many):
    (task_dir(repo, many[9]) / "notes.md").symlink_to("../../config.yaml")
    git(repo, "add", "-A")
    text = refused_commit(repo, "a link in a task folder")
    assert "plain-files-only" in text and f".harness/tasks/{many[9]}/notes.md" in text


def test_a_cached_stamp_equals_a_fresh_one_with_configured_evidence_commands(h, repo, many):
    config = repo / ".harness/config.yaml"
    config.write_text(config.read_text("utf-8").replace("evidence: {}\n", CONFIGURED), "utf-8")
    first = commit_all_ok(repo, "name the unit_test command", "--no-verify")  # its approval is not what is tested
    h.ok("task", "switch", many[3])
    walk_to(h, "SPECIFYING")
    second = commit_all_ok(repo, "a task moves")
    (repo / "app.py").write_text("def answer():\n    return 52\n")
    third = commit_all_ok(repo, "code only")  # the quick stamp: configured commands redacted at use
    for sha in (first, second, third):
        assert note(repo, sha) == fresh_stamp(repo, sha)[1], sha
