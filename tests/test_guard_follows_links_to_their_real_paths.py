"""Read 42's links (F-0039..F-0047): a symbolic link leads a word somewhere else than its text says. The guard
follows each word from the folder the program reads it in (git's chained `-C`), from inside `.git/` and
`.harness/local/` too, through `find -L`, and refuses a link made on a line that does more (the guard reads
that line's words before the link exists); removing or renaming a link itself is not a write of its target."""

from __future__ import annotations

import pytest

from support.agent_guard import guard_answer


@pytest.fixture
def linked(h, repo):
    """A repository with a ledger and the clone's scratch folder, where each test makes its links."""
    (repo / ".harness/tasks/T").mkdir(parents=True, exist_ok=True)
    (repo / ".harness/tasks/T/events.jsonl").write_text("1\n")
    (repo / ".harness/local").mkdir(parents=True, exist_ok=True)
    return repo


# -- F-0039: each `git -C` is followed from the folder the one before it led to ----------------------------------

@pytest.mark.parametrize("command", ["git -C .harness/local -C up checkout HEAD~1 -- tasks/T/events.jsonl",
                                     "git -C .harness/local -C t checkout HEAD~1 -- T/events.jsonl",
                                     "git -C .harness -C local -C up checkout HEAD~1 -- tasks/T/events.jsonl"])
def test_f0039_a_chained_git_C_is_followed_from_the_folder_before_it(linked, command):
    (linked / ".harness/local/up").symlink_to("..")
    (linked / ".harness/local/t").symlink_to("../tasks")
    assert guard_answer(linked, "Bash", {"command": command}) == "deny", command


# -- F-0040: git's operands are followed from the folder `-C` leads to ---------------------------------------------

@pytest.mark.parametrize("command", ["git -C .harness/local/top checkout HEAD~1 -- .harness/tasks/T/events.jsonl",
                                     "git -C r checkout HEAD~1 -- .harness/tasks/T/events.jsonl",
                                     "git -C r checkout HEAD~1 -- '.harness/t*'",
                                     "git -C .harness/local -C ../.. -C r checkout HEAD~1 -- .harness/tasks/T/events.jsonl"])
def test_f0040_git_s_operands_are_followed_from_the_folder_C_leads_to(linked, command):
    (linked / ".harness/local/top").symlink_to("../..")
    (linked / "r").symlink_to(".")
    assert guard_answer(linked, "Bash", {"command": command}) == "deny", command


@pytest.mark.parametrize("command", ["git -C r status", "git -C .harness/local/top log --oneline -3",
                                     "git -C r checkout HEAD -- app.py"])
def test_f0040_git_through_a_link_to_the_top_still_reads_and_restores_code(linked, command):
    (linked / ".harness/local/top").symlink_to("../..")
    (linked / "r").symlink_to(".")
    (linked / "app.py").write_text("x\n")
    assert guard_answer(linked, "Bash", {"command": command}) == "allow", command


# -- F-0047: a word written inside .git/ is followed to its real path ------------------------------------------------

@pytest.mark.parametrize("command", ["echo x >> .git/x/tasks/T/events.jsonl", "cd .git/x && echo x >> tasks/T/events.jsonl",
                                     "git -C .git/x checkout HEAD~1 -- tasks/T/events.jsonl",
                                     "printf '#!/bin/sh\\nexit 0\\n' > .git/y/pre-commit", "rm -rf .git/x/tasks"])
def test_f0047_a_link_inside_git_s_folder_is_followed_to_the_record_or_a_hook(linked, command):
    (linked / ".git/x").symlink_to("../.harness")
    (linked / ".git/y").symlink_to("hooks")
    assert guard_answer(linked, "Bash", {"command": command}) == "deny", command


def test_f0047_reading_through_a_link_inside_git_s_folder_is_allowed(linked):
    (linked / ".git/x").symlink_to("../.harness")
    assert guard_answer(linked, "Bash", {"command": "cat .git/x/tasks/T/events.jsonl"}) == "allow"


# -- F-0045: the cache of valid documents through a link inside .harness/local/ -------------------------------------

@pytest.mark.parametrize("command", ["echo 0123456789abcdef >> .harness/local/v", "cp app.py .harness/local/v",
                                     "cd .harness/local && tee -a v < /dev/null", "sed -i 1d .harness/local/v"])
def test_f0045_a_link_inside_the_local_state_to_the_valid_cache_is_followed(linked, command):
    (linked / ".harness/local/valid").write_text("")
    (linked / ".harness/local/v").symlink_to("valid")
    assert guard_answer(linked, "Bash", {"command": command}) == "deny", command


@pytest.mark.parametrize("command", ["ln -s valid .harness/local/v", "ln -sf .harness/local/valid v",
                                     "ln -s ../valid .harness/local/d/v", "cp -s .harness/local/valid v",
                                     "ln -s valid .harness/local/v && echo 0123456789abcdef >> .harness/local/v"])
def test_f0045_a_link_to_the_valid_cache_is_refused(linked, command):
    """A second name for the cache, as one for the ledger is; a link to the folder stays allowed (#28's task F-0073):
    a later line's words through it are followed to the cache."""
    (linked / ".harness/local/d").mkdir()
    assert guard_answer(linked, "Bash", {"command": command}) == "deny", command


@pytest.mark.parametrize("command", ["ln -s .harness/local/junit.xml junit.xml", "echo x >> .harness/local/notes.txt",
                                     "ln -s notes.txt .harness/local/n"])
