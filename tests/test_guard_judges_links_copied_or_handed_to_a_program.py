"""Read 43's links: a symbolic link that exists already is copied AS a link (cp -a/-P/-d/-R, mv, ln, rsync -a),
alone or inside a folder copied whole; on a line that runs more, the copy's new name is read by its text before it
exists, so a path through it reaches the record unseen (A). The rule: such a copy, on a line that runs more, is
refused as a link made there is (harness/agent/judge/line_links.py); a copy of no link, or one that follows links,
stays allowed. A find without -L hands the program it runs (-exec, -execdir, -ok, xargs) the links under its start,
and the program follows them (B): such a find is judged as one that follows links; -delete removes the link itself."""

from __future__ import annotations

import os

import pytest

from support.agent_guard import guard_answer


@pytest.fixture
def linked(h, repo):
    """A repository with a ledger, the clone's scratch folder and its links: `abs` -> the record (absolute),
    `up` -> `.harness`, `d/e/z` -> `../.harness/tasks` (dangling where it is: it leads nowhere until moved up)."""
    (repo / ".harness/tasks/T").mkdir(parents=True, exist_ok=True)
    (repo / ".harness/tasks/T/events.jsonl").write_text("1\n")
    (repo / ".harness/local/d/e").mkdir(parents=True, exist_ok=True)
    (repo / ".harness/local/valid").write_text("")
    (repo / ".harness/local/notes.txt").write_text("n\n")
    (repo / ".harness/local/abs").symlink_to(os.path.realpath(repo / ".harness"))
    (repo / ".harness/local/up").symlink_to("..")
    (repo / ".harness/local/d/e/z").symlink_to("../.harness/tasks")
    (repo / "src/pkg").mkdir(parents=True)
    (repo / "src/pkg/m.py").write_text("x = 1\n")
    (repo / "app.py").write_text("x\n")
    return repo


# -- A: a link copied as a link on a line that runs more ------------------------------------------------------------

@pytest.mark.parametrize("command", ["cp -a .harness/local/abs a && echo x >> a/tasks/T/events.jsonl",
                                     "cp -P .harness/local/up .harness/local/d/x && echo x >> .harness/local/d/x/valid",
                                     "cp -d .harness/local/up .harness/local/d/x; echo x >> .harness/local/d/x/valid",
                                     "cp -R .harness/local/abs a && echo x >> a/tasks/T/events.jsonl",
                                     "cp -r .harness/local/abs a && truncate -s0 a/tasks/T/events.jsonl",
                                     "cp --no-dereference .harness/local/abs a; echo x >> a/tasks/T/events.jsonl",
                                     "cp --archive -t d .harness/local/abs && echo x >> d/abs/tasks/T/events.jsonl",
                                     "cp -a .harness/local a && echo x >> a/abs/tasks/T/events.jsonl",
                                     "cp -a .harness/local/d/e e && echo x >> e/z/T/events.jsonl",
                                     "cd .harness/local && cp -a abs ../../a && cd ../.. && echo x >> a/tasks/T/events.jsonl",
                                     "cp -a .harness/local/a* b && echo x >> b/tasks/T/events.jsonl",
                                     "find .harness/local -name abs -exec cp -P {} a \\; && echo x >> a/tasks/T/events.jsonl",
                                     "mv .harness/local/d/e e && echo x >> e/z/T/events.jsonl",
                                     "mv -t . .harness/local/d/e && echo x >> e/z/T/events.jsonl",
                                     "ln .harness/local/d/e/z q && echo x >> q/T/events.jsonl",
                                     "rsync -a .harness/local/abs a && echo x >> a/tasks/T/events.jsonl",
                                     "cp -a \"$SRC\" a && echo x >> a/tasks/T/events.jsonl",
                                     "ls .harness/local | xargs cp -a -t a && echo x >> a/abs/tasks/T/events.jsonl"])
