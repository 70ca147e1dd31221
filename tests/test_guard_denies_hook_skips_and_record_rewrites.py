"""The tool guard denies spellings that skipped the harness's git hooks or rewrote its records (found by
its second adversarial review, #25's task F-0006..F-0017), and names the word that could become a flag.
One test per finding; the everyday neighbours of each spelling stay allowed."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.agent.framework_yaml import load_config
from harness.agent.judge import framework_config
from harness.agent.judge.bypass import check_shell, check_write
from harness.agent.judge.git_config_view import GitSetup
from harness.agent.judge.guarded_paths import Where

ROOT = "/repo"
HERE = Where(ROOT, ROOT)
TASK = ".harness/tasks/TASK-20260101-abcdef"
EV = f"{TASK}/events.jsonl"
SETUP = GitSetup(aliases={"ci": "commit"}, hooks_dirs=("/repo/.git/hooks",))


def _rule(line: str) -> str | None:
    denial = check_shell(line, HERE, setup=SETUP)
    return denial.rule if denial else None


@pytest.mark.parametrize("line", [
    "printf '[core]\\n\\thooksPath = /dev/null\\n' >> .git/config",
    "sed -i 's/x/y/' .git/config",
    "echo x > .git/config.worktree",
])
def test_the_repository_git_config_is_not_written_by_hand(line: str) -> None:
    assert _rule(line) == "hook-file"
    assert check_write(".git/config", HERE, SETUP) is not None
    assert _rule("cat .git/config") is None and _rule("git config user.name Me") is None


@pytest.mark.parametrize("line", [
    "git config --file .git/config include.path /tmp/evil.cfg",
    "git config -f .git/config include.path /tmp/evil.cfg",
])
def test_git_config_with_a_file_option_reads_the_key_after_the_file(line: str) -> None:
    assert _rule(line) in ("config-source", "hooks-path")
    assert _rule("git config -f .gitmodules submodule.x.url https://example.com/x") is None


@pytest.mark.parametrize("line", [
    f"git checkout HEAD~1 {EV}",
    f"git restore --source HEAD~1 {EV}",
    "git checkout HEAD~1 .harness/approvals.jsonl",
])
def test_restoring_an_older_ledger_is_denied_without_the_double_dash(line: str) -> None:
    assert _rule(line) == "protected-file"
    assert _rule(f"git checkout HEAD -- {EV}") is None and _rule("git checkout -b topic origin/main") is None


@pytest.mark.parametrize("line", [
    "git checkout HEAD~1 -- .harness",
    f"git restore --source=HEAD~1 {TASK}",
    "git checkout main~1 -- .harness/tasks",
    "git checkout HEAD~1 -- .",
])
def test_restoring_a_folder_holding_the_record_from_an_older_revision_is_denied(line: str) -> None:
    assert _rule(line) == "protected-file"
    assert _rule("git checkout HEAD~1 -- src") is None and _rule("git restore --source=HEAD .harness") is None


CONFIG = """repos:
  - repo: https://github.com/example/engineering-harness
    rev: v1.0.0
    hooks:
      - id: harness-validate
      - id: harness-stamp
