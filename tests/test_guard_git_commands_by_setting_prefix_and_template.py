"""What git runs or writes that its plain words hide (reads 89 and 90): a remote's uploadpack and receivepack
settings, command lines git runs (F-0310); a command-running option abbreviated as git's option parser allows
(F-0311); and `git init` or `git clone` with a template, which copies the template's files into a git folder of this
repository (F-0313). Beside each, the ordinary commands that stay allowed."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from harness.agent.judge.bypass import check_shell
from harness.agent.judge.git_runs import COMMAND_OPTIONS, lines_run
from harness.agent.judge.guarded_paths import Where

from support.agent_guard import guard_answer
from support.gitrepo import git

TOP = Where("/repo", "/repo", "/home/u")
LEDGER = ".harness/tasks/T/events.jsonl"
SED = f"sed -i 1d {LEDGER}"
RM = "rm -rf .harness"


def _denial(command: str, where: Where = TOP):
    return check_shell(command, where)


# -- F-0310: remote.*.uploadpack / receivepack are command lines ------------------------------------------------

@pytest.mark.parametrize("command", [
    f"git -c remote.x.url=. -c remote.x.uploadpack='{RM}; git upload-pack' fetch x",
    f"git -c remote.origin.receivepack='{SED}; git receive-pack' push origin main",
    f"git -c Remote.Origin.UploadPack='{SED}' ls-remote origin",
    f"git config remote.origin.uploadpack '{RM}; git upload-pack'",
    f"git config set remote.origin.receivepack '{SED}'",
    f"git config --type=path remote.origin.uploadpack '{SED}'",
    f"GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=remote.origin.uploadpack GIT_CONFIG_VALUE_0='{SED}' git fetch origin",
    f"git -c remote.o.uploadpack='{SED}' clone -o o /tmp/src /tmp/dst",
])
def test_f0310_a_remote_s_uploadpack_or_receivepack_is_judged_as_the_command_line_it_is(command):
    assert _denial(command) is not None, command


@pytest.mark.parametrize("command", ["git config remote.origin.url https://example.com/x.git",
                                     "git config remote.origin.pushurl git@example.com:x.git",
                                     "git -c remote.origin.uploadpack=/usr/lib/git-core/git-upload-pack fetch origin",
                                     "git config remote.origin.receivepack 'git receive-pack'",
                                     "git -c remote.origin.url=https://example.com/x.git fetch origin"])
def test_f0310_ordinary_remote_settings_stay_allowed(command):
    assert _denial(command) is None, (command, _denial(command))


def test_f0310_an_uploadpack_or_receivepack_in_the_repository_s_config_is_judged_when_git_runs_it(h, task, repo):
    """git runs remote.NAME.uploadpack at the next fetch, pull, ls-remote, `remote update`/`show`, and receivepack at
    the next push: read from the repository's config as submodule.*.update is (F-0255). A clone makes a repository
    of its own and reads not this one's config: git runs nothing of it."""
    from harness.agent.hook_facts import git_setup

    where = Where(str(repo), str(repo))
    git(repo, "config", "remote.origin.url", str(repo))
    git(repo, "config", "remote.origin.uploadpack", f"{RM}; git upload-pack")
    git(repo, "config", "remote.origin.receivepack", f"{RM}; git receive-pack")
    for command in ("git fetch origin", "git pull origin main", "git ls-remote origin", "git remote update",
                    "git remote show origin", "git push origin main", "git fetch"):
        denial = check_shell(command, where, setup=git_setup(repo, command))
        assert denial is not None and denial.rule == "delete-harness", (command, denial)
    for command in ("git status", "git remote -v", "git log -1", f"git clone -q {repo} /tmp/elsewhere"):
        assert check_shell(command, where, setup=git_setup(repo, command)) is None, command
    git(repo, "config", "remote.origin.uploadpack", "git-upload-pack")
    git(repo, "config", "--unset", "remote.origin.receivepack")
    for command in ("git fetch origin", "git push origin main"):
        assert check_shell(command, where, setup=git_setup(repo, command)) is None, command


def test_f0310_the_guard_refuses_the_reviewer_s_line(h, task, repo):
    line = f"git -c remote.x.url=. -c remote.x.uploadpack='{RM}; git upload-pack' fetch x"
    assert guard_answer(repo, "Bash", {"command": line}) == "deny"
    assert guard_answer(repo, "Bash", {"command": f"git config remote.origin.uploadpack '{RM}; git upload-pack'"}) == "deny"
    assert guard_answer(repo, "Bash", {"command": "git -c remote.x.url=. fetch x"}) == "allow"


# -- F-0311: a command-running option abbreviated ----------------------------------------------------------------