def test_f0045_links_to_other_scratch_files_stay_allowed(linked, command):
    assert guard_answer(linked, "Bash", {"command": command}) == "allow", command


# -- F-0046: removing or renaming a link is not a delete of what it points to --------------------------------------

@pytest.mark.parametrize("command", ["rm .harness/local/t", "rm -f .harness/local/up", "unlink .harness/local/t",
                                     "rm -rf .harness/local/up", "cd .harness/local && rm t up",
                                     "mv .harness/local/up .harness/local/up.old"])
def test_f0046_removing_or_renaming_a_link_under_the_local_state_is_allowed(linked, command):
    (linked / ".harness/local/up").symlink_to("..")
    (linked / ".harness/local/t").symlink_to("../tasks")
    assert guard_answer(linked, "Bash", {"command": command}) == "allow", command


@pytest.mark.parametrize("command", ["rm -r .harness/local/t/", "rm -rf .harness/local/t/*", "rm -rf .harness/local/up/.",
                                     "rm .harness/local/t/T/events.jsonl", "unlink .harness/local/up/tasks/T/events.jsonl",
                                     "mv .harness/local/up/tasks x", "mv .harness/local/t/ x",
                                     "mv .harness/local/up x && echo x >> x/tasks/T/events.jsonl"])
def test_f0046_what_a_link_leads_to_is_still_judged_by_its_real_path(linked, command):
    """A trailing `/`, a name inside the link, or a rename on a line that goes on to use the new name (which does
    not exist when the guard reads the line) still reach the record."""
    (linked / ".harness/local/up").symlink_to("..")
    (linked / ".harness/local/t").symlink_to("../tasks")
    assert guard_answer(linked, "Bash", {"command": command}) == "deny", command


# -- F-0042: a find that follows links (-L, -follow) may reach anything a link under its start leads to -------------

@pytest.mark.parametrize("command", ["find -L .harness/local -name events.jsonl -delete",
                                     "find .harness/local -follow -name events.jsonl -delete",
                                     "find -L .harness/local -name events.jsonl -exec truncate -s0 {} +",
                                     "find -L .harness/local -path '*/t/T/*' -delete",
                                     "find -L build -type d -name t -exec rm -rf {}/T \\;"])
def test_f0042_a_find_that_follows_links_is_judged_as_reaching_the_record(linked, command):
    (linked / ".harness/local/t").symlink_to("../tasks")
    (linked / "build").mkdir()
    (linked / "build/t").symlink_to("../.harness/tasks")
    assert guard_answer(linked, "Bash", {"command": command}) == "deny", command


@pytest.mark.parametrize("command", ["find -L . -type f -name '*.pyc' -delete", "find -L .harness/local -type f -name '*.tmp' -delete",
                                     "find -L . -name '*.py' -exec grep -n TODO {} +", "find .harness/local -name '*.tmp' -delete"])
def test_f0042_a_find_that_follows_links_to_files_it_names_stays_allowed(linked, command):
    (linked / ".harness/local/t").symlink_to("../tasks")
    assert guard_answer(linked, "Bash", {"command": command}) == "allow", command


# -- F-0041: a symbolic link made on a line that does more ----------------------------------------------------------

MADE = 'mkdir -p .harness/local/d && ln -s "$PWD/.harness/local" .harness/local/d/s'


@pytest.mark.parametrize("command", [f"{MADE} && echo x >> .harness/local/d/s/../tasks/T/events.jsonl",
                                     f"{MADE} && git -C .harness/local/d/s/.. checkout HEAD~1 -- tasks/T/events.jsonl",
                                     f"{MADE} && cd -P .harness/local/d/s/.. && git checkout HEAD~1 -- tasks/T/events.jsonl",
                                     f"{MADE} && printf 'exit 0' > .harness/local/d/s/../../.git/hooks/pre-commit",
                                     'ln -s "$PWD/sub" a/b/s && echo x >> a/b/s/../.harness/tasks/T/events.jsonl',
                                     "ln -s ../.harness/local/up a/s; echo x >> a/s/tasks/T/events.jsonl",
                                     "cp -s \"$PWD/sub\" a/b/s && cd a/b/s && echo x >> ../.harness/tasks/T/events.jsonl",
                                     "ln --symbolic ../sub a/s && truncate -s0 a/s/../.harness/tasks/T/events.jsonl"])
def test_f0041_a_symbolic_link_made_on_a_line_that_does_more_is_refused(linked, command):
    """The guard reads the line before the link exists: a path through it (`s/..` is the folder above its
    target, not `s`'s folder) is judged by its text."""
    (linked / "sub").mkdir()
    (linked / "a/b").mkdir(parents=True)
    (linked / ".harness/local/up").symlink_to("..")
    assert guard_answer(linked, "Bash", {"command": command}) == "deny", command


@pytest.mark.parametrize("command", ["ln -s ../sub a/s", "ln -sf ../../sub a/b/s", "ln -s notes.txt .harness/local/n",
                                     "ln app.py a/app.py && cat a/app.py", "mkdir -p a/c && cp app.py a/c/ && ls a/c"])
def test_f0041_a_link_made_alone_and_lines_that_make_none_stay_allowed(linked, command):
    (linked / "sub").mkdir()
    (linked / "a/b").mkdir(parents=True)
    (linked / "app.py").write_text("x\n")
    assert guard_answer(linked, "Bash", {"command": command}) == "allow", command
