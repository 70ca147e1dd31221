"""A task whose recorded base predates the harness (or that has none) is judged against the commands the history
adopted the harness with, not exempted as "the adoption" by its base alone: the base is HEAD when `harness task
new` ran, which an agent chooses (an orphan branch, a `git reset --soft` to a commit from before the adoption).
A command added after the real adoption needs a human's approval like any other (read 52's F-0098); the change
that adopts the harness still configures every command itself."""

from __future__ import annotations

import subprocess

import pytest

from support.cli import TO_VERIFYING, walk_to
from support.gitrepo import commit_all_ok, git, head
from support.paths import PY

INTRODUCED = "whose command is not the one config.yaml configured at the task's base"
ADDED = 'evidence:\n  custom.smoke:\n    command: ["true"]\n'


def _cite_smoke(h, repo) -> str:
    config = repo / ".harness/config.yaml"
    config.write_text(config.read_text().replace("evidence: {}\n", ADDED))
    h.ok("evidence", "custom.smoke")
    h.ok("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "custom.smoke")
    return h("gate").out


def _before_the_harness(repo, msg: str) -> str:
    """Commit everything but .harness/: a history from before the adoption."""
    git(repo, "add", "-A")
    git(repo, "rm", "-r", "-q", "--cached", "--ignore-unmatch", ".harness")
    git(repo, "commit", "-q", "--allow-empty", "-m", msg)
    return head(repo)


def _task(h) -> str:
    tid = h.ok("task", "new", "T").out.strip()
    h.ok("requirement", "add", "R", "--priority", "must")
    walk_to(h, *TO_VERIFYING)
    return tid


@pytest.mark.parametrize("how", ["orphan", "pre-adoption"])
def test_a_base_chosen_before_the_adoption_does_not_exempt_a_command_added_after_it(h, repo, how):
    (repo / "app.py").write_text("x = 1\n")
    pre = _before_the_harness(repo, "before the harness was adopted here")
    adoption = commit_all_ok(repo, "adopt the harness")  # the config.yaml commands as adopted: none
    if how == "orphan":
        git(repo, "checkout", "-q", "--orphan", "scratch")
        _task(h)
        git(repo, "checkout", "-q", "-f", "main")
    else:
        git(repo, "reset", "-q", "--soft", pre)
        _task(h)
        git(repo, "reset", "-q", "--soft", adoption)
    assert head(repo) == adoption
    assert INTRODUCED in _cite_smoke(h, repo)


@pytest.mark.parametrize("how", ["side-line", "orphan"])
def test_a_base_holding_the_agent_s_own_adoption_does_not_exempt_its_commands(h, repo, how):
    """Read 63a's F-0154, F-0159: a base holding config.yaml was taken at its word, even the agent's own adoption on
    a line begun before the real one, or an orphan root (a protected suite's base falls back to HEAD)."""
    (repo / "app.py").write_text("x = 1\n")
    pre = _before_the_harness(repo, "before the harness was adopted here")
    adoption = commit_all_ok(repo, "adopt the harness")  # the config.yaml commands as adopted: none
    if how == "side-line":
        git(repo, "checkout", "-q", "-b", "rival", pre)
        git(repo, "checkout", adoption, "--", ".harness")
    else:
        git(repo, "checkout", "-q", "--orphan", "rival")
    config = repo / ".harness/config.yaml"
    config.write_text(config.read_text().replace("evidence: {}\n", ADDED))
    commit_all_ok(repo, "the agent's own adoption, with a command of its own")
    _task(h)
    git(repo, "reset", "-q", "--soft", adoption)  # HEAD back on the project's line, the rival's files kept
    assert INTRODUCED in _cite_smoke(h, repo)


def test_a_commit_s_stamp_reads_its_own_history_wherever_head_is(h, repo):
    """Read 63a's F-0156: the stamp's source had no commit, so its adoption was read from HEAD's history: the
    note of a commit whose task's base predates the adoption said BLOCKED on it and PASS from an orphan branch."""
    import json

    (repo / "app.py").write_text("x = 1\n")
    pre = _before_the_harness(repo, "before the harness was adopted here")
    adoption = commit_all_ok(repo, "adopt the harness")
    git(repo, "reset", "-q", "--soft", pre)
    _task(h)
    git(repo, "reset", "-q", "--soft", adoption)
    _cite_smoke(h, repo)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "-m", "custom.smoke, its task based before the adoption")
    judged = head(repo)

    def introduced() -> list:
        return [b for t in json.loads(h.ok("stamp", judged, "--json").out)["tasks"].values()
                for b in t.get("blockers", []) if INTRODUCED in b]

    on_it = introduced()
    git(repo, "checkout", "-q", "--orphan", "elsewhere")
    assert introduced() == on_it != []


