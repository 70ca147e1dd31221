"""Any git command under configuration the guard cannot read, and settings whose values git runs that the guard did
not judge (F-0337). Every git command reads its configuration, and settings there run command lines whatever the
subcommand (`core.fsmonitor` at any command that reads the index, `core.pager`, `diff.external` …): a file named by
`include.path`/`includeIf.*.path`, `--config-env` of an include, or a global or system file moved by
GIT_CONFIG_GLOBAL, GIT_CONFIG_SYSTEM, HOME or XDG_CONFIG_HOME is refused at any command, not at the commit/push
machinery alone. And `gpg.ssh.defaultKeyCommand`, `core.alternateRefsCommand`, `imap.tunnel`, GIT_PROXY_COMMAND,
`sendemail.<identity>.*cmd`, `guitool.*.cmd`, `remote.*.vcs` and an alias set for the run (git runs `git remote-NAME`
and `git credential-NAME` as aliases too) are judged as the command lines git runs. Beside each, what stays allowed."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from harness.agent.judge.bypass import check_shell
from harness.agent.judge.git_config_view import GitSetup
from harness.agent.judge.guarded_paths import Where

from support.agent_guard import guard_answer
from support.gitrepo import git

TOP = Where("/repo", "/repo", "/home/u")
NESTED = Where("/repo", "/repo/vendor/lib", "/home/u", nested=("/repo/vendor/lib",), other_git="repository")
RM = "rm -rf .harness"


def _denial(command: str, where: Where = TOP, setup: GitSetup | None = None):
    return check_shell(command, where) if setup is None else check_shell(command, where, setup=setup)


# -- any git command under configuration the guard cannot read ---------------------------------------------------

@pytest.mark.parametrize("command", [
    "git -c include.path=/tmp/inc.cfg status", "GIT_CONFIG_GLOBAL=/tmp/inc.cfg git status",
    "git -c includeIf.onbranch:main.path=/tmp/inc.cfg diff", "GIT_CONFIG_SYSTEM=/tmp/inc.cfg git show",
    "HOME=/tmp/home git log", "XDG_CONFIG_HOME=/tmp/xdg git log -1", "export HOME=/tmp/home; git status",
    "P=/tmp/inc.cfg git --config-env=include.path=P status", "git --config-env include.path=P diff",
    "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=include.path GIT_CONFIG_VALUE_0=/tmp/inc.cfg git diff",
    "git -c include.path=/tmp/inc.cfg blame app.py", "git -c include.path=/tmp/inc.cfg -C sub ls-files",
    "git -c include.path=/tmp/inc.cfg help status", "git -c include.path=/tmp/inc.cfg --help status",
    # a global file moved is read even by `git --version` and a bare `git` (its trace2 settings write files)
    "GIT_CONFIG_GLOBAL=/tmp/inc.cfg git --version", "HOME=/tmp/home git version", "GIT_CONFIG_GLOBAL=/tmp/inc.cfg git",
])
def test_f0337_any_git_command_under_configuration_the_guard_cannot_read_is_refused(command):
    denial = _denial(command)
    assert denial is not None and denial.rule == "config-source", (command, denial)
    assert "cannot" in denial.reason, denial.reason


def test_f0337_a_commit_in_a_nested_repository_under_a_moved_home_is_refused():
    assert _denial("git status", NESTED) is None
    denial = _denial("HOME=/tmp/home git commit -m x", NESTED)
    assert denial is not None and denial.rule == "config-source", denial


def test_f0337_an_empty_global_file_still_keeps_the_machinery_from_running_without_the_user_s_hooks_path():
    """`/dev/null` sets nothing that runs, but it drops the user's settings, whose core.hooksPath may run the hooks."""
    denial = _denial("GIT_CONFIG_GLOBAL=/dev/null git commit -m x")
    assert denial is not None and denial.rule == "config-source", denial


