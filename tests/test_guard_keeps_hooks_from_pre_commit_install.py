"""`pre-commit install` over the harness's hooks (F-0309). Run over the native shims it keeps each as
`<stage>.legacy` and runs it first (the framework's migration mode, which the shim is written for), so a
plain `pre-commit install` leaves every harness check running and is allowed: this project installs it so,
and a repository under the framework installs its shim with it after a clone. `--overwrite` (`-f`) deletes
those `.legacy` hooks, and `-c FILE` makes the installed hooks read a config other than
`.pre-commit-config.yaml`, whose harness hooks the guard keeps: with no config there (and
`--allow-missing-config`) every check is skipped. Both are refused, however the options are spelled, and run
through `python -m pre_commit` too."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from harness.agent.judge.bypass import check_shell
from harness.agent.judge.git_config_view import GitSetup
from harness.agent.judge.guarded_paths import Where

from support.agent_guard import guard_answer
from support.cli import Harness
from support.gitrepo import git

HERE = Where("/repo", "/repo")

DENIED = [
    "pre-commit install --overwrite --allow-missing-config",
    "pre-commit install -f",
    "pre-commit install --over",
    "pre-commit install --o",
    "pre-commit install -t pre-push -f",
    "pre-commit install -ft pre-push",
    "pre-commit install --hook-type pre-commit --overwrite --hook-type pre-push",
    "pre-commit install -c other.yaml",
    "pre-commit install --config=other.yaml",
    "pre-commit install --con other.yaml --allow-missing-config",
    "pre-commit install -cother.yaml",
    "pre-commit install -fc other.yaml",
    "pre-commit init-templatedir -c other.yaml .git",
    "python -m pre_commit install --overwrite --allow-missing-config",
    "python3 -I -m pre_commit install -f",
    "python -m pre_commit.main install -f",
    "python -m pre_commit uninstall",
    "cd src && pre-commit install -f",
    "/opt/venv/bin/pre-commit install --overwrite",
]

ALLOWED = [
    "pre-commit install",
    "pre-commit install --install-hooks",
    "pre-commit install -t pre-push",
    "pre-commit install --hook-type pre-commit --hook-type pre-push",
    "pre-commit install --allow-missing-config",
    "pre-commit install-hooks",
    "pre-commit init-templatedir ~/.git-template",
    "pre-commit run --all-files",
    "pre-commit run -c other.yaml --all-files",
    "pre-commit autoupdate",
    "python -m pre_commit install",
    "python -m pre_commit run --all-files",
    "echo pre-commit install --overwrite",
]


@pytest.mark.parametrize("command", DENIED)
def test_an_install_that_overwrites_the_hooks_or_points_them_elsewhere_is_refused(command: str) -> None:
    denial = check_shell(command, HERE)
    assert denial is not None, command
    assert denial.rule == "uninstall"
    assert "Instead:" in denial.message()


@pytest.mark.parametrize("command", ALLOWED)
def test_an_install_that_keeps_the_hooks_running_is_allowed(command: str) -> None:
    assert check_shell(command, HERE) is None


def test_over_the_native_hooks_only_the_overwriting_install_is_refused(h: Harness) -> None:
    h.ok("install")
    assert guard_answer(h.root, "Bash", {"command": "pre-commit install --overwrite --allow-missing-config"}) == "deny"
    assert guard_answer(h.root, "Bash", {"command": "pre-commit install -c /dev/null"}) == "deny"
    assert guard_answer(h.root, "Bash", {"command": "pre-commit install"}) == "allow"


def test_under_the_framework_installing_its_shim_is_allowed(h: Harness) -> None:
    config = ("default_install_hook_types: [pre-commit, post-commit, pre-push]\nrepos:\n"
              "  - repo: https://example.invalid/harness\n    rev: v1\n    hooks:\n      - id: harness-validate\n"
              "      - id: harness-stamp\n      - id: harness-push-guard\n")
    (h.root / ".pre-commit-config.yaml").write_text(config)
    git(h.root, "add", "-A")
    git(h.root, "commit", "-q", "-m", "framework config")
    for command in ("pre-commit install", "pre-commit install --install-hooks", "python -m pre_commit install"):
        assert guard_answer(Path(h.root), "Bash", {"command": command}) == "allow", command
    assert guard_answer(h.root, "Bash", {"command": "pre-commit install -f"}) == "deny"


# F-0314: `pre-commit init-templatedir DIR` always installs with --overwrite (and skips every check where there is
# no config), into DIR/hooks: pointed at this repository's git folder, or at a folder whose hooks/ git runs here,
# it deletes the harness's hooks as `install --overwrite` does. Into a template folder of its own it touches none.
INTO_THE_GIT_FOLDER = [
    "pre-commit init-templatedir .git",
    "pre-commit init-templatedir ./.git/",
    "pre-commit init-templatedir /repo/.git",
    "cd src && pre-commit init-templatedir ../.git",
    "pre-commit init-templatedir -t pre-push .git",
    "pre-commit init-templatedir --hook-type pre-commit --no-allow-missing-config .git",
    "pre-commit init-templatedir --color never .git",
    "pre-commit init-templatedir -- .git",
    "pre-commit init-templatedir .git -t pre-commit",
    "python -m pre_commit init-templatedir .git",
]


@pytest.mark.parametrize("command", INTO_THE_GIT_FOLDER)
def test_init_templatedir_into_this_repositorys_git_folder_is_refused(command: str) -> None:
    denial = check_shell(command, HERE)
    assert denial is not None, command
    assert denial.rule == "uninstall" and "init-templatedir" in denial.message(), denial.message()


def test_init_templatedir_into_a_folder_whose_hooks_git_runs_here_is_refused() -> None:
    # A linked worktree: its git folder is the main repository's (a `.git` file names it), whose hooks/ git runs.
    linked = Where("/wt", "/wt/src", home="/home/u")
    setup = GitSetup(hooks_dirs=("/repo/.git/hooks",))
    for command in ("pre-commit init-templatedir /repo/.git", "pre-commit init-templatedir ../../repo/.git/",
                    "pre-commit init-templatedir /repo/.git/./"):
        denial = check_shell(command, linked, setup=setup)
        assert denial is not None and denial.rule == "uninstall", command
    # core.hooksPath naming a `hooks` folder: its parent is the DIR whose hooks/ git runs.
    hooks_path = GitSetup(hooks_dirs=("/repo/.git/hooks", "/repo/tools/hooks"))
    assert check_shell("pre-commit init-templatedir tools", HERE, setup=hooks_path) is not None
    # What DIR the shell gives it cannot be worked out: refused, not guessed.
    denial = check_shell('pre-commit init-templatedir "$GIT_DIR"', HERE, setup=setup)
    assert denial is not None and denial.rule == "unresolved"


@pytest.mark.parametrize("command", ["pre-commit init-templatedir ~/.git-template",
                                     "pre-commit init-templatedir /home/u/.git-template",
                                     "pre-commit init-templatedir -t pre-push /tmp/template",
                                     "pre-commit init-templatedir .git-template",
                                     "pre-commit init-templatedir .git/hooks"])
def test_init_templatedir_into_a_template_folder_of_its_own_is_allowed(command: str) -> None:
    where = Where("/repo", "/repo", home="/home/u")
    assert check_shell(command, where, setup=GitSetup(hooks_dirs=("/repo/.git/hooks",))) is None


def test_init_templatedir_is_judged_where_the_guard_runs(h: Harness, tmp_path: Path) -> None:
    assert guard_answer(h.root, "Bash", {"command": "pre-commit init-templatedir .git"}) == "deny"
    assert guard_answer(h.root, "Bash", {"command": "pre-commit init-templatedir ~/.git-template"}) == "allow"
    git(h.root, "add", "-A")
    git(h.root, "commit", "-q", "-m", "init")
    linked = tmp_path / "linked"
    git(h.root, "worktree", "add", "-q", str(linked))
    common = os.path.realpath(h.root / ".git")
    assert guard_answer(linked, "Bash", {"command": f"pre-commit init-templatedir {common}"}) == "deny"
    assert guard_answer(linked, "Bash", {"command": "pre-commit init-templatedir ~/.git-template"}) == "allow"


# F-0315: the framework's console script run by an interpreter (`python /venv/bin/pre-commit ARGS`) is
# `pre-commit ARGS`, as the harness's own script run so is `harness ARGS`.
SCRIPT_RUNS_DENIED = [
    "python /opt/venv/bin/pre-commit install -f --allow-missing-config",
    "python3 -I /opt/venv/bin/pre-commit install --overwrite",
    "/opt/venv/bin/python .venv/bin/pre-commit uninstall",
    "python -- /opt/venv/bin/pre-commit install -c other.yaml",
    "python /opt/venv/lib/python3.11/site-packages/pre_commit/__main__.py install -f",
    "python /opt/venv/bin/pre-commit init-templatedir .git",
]


@pytest.mark.parametrize("command", SCRIPT_RUNS_DENIED)
def test_the_frameworks_script_run_by_an_interpreter_is_judged_as_the_framework(command: str) -> None:
    denial = check_shell(command, HERE)
    assert denial is not None, command
    assert denial.rule == "uninstall"


@pytest.mark.parametrize("command", ["python /opt/venv/bin/pre-commit install",
                                     "python .venv/bin/pre-commit run --all-files",
                                     "python scripts/install-pre-commit.py -f"])
def test_the_frameworks_script_run_by_an_interpreter_keeping_the_hooks_is_allowed(command: str) -> None:
    assert check_shell(command, HERE) is None


# F-0323: `--config` naming this repository's own .pre-commit-config.yaml installs the hooks a plain install does.
@pytest.mark.parametrize("command", ["pre-commit install --config .pre-commit-config.yaml",
                                     "pre-commit install -c ./.pre-commit-config.yaml",
                                     "pre-commit install --config=/repo/.pre-commit-config.yaml",
                                     "pre-commit install -c.pre-commit-config.yaml -t pre-push",
                                     "cd src && pre-commit install -c ../.pre-commit-config.yaml",
                                     "pre-commit install -c other.yaml -c .pre-commit-config.yaml",
                                     "python -m pre_commit install --conf .pre-commit-config.yaml"])
def test_an_install_naming_the_repositorys_own_config_is_allowed(command: str) -> None:
    assert check_shell(command, HERE) is None


@pytest.mark.parametrize("command", ["pre-commit install -c other.yaml",
                                     "cd src && pre-commit install -c .pre-commit-config.yaml",
                                     "pre-commit install -c .pre-commit-config.yaml -c other.yaml",
                                     "pre-commit install -c /elsewhere/.pre-commit-config.yaml",
                                     "pre-commit install -c .pre-commit-config.yaml -f",
                                     'pre-commit install -c "$CONFIG"'])
def test_an_install_naming_another_config_is_still_refused(command: str) -> None:
    assert check_shell(command, HERE) is not None


def test_an_install_naming_the_default_config_is_allowed_where_the_guard_runs(h: Harness) -> None:
    h.ok("install")
    for command in ("pre-commit install --config .pre-commit-config.yaml",
                    "pre-commit install -c ./.pre-commit-config.yaml"):
        assert guard_answer(h.root, "Bash", {"command": command}) == "allow", command
    assert guard_answer(h.root, "Bash", {"command": "pre-commit install -c other.yaml"}) == "deny"
