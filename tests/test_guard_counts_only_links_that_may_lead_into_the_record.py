"""Read 46 of the guard's link rules. A link counts only where it may lead into `.harness/` or `.git/`: its real
path is in one (or holds one), or, relative, it climbs out of the folder being copied, where it leads then depends
on where the copy lands; `.git/` is not walked, and an ordinary repository stays under the walk's bound (F-0060: a
venv's `lib64 -> lib` or a 2,100-file tree made `find . -name '*.pyc' -exec rm {} +` a refusal). A glob standing
where a link's name is is followed through it (F-0061); cp's long options count however abbreviated (F-0062); and
a line runs more than a copy when it holds another command, even one with the copy's very words (F-0063)."""

from __future__ import annotations

import pytest

from support.agent_guard import guard_answer, guard_output

EVERYDAY = ["find . -name '*.pyc' -exec rm {} +", "find . -name __pycache__ -type d -exec rm -rf {} +",
            "mv venv venv.old && ls", "cp -a node_modules nm-backup && ls", "cp -r src build && ls build",
            "find src -name '*.py' -exec grep -l x {} +", "find . -name '*.orig' | xargs rm -f", "mv src src2 && ls"]


@pytest.fixture
def everyday(h, repo):
    """A repository with the links a project has (a venv's lib64 -> lib, node_modules' .bin links) and 2,100 files."""
    (repo / "venv/lib").mkdir(parents=True)
    (repo / "venv/lib64").symlink_to("lib")
    (repo / "node_modules/pkg/bin").mkdir(parents=True)
    (repo / "node_modules/pkg/bin/tool").write_text("#!/bin/sh\n")
    (repo / "node_modules/.bin").mkdir()
    (repo / "node_modules/.bin/tool").symlink_to("../pkg/bin/tool")
    (repo / "src").mkdir()
    for i in range(2100):
        (repo / "src" / f"f{i}.py").write_text("")
    return repo


@pytest.mark.parametrize("command", EVERYDAY)
def test_f0060_everyday_lines_over_harmless_links_and_many_files_stay_allowed(everyday, command):
    assert guard_answer(everyday, "Bash", {"command": command}) == "allow", command


@pytest.fixture
def tk(h, repo):
    """The record's tasks folder, with a ledger, and `.harness/local/tk -> ../tasks`; `.harness/local/a/tk` -> it too."""
    (repo / ".harness/tasks/T").mkdir(parents=True, exist_ok=True)
    (repo / ".harness/tasks/T/events.jsonl").write_text("1\n")
    (repo / ".harness/local/a").mkdir(parents=True, exist_ok=True)
    (repo / ".harness/local/tk").symlink_to("../tasks")
    (repo / ".harness/local/a/tk").symlink_to(str((repo / ".harness/tasks").resolve()))
    return repo


@pytest.mark.parametrize("command", ["truncate -s0 .harness/local/t*/T/events.jsonl",
                                     "echo x >> .harness/local/*/T/events.jsonl",
                                     "cd .harness/local && truncate -s0 t?/T/events.jsonl",
                                     "sed -i 1d .harness/local/[t]k/T/events.jsonl"])
def test_f0061_a_glob_where_a_link_s_name_is_is_followed(tk, command):
    assert guard_answer(tk, "Bash", {"command": command}) == "deny", command


@pytest.mark.parametrize("command", ["cp --arch .harness/local/a/tk .harness/local/tk2 && echo x >> .harness/local/tk2/T/events.jsonl",
                                     "cp --no-deref .harness/local/a/tk .harness/local/tk2 && echo x >> .harness/local/tk2/T/events.jsonl",
                                     "cp --recur .harness/local/a/tk .harness/local/tk2 && echo x >> .harness/local/tk2/T/events.jsonl"])
def test_f0062_cp_s_long_options_count_however_abbreviated(tk, command):
    assert guard_answer(tk, "Bash", {"command": command}) == "deny", command


def test_f0063_a_second_copy_with_the_same_words_is_more_on_the_line(tk):
    command = ("cp -P .harness/local/a/tk .harness/local/tk2; "
               "cp -P .harness/local/a/tk .harness/local/tk2 > .harness/local/tk2/T/events.jsonl")
    assert guard_answer(tk, "Bash", {"command": command}) == "deny"


@pytest.mark.parametrize("command", ["cp --arch src build && ls build", "cp -P .harness/local/a/tk .harness/local/tk2",
                                     "ls .harness/local/t*", "cat .harness/local/*.txt"])
def test_the_same_spellings_without_a_way_into_the_record_stay_allowed(tk, command):
    (tk / "src").mkdir()
    (tk / ".harness/local/n.txt").write_text("n\n")
    assert guard_answer(tk, "Bash", {"command": command}) == "allow", command


def test_f0065_a_glob_too_wide_to_expand_is_taken_to_reach_the_record(tk, monkeypatch):
    """Past the bound of paths a glob word's expansion looks at, where it leads is unknown: a write through it is
    refused (a read stays allowed)."""
    for i in range(70):
        (tk / ".harness/local" / f"f{i}").write_text("")
    assert guard_answer(tk, "Bash", {"command": "echo x >> .harness/local/*/T/events.jsonl"}) == "deny"
    assert guard_answer(tk, "Bash", {"command": "ls .harness/local/*"}) == "allow"


def test_f0065_past_the_bound_a_glob_inside_the_repository_is_spelled_as_the_record(tk, tmp_path, monkeypatch):
    from harness.agent import real_names

    monkeypatch.setattr(real_names, "MAX_FOLLOWED", 5)
    for i in range(10):
        (tk / ".harness/local" / f"f{i}").write_text("")
        (tmp_path / "elsewhere" / f"g{i}").parent.mkdir(exist_ok=True)
        (tmp_path / "elsewhere" / f"g{i}").write_text("")
    real_name = real_names.follower(str(tk))
    assert real_name(".harness/local/*/T/events.jsonl", str(tk)) == ".harness"
    assert real_name(f"{tmp_path}/elsewhere/g*", str(tk)) is None  # beside the repository: left as written
    for i in range(10):
        (tmp_path / f"above{i}").mkdir()
    assert real_name(f"{tmp_path}/*/x", str(tk)) == ".harness"  # above it: it may reach into the repository
    assert real_name("app.py", str(tk)) is None


def test_a_find_refused_for_the_links_under_its_start_says_so(tk):
    """The line names no guarded path itself: the refusal names the links and the way out, not the record as its
    target; a find that names the record itself keeps the record's own refusal."""
    said = guard_output(tk, "Bash", {"command": "find .harness/local -name '*.tmp' -exec rm {} +"})
    assert '"deny"' in said and "holds a link that may lead into the record" in said and "-type f" in said
    said = guard_output(tk, "Bash", {"command": "find .harness/tasks -name '*.jsonl' -exec rm {} +"})
    assert '"deny"' in said and "holds a link" not in said
    assert guard_answer(tk, "Bash", {"command": "find .harness/local -type f -name '*.tmp' -exec rm {} +"}) == "allow"