@pytest.mark.parametrize("command", [
    "git status", "git -c color.ui=never status", "git -c user.name=x commit -m x", "git -c core.pager=cat log",
    "git diff --stat", "git log --oneline -3",
    # the current HOME (however it is spelled) is not another configuration; an empty file sets nothing that runs
    "HOME=$HOME git log", "HOME=/home/u git log", "HOME=~ git status", "HOME=$HOME git commit -m x",
    "XDG_CONFIG_HOME=$XDG_CONFIG_HOME git status", "GIT_CONFIG_GLOBAL=/dev/null git status",
    "GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_SYSTEM=/dev/null git log",
    # --config-env of a key that includes no file: its value is judged where it runs a command (F-0128)
    "U=me git --config-env=user.name=U status",
    # git reads no configuration for its version or its usage when the include comes as a parameter (checked)
    "git -c include.path=/tmp/inc.cfg version", "git -c include.path=/tmp/inc.cfg --version",
    "git -c include.path=/tmp/inc.cfg --help",
    # another repository's own config: not this rule's (GIT_DIR and GIT_CONFIG are judged at the machinery)
    "GIT_DIR=.git git log",
])
def test_f0337_ordinary_git_commands_stay_allowed(command):
    assert _denial(command) is None, (command, _denial(command))


def _fresh(tmp_path: Path) -> Path:
    """A repository of its own (no harness, no hooks) with one commit of one file."""
    r = tmp_path / "r"
    r.mkdir()
    git(r, "init", "-q")
    (r / "a.txt").write_text("a\n")
    git(r, "add", "a.txt")
    git(r, "commit", "-qm", "init")
    return r


def test_f0337_git_status_runs_an_included_fsmonitor_and_git_version_reads_no_included_file(tmp_path):
    """Why the rule holds: an included core.fsmonitor runs at `git status`; `git version` reads no configuration
    given as a parameter (a broken included file fails every other command), but a moved global file it does read."""
    r = _fresh(tmp_path)
    inc = tmp_path / "inc.cfg"
    inc.write_text(f"[core]\n\tfsmonitor = touch {tmp_path / 'ran'}; false\n")
    subprocess.run(["git", "-c", f"include.path={inc}", "status"], cwd=r, capture_output=True)
    assert (tmp_path / "ran").is_file()
    bad = tmp_path / "bad.cfg"
    bad.write_text("[broken\n")
    for args in (["version"], ["--version"], ["--help"]):
        assert subprocess.run(["git", "-c", f"include.path={bad}", *args], cwd=r, capture_output=True).returncode == 0
    assert subprocess.run(["git", "-c", f"include.path={bad}", "status"], cwd=r, capture_output=True).returncode != 0
    moved = subprocess.run(["git", "--version"], cwd=r, capture_output=True, env={**os.environ, "GIT_CONFIG_GLOBAL": str(bad)})
    assert moved.returncode != 0 and b"bad config" in moved.stderr


def test_f0337_the_guard_refuses_the_reviewer_s_lines(h, task, repo, tmp_path):
    inc = tmp_path / "inc.cfg"
    inc.write_text(f"[core]\n\tfsmonitor = {RM}; false\n")
    for line in (f"git -c include.path={inc} status", f"GIT_CONFIG_GLOBAL={inc} git status",
                 f"git -c includeIf.onbranch:main.path={inc} diff"):
        assert guard_answer(repo, "Bash", {"command": line}) == "deny", line
    for line in ("git status", "git -c color.ui=never status", "HOME=$HOME git log -1", "git -c core.pager=cat log -1"):
        assert guard_answer(repo, "Bash", {"command": line}) == "allow", line


# -- settings whose values git runs -------------------------------------------------------------------------------

@pytest.mark.parametrize("command", [
    f"git -c gpg.format=ssh -c gpg.ssh.defaultKeyCommand='{RM}' commit -S -m x",
    f"git config gpg.ssh.defaultKeyCommand '{RM}'",
    f"git -c core.alternateRefsCommand='{RM}' rev-list --alternate-refs HEAD",
    f"git config --global core.alternateRefsCommand '{RM}'",
    f"git -c imap.folder=x -c imap.tunnel='{RM}' imap-send",
    f"GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=imap.tunnel GIT_CONFIG_VALUE_0='{RM}' git imap-send",
    f"GIT_PROXY_COMMAND='{RM}' git ls-remote git://example.com/x",
    f"git -c sendemail.work.tocmd='{RM}' send-email --identity=work x.patch",
    f"git -c guitool.t.cmd='{RM}' gui",
    # git runs `git remote-NAME` for a `NAME::` URL or remote.X.vcs, and `git credential-NAME`: an alias answers
    f"git -c alias.remote-zz='!{RM}' ls-remote zz::x",
    f"git -c alias.credential-zz='!{RM}' -c credential.helper=zz credential fill",
    f"git -c alias.remote-zz='!{RM}' -c remote.o.vcs=zz fetch o",
])
def test_f0337_a_setting_whose_value_git_runs_is_judged(command):
    denial = _denial(command)
    assert denial is not None and denial.rule == "delete-harness", (command, denial)