def test_a_base_on_the_adopted_line_is_taken_at_its_word(h, repo):
    """What the rule above must not refuse: a command the project configured after its adoption, at the base."""
    _before_the_harness(repo, "before")
    commit_all_ok(repo, "adopt the harness")
    config = repo / ".harness/config.yaml"
    config.write_text(config.read_text().replace("evidence: {}\n", ADDED))
    commit_all_ok(repo, "the project adds its smoke command")
    _task(h)
    assert INTRODUCED not in _cite_smoke(h, repo)


def test_the_change_that_adopts_the_harness_still_configures_its_commands(h, repo):
    """No commit of HEAD's history holds config.yaml: the working tree's adoption configures every type."""
    _before_the_harness(repo, "no harness committed yet")
    _task(h)
    # As `harness init` writes the gate for a configured type when nothing is committed yet: required.
    gate_yaml = repo / ".harness/gate.yaml"
    gate_yaml.write_text(gate_yaml.read_text().replace("    unit_test: required\n", "    unit_test: required\n    custom.smoke: required\n"))
    gate = _cite_smoke(h, repo)
    assert "QUALITY GATE: BLOCKED" in gate and INTRODUCED not in gate, gate
    assert not [line for line in gate.split("Blocking", 1)[-1].splitlines() if "REQ-001" in line and "custom.smoke" in line]


