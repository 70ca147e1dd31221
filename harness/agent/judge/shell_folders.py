"""The folders a command line may run its commands in, and the words that name them.

Pure. `cd .harness && echo x >> tasks/T/events.jsonl` writes the ledger; so may `cd -- .harness`, `cd -`
back into it, `popd`, `env -C .harness …` and `find … -execdir …`. A `cd` may also fail (`cd nowhere; …`), or
run in a subshell (`(cd src); …`, `bash -c 'cd src'; …), and leave the line where it was. So the judge keeps
every folder the line may be in and judges each command in each of them (#28's task F-0057, F-0058): a folder
entered is added, never put in place of the ones before. `$PWD`, `~`, `~+`, `~-` and `$HOME` are spelled
out per folder (#28's task F-0060), and a find's `{}` stands for each guarded file the find may reach
(#28's task F-0059).
"""

from __future__ import annotations

import itertools
import posixpath
import re
from collections.abc import Iterator

from harness.agent.judge.guarded_paths import HARNESS, Where
from harness.agent.judge.shell_commands import SimpleCommand
from harness.agent.judge.shell_resolve import unresolved
from harness.core.value_class import replace

CHANGERS = frozenset({"cd", "pushd", "popd"})
# What the shell knows of its own folders, spelled in a word.
PWD = r"\$(?:\{PWD\}|PWD(?![A-Za-z0-9_]))"
OLDPWD = r"\$(?:\{OLDPWD\}|OLDPWD(?![A-Za-z0-9_]))"
HOME = r"\$(?:\{HOME\}|HOME(?![A-Za-z0-9_]))"
# The guarded files a `find` may hand its -exec command, by where they lie in a repository.
FOUND_SAMPLES = tuple(f"{HARNESS}/{name}" for name in ("tasks/TASK/events.jsonl", "approvals.jsonl", "allowed_signers",
                                                      "tasks/TASK/evidence/EVIDENCE.json")) + (
    ".git/hooks/pre-commit", ".git/config", ".git/info/grafts")
# ... and the folders (`find . -name .harness -exec rm -rf {} +` deletes the record whole).
FOUND_FOLDERS = (HARNESS, f"{HARNESS}/tasks", f"{HARNESS}/tasks/TASK", f"{HARNESS}/tasks/TASK/evidence", ".git", ".git/hooks")
# find's tests on names, and the operators after which a test no longer narrows what is found.
NAME_TESTS = {"-name": False, "-iname": True}
PATH_TESTS = {"-path": False, "-ipath": True, "-wholename": False, "-iwholename": True}
LOGIC = frozenset({"!", "-not", "-o", "-or", "(", ")", "-prune", ","})


def entered(cmd: SimpleCommand, folders: list[Where]) -> list[Where] | None:
    """The folders a cd, pushd or popd may enter beyond ``folders`` ([] when none is new: `cd -`, `popd`, a
    failing `cd a b`), or None when the guard cannot work out where it goes (`cd "$X"`, `cd` with no home)."""
    args = list(cmd.words[1:])
    while args and args[0].startswith("-") and args[0] != "-" and not args[0][1:].isdigit():
        if args.pop(0) == "--":
            break
    if cmd.program == "popd" or (cmd.program == "pushd" and (not args or args[0][:1] in "+-")):
        return []  # back to (or between) folders the line was in already
    if len(args) > 1 or args == ["-"] or args[:1] == ["~-"]:
        return []  # an error, or the previous folder: one of ``folders``
    home = folders[0].home
    target = args[0] if args else "~"
    if target == "~+" or target.startswith("~+/"):
        target = "." + target[2:]
    elif target == "~" or target.startswith("~/"):
        if not home:
            return None
        target = home + target[1:]
    if unresolved(target) or target.startswith("~"):
        return None
    return [f.cd(target) for f in folders]


def spelled_in(cmd: SimpleCommand, here: Where, folders: list[Where]) -> Iterator[tuple[SimpleCommand, Where]]:
    """``cmd`` as it runs in ``here``: `$PWD`, `~` and kin spelled out (once per earlier folder for `~-`),
    and a find's run once per guarded file it may be handed (in that file's folder for -execdir)."""
    for spelled in _folder_words(cmd, here, folders):
        yield spelled, here
        if spelled.found_by:
            yield from _found_runs(spelled, here)