@pytest.mark.parametrize("command", [
    f"git fetch --upl='{RM}; git upload-pack' .", f"git fetch --upload='{SED}' .", f"git fetch --upl '{SED}' .",
    f"git rebase --exe '{RM}' HEAD~1", f"git rebase --ex='{SED}' HEAD~1", f"git push --rece='{SED}' .",
    f"git push --ex='{SED}' .", f"git ls-remote --upload='{SED}' .", f"git ls-remote --exec='{SED}' .",
    f"git ls-remote --exe='{SED}' .", f"git clone --upload-p='{SED}' . x", f"git pull --upl='{SED}' .",
    f"git archive --remote=. --exe='{SED}' HEAD", f"git difftool --ext='{SED}' HEAD",
    # a short option inside a cluster of flags: its value is the rest of the word, else the next word
    f"git rebase -ix '{SED}' HEAD~1", f"git rebase -qx'{SED}' HEAD~1", f"git clone -qu '{SED}' . x",
    f"git difftool -yx '{SED}' HEAD",
    # filter-branch's one-time `--setup` command, and fetch-pack's options (read by hand, full names only)
    f"git filter-branch --setup '{SED}' HEAD", f"git fetch-pack --upload-pack='{SED}' . HEAD",
    f"git fetch-pack --exec='{SED}' . HEAD",
])
def test_f0311_an_abbreviated_or_clustered_command_option_is_judged(command):
    assert _denial(command) is not None, command


@pytest.mark.parametrize("command", [
    "git push --recurse-submodules=check origin main", "git push --receive-pack=git-receive-pack origin main",
    "git fetch --update-head-ok origin main:main", "git fetch --update-shallow origin", "git fetch --unshallow",
    "git rebase --empty=drop HEAD~1", "git rebase --edit-todo", "git rebase -i HEAD~3", "git rebase -S0xAB12 HEAD~1",
    "git rebase -Xignore-space-change HEAD~1", "git difftool -txxdiff HEAD", "git clone -bfix-x . d",
    "git rebase --exec='pytest -q' HEAD~2", "git fetch --upl=git-upload-pack origin",
    "git filter-branch --subdirectory-filter sub HEAD", "git ls-remote --heads origin",
])
def test_f0311_the_commands_beside_an_abbreviated_option_stay_allowed(command):
    assert _denial(command) is None, (command, _denial(command))


def _git_long_options(repo: Path, sub: str) -> list[str]:
    """Every long option git's parser takes for ``sub`` (hidden ones too), as `--name`."""
    out = subprocess.run(["git", sub, "--git-completion-helper-all"], cwd=repo, capture_output=True, text=True).stdout
    return [w.rstrip("=") for w in out.split() if w.startswith("--") and w != "--"]


# The subcommands of COMMAND_OPTIONS whose options git's parse-options reads, and those read by hand or by a script
# (asking a script for `--git-completion-helper-all` would run it: instaweb starts a web server).
PARSED_BY_GIT = {"rebase", "difftool", "fetch", "pull", "clone", "ls-remote", "push", "archive", "grep"}
READ_BY_HAND = {"filter-branch", "fetch-pack", "daemon", "instaweb", "send-email"}


def test_f0311_each_subcommand_with_command_options_is_known_as_read_by_git_or_by_hand():
    assert set(COMMAND_OPTIONS) <= PARSED_BY_GIT | READ_BY_HAND, set(COMMAND_OPTIONS) - PARSED_BY_GIT - READ_BY_HAND


@pytest.mark.parametrize("sub", sorted(set(COMMAND_OPTIONS) & PARSED_BY_GIT))
def test_f0311_no_other_option_of_git_s_parser_is_read_as_a_command_option(repo, sub):
    """Each option git lists for the subcommand, written out with a value, yields a command line only when it is one
    of the command options: an abbreviation is read as one only where it is a prefix of one."""
    options = _git_long_options(repo, sub)
    if not options:
        pytest.skip(f"this git lists no options of `git {sub}`")
    ours = set(COMMAND_OPTIONS[sub])
    for option in options:
        found = lines_run(sub, [f"{option}=probe"], [], (), "/repo")
        assert bool(found) == (option in ours), (sub, option, found)


def test_f0311_the_guard_refuses_the_reviewer_s_lines(h, task, repo):
    assert guard_answer(repo, "Bash", {"command": f"git fetch --upl='{RM}; git upload-pack' ."}) == "deny"
    assert guard_answer(repo, "Bash", {"command": f"git rebase --exe '{RM}' HEAD~1"}) == "deny"
    assert guard_answer(repo, "Bash", {"command": "git fetch --update-head-ok . main:main"}) == "allow"