def test_a_a_link_copied_as_a_link_on_a_line_that_runs_more_is_refused(linked, command):
    """The copy's new name does not exist when the guard reads the line: a path through it is judged by its text.
    A source the guard cannot see (`$SRC`, an xargs's unseen input) may be a link: refused too."""
    answer = guard_answer(linked, "Bash", {"command": command})
    assert answer == "deny", command


@pytest.mark.parametrize("command", ["cp -r src build && ls build", "cp -a src build && python -m pytest -q build",
                                     "cp -R src/pkg b && cat b/m.py", "mv src/pkg lib && ls lib", "cp app.py b.py && cat b.py",
                                     "cp .harness/local/notes.txt n.txt && cat n.txt",
                                     "cp .harness/local/abs/tasks/T/events.jsonl copy.jsonl && cat copy.jsonl",
                                     "cp -rL linked out && ls out", "cp -a .harness/local/up .harness/local/up2",
                                     "mv .harness/local/up .harness/local/up.old", "cp -a src/* b/ && ls b",
                                     "find src -name '*.py' -exec cp {} b/ \\; && ls b",
                                     "echo app.py | xargs cp -t b && ls b"])
def test_a_a_copy_of_no_link_or_one_that_follows_links_or_alone_stays_allowed(linked, command):
    """A source that is no link and holds none (looked at on disk), a copy that follows links (plain cp of a
    file, -L), and a link copied by a line of its own (the next line's paths through it are followed)."""
    (linked / "linked").symlink_to("src")
    (linked / "b").mkdir()
    answer = guard_answer(linked, "Bash", {"command": command})
    assert answer == "allow", command


def test_a_a_folder_too_big_to_walk_is_taken_to_hold_a_link(tmp_path):
    """The walk is bounded: past its bound, what the folder holds is unknown, and a copy of it on a line that runs
    more is refused (split the line)."""
    from harness.agent.real_names import holds_links

    guarded = [str(tmp_path / ".harness"), str(tmp_path / ".git")]
    (tmp_path / ".harness").mkdir()
    (tmp_path / "big").mkdir()
    for i in range(12):
        (tmp_path / "big" / f"f{i}").write_text("")
    assert holds_links("big", str(tmp_path), True, guarded, bound=20) is False
    assert holds_links("big", str(tmp_path), True, guarded, bound=10) is True
    assert holds_links("big/f1", str(tmp_path), False, guarded) is False
    (tmp_path / "big/l").symlink_to("f1")  # a link that leads within what is copied: no way into the record
    assert holds_links("big", str(tmp_path), True, guarded) is False
    (tmp_path / "big/h").symlink_to("../.harness")  # one that climbs out of it, and leads into the record
    assert holds_links("big", str(tmp_path), True, guarded) is True
    assert holds_links("big", str(tmp_path), False, guarded) is False
    assert holds_links("big/h", str(tmp_path), False, guarded) is True
    assert holds_links("nothing", str(tmp_path), True, guarded) is False


# -- B: a find that runs a program on what it finds is handed the links under its start -----------------------------

@pytest.fixture
def handed(linked):
    """`.harness/local/x` -> the ledger, `src/t` -> the ledger's folder: a find without -L finds the links, and
    the program it runs on them follows them."""
    (linked / ".harness/local/x").symlink_to("../tasks/T/events.jsonl")
    (linked / "src/t").symlink_to("../.harness/tasks")
    return linked


@pytest.mark.parametrize("command", ["find .harness/local -name x -exec truncate -s0 {} +",
                                     "find .harness/local -name x -execdir truncate -s0 {} +",
                                     "find .harness/local/ -type l -exec truncate -s0 {} +",
                                     "find .harness/local -name x -ok truncate -s0 {} \\;",
                                     "find .harness/local -name x | xargs truncate -s0",
                                     "find src -name t -exec sh -c 'echo x >> $0/T/events.jsonl' {} \\;",
                                     "find src -name t -exec rm -rf {}/T \\;",
                                     "cd src && find . -name t -exec rm -rf {}/T \\;"])
