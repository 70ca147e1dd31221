"""The newest guard rules, spelled otherwise (#28's task F-0041..F-0049): a symlinked folder entered with `cd`
or glued to an option, link makers the link rule missed, glob refspecs and this repository named otherwise
than `.`, `git fast-import`, checkout-index's other spellings, git's grafts and shallow files — and the two
legitimate commands the rules refused."""

from __future__ import annotations

import pytest

from support.agent_guard import guard_answer

OID = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"


@pytest.fixture
def linked(h, repo):
    (repo / ".harness" / "tasks" / "T").mkdir(parents=True, exist_ok=True)
    (repo / "h").symlink_to(".harness")
    (repo / "g").symlink_to(".git")
    return repo


@pytest.mark.parametrize("command", ["cd h && echo '{}' >> tasks/T/events.jsonl", "pushd h && truncate -s 0 tasks/T/events.jsonl",
                                     "cd g && echo 'exit 0' > hooks/pre-commit"])
def test_a_symlinked_folder_entered_with_cd_is_judged_by_its_real_path(linked, command):
    assert guard_answer(linked, "Bash", {"command": command}) == "deny", command


@pytest.mark.parametrize("command", ["echo x >> .harness/local/up/tasks/T/events.jsonl",
                                     "cd .harness/local/up && echo x >> tasks/T/events.jsonl",
                                     "cd .harness/local/up && git checkout HEAD~1 -- tasks/T/events.jsonl",
                                     "git -C .harness/local/up checkout HEAD~1 -- tasks/T/events.jsonl"])
def test_a_link_inside_the_local_state_is_judged_by_its_real_path(linked, command):
    """#27's task F-0038: `.harness/local/` is the clone's untracked state, which the guard leaves alone; a link
    there that leads back into the record is the record."""
    (linked / ".harness/local").mkdir(parents=True, exist_ok=True)
    (linked / ".harness/local/up").symlink_to("..")
    assert guard_answer(linked, "Bash", {"command": command}) == "deny", command
    assert guard_answer(linked, "Bash", {"command": "echo x >> .harness/local/notes.txt"}) == "allow"


@pytest.mark.parametrize("command", ["dd if=/dev/null of=h/tasks/T/events.jsonl", "sort -oh/tasks/T/events.jsonl a.txt"])
def test_a_path_glued_to_an_option_is_judged_by_its_real_path(linked, command):
    assert guard_answer(linked, "Bash", {"command": command}) == "deny", command


@pytest.mark.parametrize("command", ["ln -st sub ../.harness", 'ln -s "$PWD/.harness" h2',
                                     "git update-index --add --cacheinfo 120000,{OID},h3".replace("{OID}", OID)])
def test_link_makers_spelled_otherwise_are_refused(h, repo, command):
    assert guard_answer(repo, "Bash", {"command": command}) == "deny", command


@pytest.mark.parametrize("command", ["git fetch other '+refs/r*:refs/r*'", "git fetch --update-head-ok other '+refs/*:refs/*'",
                                     "git fetch .git +HEAD:refs/notes/harness", 'git fetch "$PWD" +HEAD:refs/notes/harness',
                                     "git push .git +HEAD:refs/notes/harness",
                                     f"printf 'reset refs/replace/{OID}\\nfrom HEAD\\n\\n' | git fast-import"])
def test_refs_written_by_a_glob_this_repository_or_fast_import_are_refused(h, repo, command):
    assert guard_answer(repo, "Bash", {"command": command}) == "deny", command


def test_this_repository_by_its_absolute_path_is_this_repository(h, repo):
    assert guard_answer(repo, "Bash", {"command": f"git fetch {repo} +HEAD:refs/notes/harness"}) == "deny"


@pytest.mark.parametrize("command", ["git checkout-index -f ./.harness/tasks/T/events.jsonl",
                                     "echo .harness/tasks/T/events.jsonl | git checkout-index -f --stdin",
                                     "cd .harness && git checkout-index -f tasks/T/events.jsonl",
                                     "git -C .harness checkout-index -f tasks/T/events.jsonl"])
def test_checkout_index_over_the_record_however_spelled_is_refused(h, repo, command):
    assert guard_answer(repo, "Bash", {"command": command}) == "deny", command


@pytest.mark.parametrize("command", ["echo abc > .git/info/grafts", "echo abc > .git/shallow"])
def test_git_s_grafts_and_shallow_files_are_guarded(h, repo, command):
    assert guard_answer(repo, "Bash", {"command": command}) == "deny", command


@pytest.mark.parametrize("command", ["git checkout-index -a -f --prefix=/tmp/export/",
                                     "ln -s .harness/local/junit.xml junit.xml", "git update-index --add 120000_notes.txt"])
def test_an_export_and_a_link_to_local_scratch_are_allowed(h, repo, command):
    assert guard_answer(repo, "Bash", {"command": command}) == "allow", command


@pytest.mark.parametrize("command", ["echo '{}' >> $(echo h)/tasks/T/events.jsonl", "echo '{}' >> `echo h`/tasks/T/events.jsonl",
                                     "d=h; echo '{}' >> $d/tasks/T/events.jsonl", "d=g; echo 'exit 0' > $d/hooks/pre-commit",
                                     "d=h; cd $d && truncate -s 0 tasks/T/events.jsonl", "F=h/tasks/T/events.jsonl; dd if=/dev/null of=$F",
                                     "bash -c 'd=h; echo x >> $d/tasks/T/events.jsonl'"])
def test_a_word_the_guard_expands_is_judged_by_its_real_path_too(linked, command):
    """#28's task F-0050: the guard works out `$(echo h)` and `d=h; $d`; the word they make is followed through
    the symlink as a word written out is."""
    assert guard_answer(linked, "Bash", {"command": command}) == "deny", command
    elsewhere = command.replace("echo h)", "echo notes)").replace("echo h`", "echo notes`").replace("d=h", "d=notes")
    elsewhere = elsewhere.replace("d=g", "d=notes").replace("F=h/", "F=notes/")
    assert guard_answer(linked, "Bash", {"command": elsewhere}) == "allow", elsewhere


def test_dot_dot_after_a_symlink_is_taken_where_the_link_leads(linked):
    """`deep/..` is the parent of deep's target, as the shell walks it, not the folder deep sits in."""
    (linked / "deep").symlink_to(".harness/tasks/T")
    assert guard_answer(linked, "Bash", {"command": "echo '{}' >> deep/../T/events.jsonl"}) == "deny"
    assert guard_answer(linked, "Bash", {"command": "echo x >> deep/../notes.txt"}) == "allow"
