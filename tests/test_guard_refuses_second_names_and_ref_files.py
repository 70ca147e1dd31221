"""What gives the harness's record, git's folder or a hook a second name is refused where it is made: a
symbolic or hard link to them (`ln -s .git g`, `ln .harness/…/events.jsonl notes.txt`, `cp -l`), since a
write through the new name is judged by a name the guard does not know (#28's task F-0038..F-0040). And a
replace ref or the stamps' notes ref is refused however it is written: as a loose ref file, through
`--refmap`, or through a remote's configured refspec (F-0036)."""

from __future__ import annotations

import pytest

from support.agent_guard import guard_answer

OID = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"


@pytest.mark.parametrize("command", ["ln -s .harness h", "ln -s ../.harness sub/h", "ln -sf .harness/tasks t",
                                     "cp -s .harness/tasks/T/events.jsonl x"])
def test_a_symlink_to_the_record_is_refused(h, repo, command):
    assert guard_answer(repo, "Bash", {"command": command}) == "deny", command


@pytest.mark.parametrize("command", ["ln .harness/tasks/T/events.jsonl notes.txt", "cp -l .harness/config.yaml c.yaml",
                                     "link .harness/gate.yaml g.yaml", "cp --link .harness/tasks/T/task.yaml t.yaml"])
def test_a_hard_link_to_the_record_is_refused(h, repo, command):
    assert guard_answer(repo, "Bash", {"command": command}) == "deny", command


@pytest.mark.parametrize("command", ["ln -s .git g", "ln -s .git/hooks hk", "ln .git/config c", "ln -s ../.git sub/g"])
def test_a_link_to_git_s_folder_or_hooks_is_refused(h, repo, command):
    assert guard_answer(repo, "Bash", {"command": command}) == "deny", command


@pytest.mark.parametrize("command", [f"git rev-parse HEAD > .git/refs/replace/{OID}",
                                     "git rev-parse HEAD > .git/refs/notes/harness",
                                     "git fetch --refmap=+refs/heads/*:refs/replace/* . main",
                                     f"git config remote.self.fetch +refs/heads/main:refs/replace/{OID}",
                                     "git config remote.self.fetch +refs/heads/main:refs/notes/harness"])
def test_a_replace_or_notes_ref_written_as_a_file_or_a_refspec_is_refused(h, repo, command):
    assert guard_answer(repo, "Bash", {"command": command}) == "deny", command


@pytest.mark.parametrize("command", ["ln -s src/app.py app.py", "ln -s ../shared lib", "cp -l build/a.o b.o",
                                     "cp -r src dst", "ln -s /usr/bin/python3 py", "git config remote.origin.fetch "
                                     "+refs/heads/*:refs/remotes/origin/*", "git fetch --refmap= origin",
                                     "cat .git/refs/heads/main"])
def test_ordinary_links_and_refspecs_are_allowed(h, repo, command):
    assert guard_answer(repo, "Bash", {"command": command}) == "allow", command


@pytest.mark.parametrize(("link", "target", "command"), [
    ("h", ".harness", "echo '{}' >> h/tasks/T/events.jsonl"), ("h", ".harness", "truncate -s 0 h/tasks/T/events.jsonl"),
    ("h", ".harness", "sed -i '$d' h/tasks/T/events.jsonl"), ("g", ".git", "echo 'exit 0' > g/hooks/pre-commit"),
    ("g", ".git", "rm g/hooks/pre-commit"), ("g", ".git", "printf '[core]\\n\\thooksPath = /dev/null\\n' >> g/config"),
    ("h", ".harness", "cd h && echo '{}' >> tasks/T/events.jsonl"), ("g", ".git", "cd g/hooks && rm pre-commit")])
def test_a_write_through_a_symlink_that_exists_already_is_judged_by_the_real_path(h, repo, link, target, command):
    (repo / ".harness" / "tasks" / "T").mkdir(parents=True, exist_ok=True)
    (repo / link).symlink_to(target)  # made by a human, or before the guard refused making it
    assert guard_answer(repo, "Bash", {"command": command}) == "deny", command
    elsewhere = command.replace(f"{link}/", "notes/").replace(f"cd {link} ", "cd notes ")
    assert guard_answer(repo, "Bash", {"command": elsewhere}) == "allow", elsewhere