def test_b_a_find_that_runs_a_program_on_links_under_its_start_is_judged_as_following_them(handed, command):
    """The program is handed the link, and follows it: the find is judged as one that follows links (-L), which
    may reach any guarded file."""
    answer = guard_answer(handed, "Bash", {"command": command})
    assert answer == "deny", command


@pytest.mark.parametrize("command", ["find .harness/local -name '*.tmp' -exec rm {} +",
                                     "find src -name '*.bak' -exec mv {} old/ \\;"])
def test_b_a_find_over_links_is_judged_as_one_that_follows_them_whatever_names_it_tests(handed, command):
    """Judged as `find -L`, erring towards a find that reaches every guarded file and folder: a link named `a.tmp`
    may lead to the record's folder, whose name find then shows as the link's (read 42's F-0042). The cost: such a
    find over a start that holds links is refused (name what it acts on, or add `-type f`)."""
    answer = guard_answer(handed, "Bash", {"command": command})
    assert answer == "deny", command


@pytest.mark.parametrize("command", ["find .harness/local -name x -delete", "find .harness/local -type l -delete",
                                     "find . -name '*.pyc' -delete", "find src -name '*.py' -exec grep -n x {} +",
                                     "find .harness/local -type f -name '*.tmp' -exec rm {} +"])
def test_b_a_find_that_deletes_links_or_runs_on_files_it_names_stays_allowed(handed, command):
    """-delete removes the link itself; a program run on the files the find's tests name (no guarded file's name)
    is judged as before, links or not."""
    answer = guard_answer(handed, "Bash", {"command": command})
    assert answer == "allow", command


@pytest.mark.parametrize("command", ["find src -name x -exec truncate -s0 {} +", "find src -type f -exec sed -i s/1/2/ {} +",
                                     "find src -name '*.py' -exec grep y {} +", "find src -name '*.bak' -exec mv {} old/ \\;",
                                     "find src -type l -exec rm {} +"])
def test_b_a_find_over_a_start_without_links_stays_allowed(linked, command):
    """No link under `src`: what the find may hand its program is what is there, judged by its path as before."""
    answer = guard_answer(linked, "Bash", {"command": command})
    assert answer == "allow", command


# -- F-0064: a relative link copied or moved into another folder, alone on its line -------------------------------

@pytest.fixture
def climbing(linked):
    """`.harness/local/a/tk` -> `../tasks` (the clone's own `.harness/local/tasks`, where it is) and
    `.harness/local/b/a/tk` -> `../../tasks` (the same, one folder deeper)."""
    (linked / ".harness/local/a").mkdir()
    (linked / ".harness/local/a/tk").symlink_to("../tasks")
    (linked / ".harness/local/b/a").mkdir(parents=True)
    (linked / ".harness/local/b/a/tk").symlink_to("../../tasks")
    return linked


@pytest.mark.parametrize("command", ["cp -P .harness/local/a/tk .harness/local/tk",
                                     "mv .harness/local/a/tk .harness/local/tk",
                                     "cp -a .harness/local/a/tk .harness/local/",
                                     "cp -P -t .harness/local .harness/local/a/tk",
                                     "ln .harness/local/a/tk .harness/local/tk",
                                     "rsync -a .harness/local/a/tk .harness/local/",
                                     "cp -a .harness/local/b/a .harness/local/",
                                     "cd .harness/local/a && cp -P tk ..",
                                     "mv .harness/local/b/a .harness/local/a2"])
def test_f0064_a_relative_link_put_where_it_leads_into_the_record_is_refused_alone_too(climbing, command):
    """From its new folder the link leads into the record: the copy makes the link `ln -s ../tasks
    .harness/local/tk` would, which is refused; alone on its line, it was allowed (F-0064)."""
    assert guard_answer(climbing, "Bash", {"command": command}) == "deny", command