# -- F-0313: `git init` / `git clone` with a template into this repository ------------------------------------

@pytest.mark.parametrize("command", [
    "git init --template=/tmp/tpl", "git init -q --templ /tmp/tpl", "git init --template /tmp/tpl .",
    "git init --t=/tmp/tpl", "git -c init.templateDir=/tmp/tpl init", "GIT_TEMPLATE_DIR=/tmp/tpl git init",
    "export GIT_TEMPLATE_DIR=/tmp/tpl; git init -q",
    "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=init.templateDir GIT_CONFIG_VALUE_0=/tmp/tpl git init",
    "git init --template=/tmp/tpl sub", "git -C /tmp init --template=/tmp/tpl /repo",
    "cd /tmp && git --git-dir=/repo/.git init --template=/tmp/tpl",
    "cd /tmp && GIT_DIR=/repo/.git git init --template=/tmp/tpl",
    "git init --bare --template=/tmp/tpl .git", "git init --separate-git-dir=/repo/.git --template=/tmp/tpl /tmp/w",
    "git init --template=\"$T\"", "git clone --template=/tmp/tpl /tmp/src", "git clone --template=/tmp/tpl /tmp/src sub",
    "git clone -b main --templa /tmp/tpl /tmp/src", "cd /tmp && git clone --template=/tmp/tpl /tmp/src /repo/vendor/x",
])
def test_f0313_a_template_copied_into_a_git_folder_of_this_repository_is_refused(command):
    denial = _denial(command)
    assert denial is not None and denial.rule == "hook-file", (command, denial)


def test_f0313_a_template_into_a_folder_the_guard_cannot_work_out_is_unresolved():
    denial = _denial('git init --template=/tmp/tpl "$D"')
    assert denial is not None and denial.rule == "unresolved", denial


@pytest.mark.parametrize("command", [
    "git init", "git init -q", "git init newproject", "git init /tmp/elsewhere --template=/tmp/tpl",
    "git init --template=/tmp/tpl /tmp/elsewhere", "cd /tmp && git init --template=/tmp/tpl new",
    "git -C /tmp init --template=/tmp/tpl new", "git init --template= sub", "git init --no-template sub",
    "git clone --template=/tmp/tpl https://example.com/x.git /tmp/x", "git clone -b main --template=/tmp/t /tmp/src /tmp/dst",
    "git clone https://example.com/x.git vendor/x", "git init --separate-git-dir=/tmp/g --template=/tmp/tpl /tmp/w",
])
def test_f0313_a_plain_git_init_or_a_template_elsewhere_stays_allowed(command):
    assert _denial(command) is None, (command, _denial(command))


def test_f0313_the_guard_refuses_a_template_into_the_repository_but_not_elsewhere(h, task, repo, tmp_path):
    tpl = tmp_path / "tpl"
    (tpl / "refs" / "replace").mkdir(parents=True)
    assert guard_answer(repo, "Bash", {"command": f"git init -q --template={tpl}"}) == "deny"
    assert guard_answer(repo, "Bash", {"command": f"git init -q --template={tpl} {tmp_path / 'elsewhere'}"}) == "allow"


def test_f0313_a_plain_git_init_again_adds_only_hooks_git_does_not_run(h, task, repo):
    """git's default template holds sample hooks (`pre-commit.sample`, …), which git never runs, and copies only what
    the git folder lacks: `git init` run again in the repository adds no hook. Allowed, as the guard allows it."""
    defaults = Path(subprocess.run(["git", "--exec-path"], capture_output=True, text=True).stdout.strip()).parents[1]
    defaults = defaults / "share" / "git-core" / "templates"
    if not (defaults / "hooks").is_dir():
        pytest.skip("git's default template is not where it is usually installed")
    before = {p for p in (repo / ".git").rglob("*")}
    env = {k: v for k, v in os.environ.items() if k != "GIT_TEMPLATE_DIR"}
    subprocess.run(["git", "init", "-q"], cwd=repo, check=True, env={**env, "GIT_CONFIG_GLOBAL": "/dev/null"})
    added = sorted(p.relative_to(repo / ".git").as_posix() for p in set((repo / ".git").rglob("*")) - before)
    hooks = [a for a in added if a.startswith("hooks/") and (repo / ".git" / a).is_file()]
    assert hooks, added  # the default template was copied: the samples are there
    assert all(a.endswith(".sample") for a in hooks), hooks
    assert not any(a.startswith(("refs/", "info/grafts", "commondir")) for a in added), added
    assert guard_answer(repo, "Bash", {"command": "git init"}) == "allow"