def test_f0337_remote_vcs_is_judged_as_the_helper_git_runs():
    setup = GitSetup(aliases={"remote-zz": f"!{RM}"})
    denial = _denial("git -c remote.o.vcs=zz fetch o", setup=setup)
    assert denial is not None and denial.rule == "delete-harness", denial
    assert _denial("git -c remote.o.vcs=zz fetch o") is None


@pytest.mark.parametrize("command", [
    "git config --rename-section x imap", "git config --remove-section guitool.t",
])
def test_f0337_a_section_of_those_settings_renamed_or_removed_whole_is_refused(command):
    denial = _denial(command)
    assert denial is not None and denial.rule == "config-source", (command, denial)


@pytest.mark.parametrize("command", [
    "git -c gpg.format=ssh -c user.signingKey=/home/u/.ssh/id.pub commit -S -m x",
    "git -c gpg.ssh.defaultKeyCommand='ssh-add -L' commit -S -m x", "git rev-list --alternate-refs HEAD",
    "git -c imap.host=imaps://example.com imap-send", "GIT_PROXY_COMMAND=/usr/bin/nc git ls-remote git://example.com/x",
    "git -c alias.st=status status", "git -c alias.lg='log --oneline' lg", "git -c remote.o.vcs=hg fetch o",
    "git config sendemail.work.smtpServer smtp.example.com",
])
def test_f0337_those_settings_with_harmless_commands_stay_allowed(command):
    assert _denial(command) is None, (command, _denial(command))


def _signing_repo(r: Path, tmp_path: Path) -> tuple[list[str], dict, bytes | None]:
    return (["-c", "gpg.format=ssh", "-c", "gpg.ssh.defaultKeyCommand=touch ran", "commit", "--allow-empty", "-S", "-m", "x"],
            {}, None)


def _alternates(r: Path, tmp_path: Path) -> tuple[list[str], dict, bytes | None]:
    other = tmp_path / "other"
    git(tmp_path, "clone", "-q", "--shared", str(r), str(other))
    return (["-C", str(other), "-c", f"core.alternateRefsCommand=touch {r / 'ran'}; true", "rev-list",
             "--alternate-refs", "HEAD"], {}, None)


def _imap(r: Path, tmp_path: Path) -> tuple[list[str], dict, bytes | None]:
    mbox = git(r, "format-patch", "-1", "--root", "--stdout", "HEAD").stdout.encode()
    return ["-c", "imap.folder=x", "-c", "imap.tunnel=touch ran", "imap-send"], {}, mbox


def _proxy(r: Path, tmp_path: Path) -> tuple[list[str], dict, bytes | None]:
    script = tmp_path / "proxy.sh"
    script.write_text(f"#!/bin/sh\ntouch {r / 'ran'}\n")
    script.chmod(0o755)
    return ["ls-remote", "git://example.invalid/x"], {"GIT_PROXY_COMMAND": str(script)}, None


def _remote_helper_alias(r: Path, tmp_path: Path) -> tuple[list[str], dict, bytes | None]:
    return ["-c", "alias.remote-zz=!touch ran; false", "ls-remote", "zz::x"], {}, None


def _credential_alias(r: Path, tmp_path: Path) -> tuple[list[str], dict, bytes | None]:
    return (["-c", "alias.credential-zz=!touch ran; false", "-c", "credential.helper=zz", "credential", "fill"], {},
            b"protocol=https\nhost=example.invalid\n\n")


def _remote_vcs(r: Path, tmp_path: Path) -> tuple[list[str], dict, bytes | None]:
    return (["-c", "alias.remote-zz=!touch ran; false", "-c", "remote.o.vcs=zz", "-c", "remote.o.url=x", "fetch", "o"],
            {}, None)


@pytest.mark.parametrize("prepare", [_signing_repo, _alternates, _imap, _proxy, _remote_helper_alias,
                                     _credential_alias, _remote_vcs])
def test_f0337_git_runs_each_of_those_settings(tmp_path, prepare):
    """Why each is judged: git really runs it (here it makes a file), in a repository without hooks."""
    r = _fresh(tmp_path)
    args, env, stdin = prepare(r, tmp_path)
    subprocess.run(["git", *args], cwd=r, input=stdin, capture_output=True, timeout=60,
                   env={**os.environ, "GIT_TERMINAL_PROMPT": "0", **env})
    assert (r / "ran").is_file(), args