@pytest.mark.parametrize("command", ["cp -P .harness/local/a/tk .harness/local/a/tk2",
                                     "mv .harness/local/a/tk .harness/local/a/tk.old",
                                     "cp -a .harness/local/a .harness/local/c",
                                     "cp -a .harness/local/b .harness/local/c",
                                     "cp -L .harness/local/a/tk x", "cp -r src build", "mv src/pkg lib"])
def test_f0064_a_link_copied_where_it_leads_nowhere_guarded_stays_allowed(climbing, command):
    """In its own folder a copied link leads where it did; a folder copied whole keeps its links' places among
    themselves; a copy that follows links copies what they lead to."""
    assert guard_answer(climbing, "Bash", {"command": command}) == "allow", command


# -- read 48 of F-0064's fix: an abbreviated target option, a destination or source through a link, a wide glob ----

@pytest.fixture
def climbing_up(linked):
    """`w/x/tk` -> `../.harness/tasks` (w/.harness/tasks where it is: nothing), `z/y/L` -> `../../w`, `q` ->
    `w/sub`, an empty `x/`, and `w/m/tk` -> `../.harness/tasks` among 70 plain files."""
    for folder in ("w/x", "w/sub", "w/m", "z/y", "x", "b"):
        (linked / folder).mkdir(parents=True, exist_ok=True)
    (linked / "w/x/tk").symlink_to("../.harness/tasks")
    (linked / "w/m/tk").symlink_to("../.harness/tasks")
    for n in range(70):
        (linked / f"w/m/a{n}").write_text("a\n")
    (linked / "z/y/L").symlink_to("../../w")
    (linked / "q").symlink_to("w/sub")
    return linked


@pytest.mark.parametrize("command", [
    "cp -a --target=d .harness/local/abs && echo x >> d/abs/tasks/T/events.jsonl",  # F-0068
    "cp -P --target=w w/x/tk", "cp -a --target-dir=w w/x/tk", "mv --target=w w/x/tk", "mv --t w w/x/tk",
    "ln --target=w w/x/tk",  # F-0069
    "mv w/x/tk z/y/L/", "cp -P w/x/tk z/y/L/", "cp -a w/x/tk z/y/L/tk", "rsync -a w/x/tk z/y/L/",  # F-0070
    "mv q/../x/tk x/", "cp -P q/../x/tk x/tk", "cp -a q/../x/tk x/",  # F-0071
    "mv w/m/* w/", "cp -P w/m/* w/", "cp -d w/m/?* w/",  # F-0072
])
def test_read48_a_link_put_where_it_leads_into_the_record_is_refused_however_the_copy_is_spelled(climbing_up, command):
    """A long option by an unambiguous prefix (getopt takes `--t`), a destination or a source reached through a
    symbolic link (the kernel follows it; `..` after it climbs from its target), and a copy whose links the guard
    cannot list all (F-0068..F-0072)."""
    assert guard_answer(climbing_up, "Bash", {"command": command}) == "deny", command


@pytest.mark.parametrize("command", ["mv w/x/tk w/x/tk2", "cp -a w/x w/y", "mv w/m/a1 w/", "cp --target=b app.py",
                                     "cp -P w/m/a1 z/y/L/", "mv --t b app.py"])
def test_read48_copies_that_make_no_link_into_the_record_stay_allowed(climbing_up, command):
    """A link renamed in its folder, a folder copied whole, plain files copied or moved with the abbreviated
    option or through a linked folder."""
    assert guard_answer(climbing_up, "Bash", {"command": command}) == "allow", command


# -- read 49: how the copiers' words are read, and where a kept link lands ------------------------------------------

