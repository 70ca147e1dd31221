"""The files that decide whether the harness's git hooks run are guarded whatever a tool call's text says: a
hooks folder core.hooksPath names (#25's task F-0019) and the user's own git config files (F-0021)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from harness.agent.judge.bypass import check_shell
from harness.agent.judge.git_config_view import GitSetup
from harness.agent.judge.guarded_paths import Where

from support.agent_guard import guard_answer
from support.gitrepo import git


@pytest.fixture
def husky(h, task, repo):
    git(repo, "config", "core.hooksPath", ".husky")
    (repo / ".husky").mkdir()
    (repo / ".husky" / "pre-commit").write_text("#!/bin/sh\nharness hook run pre-commit\n")
    return repo


@pytest.mark.parametrize("tool,tool_input", [
    ("Write", {"file_path": ".husky/pre-commit", "content": "exit 0\n"}),
    ("Edit", {"file_path": ".husky/pre-commit", "old_string": "harness", "new_string": "true"}),
    ("Bash", {"command": "rm .husky/pre-commit"}),
    ("Bash", {"command": "echo exit 0 > .husky/pre-commit"}),
])
def test_a_hooks_folder_core_hooks_path_names_is_guarded_whatever_the_text_says(husky, tool, tool_input):
    assert guard_answer(husky, tool, tool_input) == "deny"


@pytest.mark.parametrize("tool,tool_input", [
    ("Write", {"file_path": "src/app.py", "content": "x = 1\n"}),
    ("Bash", {"command": "ls -la .husky"}),
    ("Bash", {"command": "echo done > build.log"}),
])
def test_beside_a_hooks_folder_the_work_goes_on(husky, tool, tool_input):
    assert guard_answer(husky, tool, tool_input) == "allow"


def test_the_user_s_git_config_files_are_guarded(h, task, repo):
    home = Path(os.environ["HOME"])
    xdg = Path(os.environ.get("XDG_CONFIG_HOME") or home / ".config")
    line = "[core]\n\thooksPath = /dev/null\n"
    assert guard_answer(repo, "Write", {"file_path": str(home / ".gitconfig"), "content": line}) == "deny"
    assert guard_answer(repo, "Write", {"file_path": str(xdg / "git" / "config"), "content": line}) == "deny"
    assert guard_answer(repo, "Bash", {"command": f"printf '{line!s}' >> {home / '.gitconfig'}"}) == "deny"
    assert guard_answer(repo, "Bash", {"command": "printf '[core]\\n' >> ~/.gitconfig"}) == "deny"
    assert guard_answer(repo, "Write", {"file_path": str(home / "notes.txt"), "content": "x"}) == "allow"


# F-0233: `git config --edit` hands a config file to an editor the line may choose: a write of that file.
TOP = Where("/repo", "/repo", "/home/u")
USER_FILES = GitSetup(hooks_dirs=("/repo/.git/hooks", "/home/u/.gitconfig", "~/.gitconfig", "/etc/gitconfig"))


@pytest.mark.parametrize("command", ["git config -e", "git config --edit", "git config edit", "git config --local --ed",
                                     "GIT_EDITOR='printf \"[core]\\n\\thooksPath = /x\\n\" >>' git config -e",
                                     "git -c core.editor='sed -i s/x/y/' config --edit", "EDITOR=true git config -e",
                                     "git config --worktree -e", "git config -f .git/config -e", "git -C sub config -e",
                                     "git config --global -e", "git config --global edit", "git config --system --edit",
                                     "git config -f ~/.gitconfig --edit"])
def test_git_config_edit_of_a_config_file_that_decides_the_hooks_is_denied(command):
    denial = check_shell(command, TOP, setup=USER_FILES)
    assert denial is not None and denial.rule == "hook-file", (command, denial)


def test_git_config_edit_of_a_file_the_guard_cannot_work_out_is_unresolved():
    denial = check_shell('git config -e --file="$CONFIG"', TOP, setup=USER_FILES)
    assert denial is not None and denial.rule == "unresolved"


@pytest.mark.parametrize("command", ["git config -f build/tool.cfg -e", "git config --file=/tmp/x.cfg --edit",
                                     "git config -f .gitmodules edit", "git config --get core.editor", "git config -l",
                                     "git config core.editor vim"])
def test_git_config_edit_of_another_file_stays_allowed(command):
    assert check_shell(command, TOP, setup=USER_FILES) is None, check_shell(command, TOP, setup=USER_FILES)


def test_a_submodule_update_command_in_the_repository_s_config_is_judged_when_git_runs_it(h, task, repo):
    """F-0255: `submodule.NAME.update = !CMD` is read from the repository's config, as its aliases are (in process:
    the adapter and the rules of this tree)."""
    from harness.agent.hook_facts import git_setup

    where = Where(str(repo), str(repo))
    git(repo, "config", "submodule.sub.update", "rebase")
    assert git_setup(repo, "git submodule update").submodule_updates == ()
    assert check_shell("git submodule update", where, setup=git_setup(repo, "git submodule update")) is None
    git(repo, "config", "submodule.sub.update", "!git commit -n -qam loosen")
    setup = git_setup(repo, "git submodule update --init")
    assert setup.submodule_updates == (("submodule.sub.update", "!git commit -n -qam loosen"),)
    denial = check_shell("git submodule update --init", where, setup=setup)
    assert denial is not None and denial.rule == "no-verify", denial
    assert check_shell("git status", where, setup=git_setup(repo, "git status")) is None