def _folder_words(cmd: SimpleCommand, here: Where, folders: list[Where]) -> Iterator[SimpleCommand]:
    text = " ".join((*cmd.words, *cmd.assignments, *(t for _, t in cmd.redirects)))
    if "$" not in text and "~" not in text:
        yield cmd
        return
    olds = [f.cwd for f in folders if f is not here] or [""] if ("OLDPWD" in text or "~-" in text) else [""]
    for old in olds:
        def spell(word: str, old: str = old) -> str:
            return _spelled(word, here.cwd, old, here.home)

        yield replace(cmd, words=tuple(spell(w) for w in cmd.words),
                      assignments=tuple(a.partition("=")[0] + "=" + spell(a.partition("=")[2]) for a in cmd.assignments),
                      redirects=tuple((op, spell(t)) for op, t in cmd.redirects))


def _spelled(word: str, pwd: str, old: str, home: str) -> str:
    if word == "~+" or word.startswith("~+/"):
        word = pwd + word[2:]
    elif old and (word == "~-" or word.startswith("~-/")):
        word = old + word[2:]
    elif home and (word == "~" or word.startswith("~/")):
        word = home + word[1:]
    if "$" in word:
        word = re.sub(PWD, lambda _: pwd, word)
        word = re.sub(OLDPWD, lambda _: old, word) if old else word
        word = re.sub(HOME, lambda _: home, word) if home else word
    return word


def _found_runs(cmd: SimpleCommand, here: Where) -> Iterator[tuple[SimpleCommand, Where]]:
    """A find's -exec run with `{}` as each guarded file the find may reach (a `-execdir` run in its folder)."""
    for found in found_files(cmd.found_by, here):
        name = "./" + posixpath.basename(found) if cmd.in_found_folder else found
        there = Where(here.root, posixpath.dirname(found), here.home) if cmd.in_found_folder else here
        yield replace(cmd, words=tuple(w.replace("{}", name) for w in cmd.words)), there


def found_files(find_words: tuple[str, ...], here: Where) -> list[str]:
    """The guarded files (absolute paths, samples of each kind) that ``find_words`` may find from ``here``:
    under a start folder, and passing its name and path tests (any test it combines with `!`, `-o` or
    `-prune`, or does not know, is taken to pass: erring towards a file found)."""
    args = list(find_words[1:])
    cut = next((i for i, a in enumerate(args) if a in ("-exec", "-execdir", "-ok", "-okdir")), len(args))
    args = args[:cut]  # find's own expression: what its runs are handed is not a test
    starts = []
    while args and not args[0].startswith("-") and args[0] not in ("!", "(", ","):
        starts.append(args.pop(0))
    narrowing = not LOGIC & set(args)
    out = []
    for start in starts or ["."]:
        base = posixpath.normpath(posixpath.join(here.cwd, start))
        for sample, kind in [(s, "f") for s in FOUND_SAMPLES] + [(s, "d") for s in FOUND_FOLDERS]:
            full = posixpath.join(here.root, sample)
            if full != base and not full.startswith(base.rstrip("/") + "/"):
                continue
            shown = start.rstrip("/") + full[len(base.rstrip("/")):]  # as find prints it: START/…
            if not narrowing or _passes(args, full, shown, kind):
                out.append(full)
    return out


def _passes(args: list[str], full: str, shown: str, kind: str) -> bool:
    from fnmatch import fnmatchcase

    for test, value in itertools.pairwise(args):
        if test in NAME_TESTS or test in PATH_TESTS:
            subject = posixpath.basename(full) if test in NAME_TESTS else shown
            fold = NAME_TESTS.get(test, PATH_TESTS.get(test, False))
            if not fnmatchcase(subject.lower() if fold else subject, value.lower() if fold else value):
                return False
        elif test == "-type" and kind not in value.split(","):
            return False
    return True