"""


def dropped(before: str, after: str) -> list[str]:
    return framework_config.dropped(before, after, load_config)


@pytest.mark.parametrize("override", ["stages: [manual]", "entry: 'true'", "alias: v", "language: fail"])
def test_a_harness_hook_kept_by_id_but_switched_off_counts_as_dropped(override: str) -> None:
    after = CONFIG.replace("      - id: harness-validate\n", f"      - id: harness-validate\n        {override}\n")
    assert dropped(CONFIG, after) == ["harness-validate"]
    assert dropped(CONFIG, CONFIG.replace("harness-stamp\n", "harness-stamp\n        stages: [post-commit]\n")) == []


@pytest.mark.parametrize("line", [
    "echo 'git commit -n -m x' | bash",
    "printf '%s\\n' 'git commit -n -m x' | sh",
    "bash <<< 'git commit -n -m x'",
    "cat <<'EOF' | sh\ngit commit -n -m x\nEOF",
])
def test_a_command_line_fed_to_a_shell_on_stdin_is_judged(line: str) -> None:
    assert _rule(line) == "no-verify"
    assert _rule("echo 'git status' | bash") is None and _rule("echo 'git commit -n' | grep -c n") is None


@pytest.mark.parametrize("line", ["git -c alias.CI='commit -n' CI -m x", "git CI -n -m x", "git Ci --no-verify"])
def test_git_aliases_are_looked_up_whatever_their_case(line: str) -> None:
    assert _rule(line) == "no-verify"
    assert _rule("git CI -m x") is None


@pytest.mark.parametrize("line", [
    "HOME=/tmp/f git commit -m wip",
    "XDG_CONFIG_HOME=/tmp/f git push",
    "export HOME=/tmp/f; git commit -m wip",
])
def test_a_command_moving_the_global_git_config_cannot_commit_unseen(line: str) -> None:
    assert _rule(line) == "config-source"
    assert _rule("export HOME=/tmp/f") is None
    # F-0337: any git command reads the moved file, whose settings run command lines (core.fsmonitor at `status`)
    assert _rule("HOME=/tmp/f git status") == "config-source"


@pytest.mark.parametrize("line", [
    "uv run git commit -n -m x",
    "uv run --with ruff git commit -n -m x",
    "poetry run git commit -n -m x",
    "pipenv run git commit --no-verify -m x",
    "pdm run git push --no-verify",
    "watch -n 60 git push --no-verify",
])
def test_project_runners_and_watch_do_not_hide_the_git_command(line: str) -> None:
    assert _rule(line) == "no-verify"
    assert _rule("uv run pytest -q") is None and _rule("poetry run git commit -m x") is None


def test_the_denial_names_the_word_that_could_become_a_flag() -> None:
    denial = check_shell('git commit -m "$MSG" "$f"', HERE, setup=SETUP)
    assert denial is not None and "`$f`" in denial.reason and "$MSG" not in denial.reason
    assert check_shell('git commit -m "$MSG"', HERE, setup=SETUP) is None


@pytest.mark.parametrize("line", [
    'rm "$(git rev-parse --git-dir)/hooks/pre-commit"',
    'chmod -x "$(git rev-parse --git-path hooks)/pre-commit"',
    'cd "$(git rev-parse --git-dir)/hooks" && rm pre-commit',
    "pushd .git/hooks && rm pre-commit",
    f"cd \"$(git rev-parse --show-toplevel)/{TASK}\" && echo '{{}}' >> events.jsonl",
    'rm "$GITDIR/hooks/pre-push"',
])
def test_a_hook_or_ledger_reached_through_an_unresolved_path_is_denied(line: str) -> None:
    assert _rule(line) in ("hook-file", "protected-file", "delete-harness")
    assert _rule('cd "$(git rev-parse --show-toplevel)" && rm build/out.txt') is None
    assert _rule("pushd src && rm pre-commit") is None


@pytest.mark.parametrize(("line", "members", "denied"), [
    ("tar xzf fixtures.tgz", ("fx/", "fx/a.txt"), False),
    ("tar -xzf fixtures.tgz", ("fx/", "fx/a.txt"), False),
    ("unzip data.zip", ("data/b.txt",), False),
    ("tar -xf fixtures.tgz", ("fx/a.txt", f"{EV}"), True),
    ("tar -xf fixtures.tgz", ("./.git/hooks/pre-commit",), True),
    ("unzip data.zip", (".harness/approvals.jsonl",), True),
    ("tar -xf fixtures.tgz -C .harness", ("fx/a.txt",), True),
])
def test_an_archive_at_the_root_is_judged_by_its_listed_members(line: str, members: tuple[str, ...],
                                                               denied: bool) -> None:
    archive = f"{ROOT}/{line.split()[-1] if line.startswith('unzip') else 'fixtures.tgz'}"
    setup = GitSetup(hooks_dirs=SETUP.hooks_dirs, archive_members={archive: members})
    assert (check_shell(line, HERE, setup=setup) is not None) is denied
    assert check_shell(line, HERE, setup=SETUP) is not None  # an archive the adapter could not list: blind


def test_the_adapter_lists_small_archives_of_plain_files_only(tmp_path: Path) -> None:
    import tarfile
    import zipfile

    from harness.agent.hook_facts import archive_members

    (tmp_path / "a.txt").write_text("x")
    with tarfile.open(tmp_path / "fx.tgz", "w:gz") as t:
        t.add(tmp_path / "a.txt", arcname="fx/a.txt")
    with zipfile.ZipFile(tmp_path / "d.zip", "w") as z:
        z.writestr("data/b.txt", "x")
    (tmp_path / "link").symlink_to("a.txt")
    with tarfile.open(tmp_path / "ln.tar", "w") as t:
        t.add(tmp_path / "link", arcname="fx/link")
    found = archive_members("tar xzf fx.tgz && unzip d.zip && tar -xf ln.tar", str(tmp_path))
    assert found == {str(tmp_path / "fx.tgz"): ("fx/a.txt",), str(tmp_path / "d.zip"): ("data/b.txt",)}
    assert archive_members("ls -la", str(tmp_path)) == {}