@pytest.fixture
def read49(linked):
    """Links that lead nowhere where they are and into the record once copied (F-0073..F-0077), a file named `-x`,
    a folder `d` holding a forged `.harness/`."""
    def link(path: str, text: str) -> None:
        (linked / path).parent.mkdir(parents=True, exist_ok=True)
        (linked / path).symlink_to(text)

    link("x/y/z", "../../../../.harness/tasks")
    link("n1/v/F/.git/z", "../../../.harness/tasks")
    link("w/v/.harness/a", "../.harness/tasks")
    link("n2/v/F/s", "..")
    link("n2/v/F/a", "s/../.harness/tasks")
    link("a/b/z", "../.harness/tasks")
    for folder in ("q/r", "d/.harness/tasks/T"):
        (linked / folder).mkdir(parents=True, exist_ok=True)
    (linked / "d/.harness/tasks/T/events.jsonl").write_text("forged\n")
    (linked / "-x").write_text("#!/bin/sh\n")
    return linked


@pytest.mark.parametrize("command", [
    "cp --parents -P x/y/z q/r/", "rsync -lR x/y/z q/r/",  # F-0073
    "cp -r n1/v/F q/F", "mv n1/v/F q/F",  # F-0074
    "cp -r w/v/.harness G", "mv w/v/.harness G",  # F-0075
    "cp -r n2/v/F q/F2",  # F-0076
    'mv "$PWD/a/b/z" a/', 'mv a/b/z "$PWD/a/"',  # F-0077
    "cp -- -x .harness/tasks/T/events.jsonl", "cp -- -x .git/hooks/pre-commit",  # F-0078
    "cp app.py .git/hooks/pre-commit -S .b", "install app.py .harness/tasks/T/events.jsonl -m 644",  # F-0079
    "cp --li .harness/tasks/T/events.jsonl e", "cp --sym .harness/tasks/T/events.jsonl e",  # F-0080
    "cp -r --no-t d .", "rsync -a d/ .",  # F-0081
])
def test_read49_a_copy_that_reaches_the_record_is_refused_however_its_words_are_spelled(read49, command):
    """Options after the operands and their values, words after `--`, long options by a prefix getopt takes,
    `--parents`/`-R`, `.git` folders, links that leave a copy by their steps, `$PWD` (F-0073..F-0081)."""
    assert guard_answer(read49, "Bash", {"command": command}) == "deny", command


@pytest.fixture
def big(linked):
    """`src` of 20,200 files in 101 folders (more than the 20,000 entries a walk once looked at), `out` of 5,000."""
    for d in range(101):
        folder = linked / f"src/d{d}"
        folder.mkdir(parents=True)
        for f in range(200):
            (folder / f"f{f}.py").touch()
    (linked / "out").mkdir()
    (linked / "logs").mkdir()
    for n in range(5000):
        (linked / f"out/{n}.png").touch()
    return linked


@pytest.mark.parametrize("command", ["cp -r src build", "mv src dist", "cp -a src /tmp/elsewhere-read49",
                                     "mv out/*.png logs/", "cp -a out/*.png logs/"])
def test_read49_a_big_folder_or_a_wide_glob_without_links_stays_allowed(big, command):
    """F-0082, F-0083: a copy of many entries that holds no link is allowed (made refused by F-0072's fix)."""
    assert guard_answer(big, "Bash", {"command": command}) == "allow", command


def test_read49_an_rsync_option_is_not_read_as_a_copiers(read49):
    """rsync's `--no-times` (`--no-t…`) is not cp's `--no-target-directory`: `d` goes into the top as `d`, not as
    its contents, and the copy stays allowed."""
    assert guard_answer(read49, "Bash", {"command": "rsync -a --no-t d ."}) == "allow"
    assert guard_answer(read49, "Bash", {"command": "rsync -a --no-times d/ ."}) == "deny"


def test_read49_a_copy_whose_links_cannot_be_followed_says_why(read49):
    """The refusal of a copy whose kept links the guard cannot place names what it could not follow."""
    from support.agent_guard import guard_output

    said = guard_output(read49, "Bash", {"command": "cp -r n2/v/F q/F2"})
    assert '"deny"' in said and "cannot follow to where they land" in said and "comes after a name" in said