def test_a_command_as_the_adoption_configured_it_verifies(h, repo):
    """Adopted in one commit with custom.smoke configured, and not changed since: it verifies, base or no base."""
    config = repo / ".harness/config.yaml"
    pre = _before_the_harness(repo, "before")
    config.write_text(config.read_text().replace("evidence: {}\n", f'evidence:\n  custom.smoke:\n    command: ["{PY}", "-c", "pass"]\n'))
    adoption = commit_all_ok(repo, "adopt the harness with a smoke command")
    git(repo, "reset", "-q", "--soft", pre)
    _task(h)
    git(repo, "reset", "-q", "--soft", adoption)
    h.ok("evidence", "custom.smoke")
    h.ok("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "custom.smoke")
    assert INTRODUCED not in h("gate").out


# -- read 53: the adoption is the history's, whatever the base (F-0104..F-0106) ---------------------------------

def _tree_without_config(repo) -> str:
    """The index's tree with .harness/config.yaml taken out (the file stays on disk)."""
    git(repo, "rm", "-q", "--cached", ".harness/config.yaml")
    tree = git(repo, "write-tree").stdout.strip()
    git(repo, "add", ".harness/config.yaml")
    return tree


def test_a_merge_that_leaves_config_yaml_as_a_pre_adoption_parent_had_it_hides_no_adoption(h, repo):
    """F-0104: history simplification followed the merge's pre-adoption side, and the agent's re-adding commit was
    taken for the adoption."""
    pre = _before_the_harness(repo, "before")
    adoption = commit_all_ok(repo, "adopt the harness")
    git(repo, "reset", "-q", "--soft", pre)
    _task(h)
    git(repo, "reset", "-q", "--soft", adoption)
    merge = git(repo, "commit-tree", _tree_without_config(repo), "-p", adoption, "-p", pre, "-m", "merge").stdout.strip()
    git(repo, "reset", "-q", "--soft", merge)
    assert INTRODUCED in _cite_smoke(h, repo)


def test_a_base_taken_after_config_yaml_was_deleted_is_judged_against_the_adoption(h, repo):
    """F-0105: no reset trick: the base is HEAD, a commit after the adoption that deleted config.yaml."""
    _before_the_harness(repo, "before")
    commit_all_ok(repo, "adopt the harness")
    text = (repo / ".harness/config.yaml").read_text()
    git(repo, "rm", "-q", ".harness/config.yaml")
    git(repo, "commit", "-q", "-m", "config.yaml deleted")
    _task(h)
    (repo / ".harness/config.yaml").write_text(text)
    assert INTRODUCED in _cite_smoke(h, repo)


def test_a_scratch_base_on_top_of_head_without_config_yaml_exempts_nothing(h, repo):
    """F-0106: a commit made for the purpose (the adopted tree without config.yaml, HEAD its parent), reset to for
    `task new` and back: nothing after it holds config.yaml, so the change was taken for the adoption."""
    _before_the_harness(repo, "before")
    adoption = commit_all_ok(repo, "adopt the harness")
    scratch = git(repo, "commit-tree", _tree_without_config(repo), "-p", adoption, "-m", "scratch").stdout.strip()
    git(repo, "reset", "-q", "--soft", scratch)
    _task(h)
    git(repo, "reset", "-q", "--soft", adoption)
    assert INTRODUCED in _cite_smoke(h, repo)


def _fed(repo, data: str, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=repo, input=data, capture_output=True, text=True, check=True).stdout.strip()


def test_a_harness_path_another_tool_kept_long_ago_is_not_the_adoption(h, repo):
    """Read 54's F-0110: the adoption is where `.harness/config.yaml` first appeared, not any `.harness` path: a
    file of that name some other tool committed (and deleted) long before does not make every command introduced."""
    pre = _before_the_harness(repo, "before")
    blob = _fed(repo, "another tool's file\n", "hash-object", "-w", "--stdin")
    tree = _fed(repo, f"100644 blob {blob}\t.harness\n", "mktree")
    other = git(repo, "commit-tree", tree, "-p", pre, "-m", "another tool's .harness file").stdout.strip()
    gone = git(repo, "commit-tree", git(repo, "rev-parse", f"{pre}^{{tree}}").stdout.strip(), "-p", other,
               "-m", "that file deleted").stdout.strip()
    git(repo, "reset", "-q", "--soft", gone)
    config = repo / ".harness/config.yaml"
    config.write_text(config.read_text().replace("evidence: {}\n", f'evidence:\n  custom.smoke:\n    command: ["{PY}", "-c", "pass"]\n'))
    gate_yaml = repo / ".harness/gate.yaml"  # as `harness init` writes it for a configured type
    gate_yaml.write_text(gate_yaml.read_text().replace("    unit_test: required\n", "    unit_test: required\n    custom.smoke: required\n"))
    _task(h)  # before the adoption is committed: its base holds no config.yaml
    commit_all_ok(repo, "adopt the harness with a smoke command")
    h.ok("evidence", "custom.smoke")
    h.ok("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "custom.smoke")
    assert INTRODUCED not in h("gate").out


def test_a_task_based_where_two_adoptions_were_merged_is_judged_against_its_base(h, repo):
    """Read 64's F-0206: two colleagues each ran `harness init` and merged; a task started at the merge (where the
    refusal of such a history says to start) was INVALID_HARNESS_STATE once bases holding config.yaml were checked."""
    _before_the_harness(repo, "start")
    config = repo / ".harness/config.yaml"
    config.write_text(config.read_text().replace("evidence: {}\n", ADDED))
    git(repo, "checkout", "-q", "-b", "side")
    commit_all_ok(repo, "adopt the harness (side)")
    git(repo, "checkout", "-q", "main")
    git(repo, "checkout", "side", "--", ".harness")  # the same files, adopted on main on their own
    commit_all_ok(repo, "adopt the harness (main)")
    git(repo, "merge", "-q", "--no-edit", "--no-verify", "side")
    _task(h)
    gate = _cite_smoke(h, repo)
    assert "cannot tell where this history adopted" not in gate and INTRODUCED not in gate, gate
