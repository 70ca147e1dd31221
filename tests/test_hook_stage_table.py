"""One table of git hook stages (harness/install/hook_stages.py): the files made from it are the committed
ones, and the framework's hooks, the shims, the stage runner and the installer all follow it."""

from __future__ import annotations

import pytest
import yaml

from harness.install.hook_files import generated, write
from harness.install.hook_stages import CLIENT_STAGES, FRAMEWORK_HOOKS, SERVER_STAGES, STAGES
from harness.install.shims import MARKER

from support.flows import gated_done
from support.gitrepo import commit, commit_all_ok, git, head, out
from support.paths import ROOT


def test_the_committed_hook_files_are_the_ones_the_stage_table_makes():
    for path, text in generated(ROOT).items():
        assert path.read_text("utf-8") == text, f"{path.relative_to(ROOT)} is stale: python -m harness.install.hook_files"


def test_the_generator_rewrites_a_stale_file_and_leaves_a_current_one(tmp_path):
    (tmp_path / "hooks").mkdir()
    assert sorted(write(tmp_path)) == sorted(generated(tmp_path))
    (tmp_path / ".pre-commit-hooks.yaml").write_text("- id: by-hand\n", "utf-8")
    assert write(tmp_path) == [tmp_path / ".pre-commit-hooks.yaml"]
    assert write(tmp_path) == []


def test_the_framework_runs_at_each_git_stage_what_the_shim_runs_there():
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text("utf-8"))
    for stage in STAGES:
        framework = {hk["entry"].removeprefix("harness hook ") for hk in hooks if stage.name in hk["stages"]}
        assert framework == (set() if stage.server else set(stage.checks)), stage.name


def test_every_check_the_table_names_is_a_hook_command():
    from harness.cli.hooks import STAGE_CHECKS, hook

    for stage in STAGES:
        assert all(STAGE_CHECKS[check] is hook.commands[check] for check in stage.checks), stage.name
    assert all(fh.check in hook.commands for fh in FRAMEWORK_HOOKS)


def test_the_launcher_answers_without_the_cli_exactly_the_commit_checks_and_the_stamps():
    from harness.cli.launch import COMMIT_CHECKS, STAMPS

    assert sorted(COMMIT_CHECKS) == [["hook", "merge-guard"], ["hook", "run", "pre-commit"], ["hook", "validate"]]
    assert sorted(STAMPS) == [["hook", "run", "post-commit"], ["hook", "run", "post-merge"],
                              ["hook", "run", "post-rewrite"], ["hook", "stamp"]]


def test_an_unknown_stage_is_refused_naming_every_stage_of_the_table(h):
    r = h("hook", "run", "pre-rebase")
    assert r.code == 2
    assert f"one of: {', '.join(s.name for s in STAGES)}" in r.err


def test_the_stage_runner_help_names_every_stage_of_the_table(h):
    text = h.ok("hook", "run", "--help").out
    assert all(stage.name in text for stage in STAGES)


def test_install_writes_a_shim_for_each_client_stage_and_none_for_the_server(h, repo):
    h.ok("install")
    hooks = repo / ".git" / "hooks"
    assert all(MARKER in (hooks / name).read_text("utf-8") for name in CLIENT_STAGES)
    assert not any((hooks / name).exists() for name in SERVER_STAGES)


def _conflicted_merge(repo, branch: str) -> str:
    """Merge ``branch`` into main over a conflict in notes.txt, resolve it and stage it; main's tip."""
    git(repo, "checkout", "-q", branch)
    (repo / "notes.txt").write_text("branch side\n")
    commit_all_ok(repo, "branch notes")
    git(repo, "checkout", "-q", "main")
    (repo / "notes.txt").write_text("main side\n")
    tip = commit_all_ok(repo, "main notes")
    p = git(repo, "merge", "--no-ff", "-m", "merge", branch, check=False)
    assert p.returncode != 0 and "CONFLICT" in out(p), out(p)
    (repo / "notes.txt").write_text("both sides\n")
    git(repo, "add", "notes.txt")
    return tip


@pytest.mark.e2e
def test_the_native_pre_commit_concluding_a_conflicted_merge_runs_the_merge_guard(h, repo):
    h.ok("install")
    commit_all_ok(repo, "harness init")
    git(repo, "checkout", "-q", "-b", "sneaky")
    original = (repo / "app.py").read_text()
    gated_done(h)
    (repo / "app.py").write_text("def answer():\n    return 'never tested'\n")
    bad = commit_all_ok(repo, "DONE on untested code", "--no-verify")
    (repo / "app.py").write_text(original)
    commit_all_ok(repo, "put the tested code back")
    git(repo, "checkout", "-q", "main")
    tip = _conflicted_merge(repo, "sneaky")
    p = commit(repo, "merge sneaky")
    assert p.returncode != 0, f"the merge was accepted:\n{out(p)}"
    assert "merge guard" in out(p) and bad[:12] in out(p), out(p)
    assert head(repo) == tip


@pytest.mark.e2e
def test_the_native_pre_commit_concludes_a_conflicted_merge_of_plain_code(h, repo):
    h.ok("install")
    commit_all_ok(repo, "harness init")
    git(repo, "branch", "topic")
    tip = _conflicted_merge(repo, "topic")
    p = commit(repo, "merge topic")
    assert p.returncode == 0, out(p)
    assert head(repo) != tip and len(git(repo, "rev-list", "--parents", "-n1", "HEAD").stdout.split()) == 3
