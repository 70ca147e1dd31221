"""The folders a command line may run its commands in, and the words that name them.

Pure. `cd .harness && echo x >> tasks/T/events.jsonl` writes the ledger; so may `cd -- .harness`, `cd -`
back into it, `popd`, `env -C .harness …` and `find … -execdir …`. A `cd` may also fail (`cd nowhere; …`), or
run in a subshell (`(cd src); …`, `bash -c 'cd src'; …), and leave the line where it was. So the judge keeps
every folder the line may be in and judges each command in each of them (#28's task F-0057, F-0058): a folder
entered is added to the ones before, except on a plain line of `&&`-chained commands, where the next command
runs only once the cd succeeded (bypass._and_chained; #28's task F-0089; a cd back there returns to every
folder the line left, F-0091). `$PWD`, `~`, `~+`, `~-` and `$HOME` are spelled out per folder (#28's task
F-0060), and a find's `{}` stands for each guarded file or folder the find may reach (#28's task F-0059).
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterator

from harness.agent.judge.cd_targets import glob_folders, mktemp_folder, with_loop_words
from harness.agent.judge.glob_reach import loosened
from harness.agent.judge.guarded_paths import DESCRIPTOR, FOUND_FOLDERS, FOUND_SAMPLES, GLOB_CHARS, Where
from harness.agent.judge.shell_commands import SimpleCommand
from harness.agent.judge.shell_prefixes import XARGS_INPUT
from harness.agent.judge.shell_resolve import unresolved
from harness.core import lazy_re as re  # imported on a pattern's first use: most lines need none
from harness.core.value_class import replace

# What the shell knows of its own folders, spelled in a word.
PWD = r"\$(?:\{PWD\}|PWD(?![A-Za-z0-9_]))"
PWD_COMMAND = r"\$\(pwd\)|`pwd`|\$\{PWD%+/\}"  # `$(pwd)`, `${PWD%/}`: the folder too (F-0082)
DIRNAME_PWD = r'\$\(dirname\s+"?\$\{?PWD\}?"?\)'  # `$(dirname "$PWD")`: the folder above (F-0082)
OLDPWD = r"\$(?:\{OLDPWD\}|OLDPWD(?![A-Za-z0-9_]))"
HOME = r"\$(?:\{HOME\}|HOME(?![A-Za-z0-9_]))"
# find's tests on names and paths (True: case folded).
NAME_TESTS = {"-name": False, "-iname": True}
PATH_TESTS = {"-path": False, "-ipath": True, "-wholename": False, "-iwholename": True}


def entered(cmd: SimpleCommand, folders: list[Where], loops: dict[str, tuple[str, ...]] | None = None
            ) -> list[Where] | None:
    """The folders a cd, pushd or popd may enter beyond ``folders`` ([] when none is new: `cd -`, `popd`, a
    failing `cd a b`), or None when the guard cannot work out where it goes (`cd "$X"`, `cd` with no home).
    A loop variable stands for each word its loop walks (``loops``; harness/agent/judge/cd_targets.py)."""
    args, options = list(cmd.words[1:]), []
    while args and args[0].startswith("-") and args[0] != "-" and not args[0][1:].isdigit():
        options.append(args.pop(0))
        if options[-1] == "--":
            break
    if cmd.program in ("pushd", "popd") and "-n" in options:
        return []  # -n changes the stack, not the folder (#28's task F-0092)
    if any(re.match(DESCRIPTOR, a) for a in args):
        return None  # a folder by an open descriptor: whichever the line opened (#28's task F-0099)
    if args[:1] and args[0].startswith("$(mktemp"):  # (a substitution's value comes split in words)
        made = [mktemp_folder(" ".join(args), f.cwd, f.tmp) for f in folders]
        return None if None in made else [f.cd(m) for f, m in zip(folders, made, strict=True) if m]
    if len(args) == 1 and unresolved(args[0]):
        targets = with_loop_words(args[0], loops or {})
        if targets is None:
            return None  # `cd "$X"`: where it leads is not known (#28's task F-0079)
        return _all_entered([replace(cmd, words=(cmd.words[0], t)) for t in targets], folders)
    if any(unresolved(a) for a in args):
        return None
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
    if GLOB_CHARS & set(target):  # `cd packages/*` (in a loop, mostly): each folder it may match
        found = [f.cd(g) for f in folders for g in glob_folders(target, f.cwd, f.root)]
    else:
        found = [f.cd(target) for f in folders]
    return None if any(re.match(DESCRIPTOR, f.cwd) for f in found) else found  # `cd /dev && cd fd/3` too


def _all_entered(changes: list[SimpleCommand], folders: list[Where]) -> list[Where] | None:
    out: list[Where] = []
    for change in changes:
        found = entered(change, folders)
        if found is None:
            return None
        out += [f for f in found if f not in out]
    return out


def spelled_in(cmd: SimpleCommand, here: Where, folders: list[Where], loose: int = 0
               ) -> Iterator[tuple[SimpleCommand, Where]]:
    """``cmd`` as it runs in ``here``: `$PWD`, `~` and kin spelled out (once per earlier folder for `~-`),
    and a find's run once per guarded file it may be handed (in that file's folder for -execdir)."""
    spellings = (d for w in _folder_words(cmd, here, folders) for d in _through_descriptors(w, here))
    for spelled in (g for d in spellings for g in loosened(d, here, loose)):
        yield spelled, here
        if spelled.found_by:
            yield from _found_runs(spelled, here)


def _folder_words(cmd: SimpleCommand, here: Where, folders: list[Where]) -> Iterator[SimpleCommand]:
    text = " ".join((*cmd.words, *cmd.assignments, *(t for _, t in cmd.redirects)))
    if "$" not in text and "~" not in text and "`" not in text:
        yield cmd
        return
    olds = [f.cwd for f in folders if f is not here] or [""] if ("OLDPWD" in text or "~-" in text) else [""]
    for old in olds:
        def spell(word: str, old: str = old) -> str:
            return _spelled(word, here.cwd, old, here.home)

        yield replace(cmd, words=tuple(spell(w) for w in cmd.words),
                      assignments=tuple(a.partition("=")[0] + "=" + spell(a.partition("=")[2]) for a in cmd.assignments),
                      redirects=tuple((op, spell(t)) for op, t in cmd.redirects))


def _through_descriptors(cmd: SimpleCommand, here: Where) -> Iterator[SimpleCommand]:
    """``cmd``, and when it names a path through an open descriptor (`/dev/fd/3/tasks/…`), ``cmd`` once for each
    folder the descriptor may hold: the top, and each folder of the record and of git's (#28's task F-0099)."""
    yield cmd
    near = here.cwd == "/" or here.cwd.startswith(("/dev", "/proc"))  # (`cd /; sed -i 1d dev/fd/3/…`; F-0123)

    def through(word: str) -> str | None:
        """The word's path, when it leads through a descriptor (`//dev/fd/3/…` too; F-0108)."""
        if not near and "/dev" not in word and "/proc" not in word:
            return None
        full = posixpath.normpath(posixpath.join(here.cwd, word))
        if "fd/" not in full and "/std" not in full:
            return None  # text DESCRIPTOR cannot match without (a folder under /dev, as tmpfs's /dev/shm, needs no `re`)
        return full if re.match(DESCRIPTOR + "/", full) else None

    if not any(through(t) for t in (*cmd.words, *(t for _, t in cmd.redirects))):
        return
    for folder in ("", *FOUND_FOLDERS):
        base = posixpath.join(here.root, folder) if folder else here.root

        def put(word: str, base: str = base) -> str:
            full = through(word)
            return re.sub(DESCRIPTOR, lambda _: base, full) if full else word

        yield replace(cmd, words=tuple(put(w) for w in cmd.words), redirects=tuple((op, put(t)) for op, t in cmd.redirects))


def _spelled(word: str, pwd: str, old: str, home: str) -> str:
    if word == "~+" or word.startswith("~+/"):
        word = pwd + word[2:]
    elif old and (word == "~-" or word.startswith("~-/")):
        word = old + word[2:]
    elif home and (word == "~" or word.startswith("~/")):
        word = home + word[1:]
    if "$" in word or "`" in word:
        word = re.sub(DIRNAME_PWD, lambda _: posixpath.dirname(pwd), word)
        word = re.sub(PWD_COMMAND, lambda _: pwd, word)
        word = re.sub(PWD, lambda _: pwd, word)
        word = re.sub(OLDPWD, lambda _: old, word) if old else word
        word = re.sub(HOME, lambda _: home, word) if home else word
    return word


def _found_runs(cmd: SimpleCommand, here: Where) -> Iterator[tuple[SimpleCommand, Where]]:
    """A find's -exec run with `{}` as each guarded file the find may reach (a `-execdir` run in its folder)."""
    for found in found_files(cmd.found_by, here):
        name = "./" + posixpath.basename(found) if cmd.in_found_folder else found
        there = replace(here, cwd=posixpath.dirname(found)) if cmd.in_found_folder else here
        words = tuple(w.replace(XARGS_INPUT, name).replace("{}", name) for w in cmd.words)
        redirects = tuple((op, t.replace(XARGS_INPUT, name).replace("{}", name)) for op, t in cmd.redirects)  # `sh -c 'echo >> "$0"' {}`
        yield replace(cmd, words=words, redirects=redirects), there


def found_files(find_words: tuple[str, ...], here: Where) -> list[str]:
    """The guarded files (absolute paths, samples of each kind) that ``find_words`` may find from ``here``:
    under a start folder, and passing its name and path tests (any test it combines with `!`, `-o` or
    `-prune`, or does not know, is taken to pass: erring towards a file found). A find that follows links (`-L`,
    `-follow`) may reach any of them from any start, through a link under it (`.harness/local/t -> ../tasks`): a
    folder by the link's name, a file by a path through it (read 42's F-0042)."""
    follows = "-L" in find_words[1:] or "-follow" in find_words[1:]
    args = _runs_collapsed(list(find_words[1:]))
    starts = [here.root if s is None else s for s in find_starts(find_words)]  # (from a file: anywhere)
    del args[:_options_and_starts(args)]
    out = []
    for start in starts:
        base = here.root if follows else posixpath.normpath(posixpath.join(here.cwd, start))
        for sample, kind in [(s, "f") for s in FOUND_SAMPLES] + [(s, "d") for s in FOUND_FOLDERS]:
            full = posixpath.join(here.root, sample)
            if full != base and not full.startswith(base.rstrip("/") + "/"):
                continue
            shown = start.rstrip("/") + full[len(base.rstrip("/")):]  # as find prints it: START/…
            if _may_match(args, (full, "" if follows else shown, kind)):
                out.append(full)
    return out


def find_starts(find_words: tuple[str, ...]) -> list[str | None]:
    """The start folders ``find_words`` (find's own, from the program's) walk from, `.` when none; None for
    those a `-files0-from` file names (any folder)."""
    args = list(find_words[1:])
    first = _options_end(args)
    end = _options_and_starts(args)
    starts: list[str | None] = list(args[first:end])
    if "-files0-from" in args[end:]:
        return [None, *starts]
    return starts or ["."]


def _options_end(args: list[str]) -> int:
    """How many of ``args`` are find's options before its start folders (F-0080)."""
    i = 0
    while i < len(args) and (args[i] in ("-H", "-L", "-P") or re.fullmatch(r"-O\d*", args[i]) or args[i] == "-D"):
        i += 2 if args[i] == "-D" else 1
    return i


def _options_and_starts(args: list[str]) -> int:
    """How many of ``args`` are find's options and its start folders."""
    i = _options_end(args)
    while i < len(args) and not args[i].startswith("-") and args[i] not in ("!", "(", ","):
        i += 1
    return i


RUN = "\0run"  # a -exec (-execdir, -ok, -okdir) action and its words, as one token of find's expression


def _runs_collapsed(args: list[str]) -> list[str]:
    """find's expression with each run (`-exec CMD {} ;`) as one RUN token: its words are no tests."""
    out, in_run = [], False
    for a in args:
        if in_run:
            in_run = a not in (";", "+")
        elif a in ("-exec", "-execdir", "-ok", "-okdir"):
            out.append(RUN)
            in_run = True
        elif a == "-delete":
            out.append(RUN)  # an action on the file found, as a run is (#28's task F-0101)
        else:
            out.append(a)
    return out


def _may_match(args: list[str], file: File) -> bool:
    """Whether find's expression ``args`` may run its command on ``file`` (its full path, as find prints it or ""
    when that is not known, f or d): whether a RUN is reached as find evaluates it, `!`, `-a`, `-o` and parentheses
    short-circuiting as in find (`-path ./.git -prune -o -name '*.py' -exec …` runs nothing on .git;
    #28's task F-0090). `-name`, `-path`, `-type` are decided; any other test may be either."""
    tokens = [a for a in args if a not in ("-depth", "-xdev", "-mount", "-follow", "-noleaf", "-daystart")]
    if RUN not in tokens:
        tokens.append(RUN)  # (a run given on its own, for a find the guard reads otherwise)
    reached: list[bool] = []
    _list(tokens, 0, file, True, reached)
    return bool(reached)


def _list(tokens: list[str], i: int, file: File, live: bool, reached: list[bool]) -> tuple[Maybe, int]:
    """`EXPR , EXPR`: both evaluated, the value the last one's (#28's task F-0100)."""
    value, i = _or(tokens, i, file, live, reached)
    while i < len(tokens) and tokens[i] == ",":
        value, i = _or(tokens, i + 1, file, live, reached)
    return value, i


Maybe = bool | None  # True, False, or either (a test the guard does not decide)
File = tuple[str, str, str]  # (its full path, as find prints it ("": not known, through a link), f or d)


def _or(tokens: list[str], i: int, file: File, live: bool, reached: list[bool]) -> tuple[Maybe, int]:
    left, i = _and(tokens, i, file, live, reached)
    while i < len(tokens) and tokens[i] in ("-o", "-or"):
        right, i = _and(tokens, i + 1, file, live and left is not True, reached)  # evaluated when the left may fail
        left = True if True in (left, right) else (None if None in (left, right) else False)
    return left, i


def _and(tokens: list[str], i: int, file: File, live: bool, reached: list[bool]) -> tuple[Maybe, int]:
    left, i = _not(tokens, i, file, live, reached)
    while i < len(tokens) and tokens[i] not in ("-o", "-or", ")", ","):
        i += tokens[i] in ("-a", "-and")
        right, i = _not(tokens, i, file, live and left is not False, reached)  # evaluated when the left may hold
        left = False if False in (left, right) else (None if None in (left, right) else True)
    return left, i


def _not(tokens: list[str], i: int, file: File, live: bool, reached: list[bool]) -> tuple[Maybe, int]:
    if i < len(tokens) and tokens[i] in ("!", "-not"):
        inner, i = _not(tokens, i + 1, file, live, reached)
        return (None if inner is None else not inner), i
    if i < len(tokens) and tokens[i] == "(":
        inner, i = _list(tokens, i + 1, file, live, reached)
        return inner, i + (i < len(tokens) and tokens[i] == ")")
    if i < len(tokens) and tokens[i] == RUN:
        if live:
            reached.append(True)
        return None, i + 1  # a run's exit status decides what follows
    return _primary(tokens, i, *file)


# find's tests and actions that take a value (two for -fprintf); the others take none.
VALUED = frozenset({"-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-type", "-xtype", "-regex",
                    "-iregex", "-regextype", "-newer", "-anewer", "-cnewer", "-user", "-group", "-uid", "-gid", "-perm",
                    "-size", "-mtime", "-mmin", "-atime", "-amin", "-ctime", "-cmin", "-used", "-maxdepth", "-mindepth",
                    "-samefile", "-inum", "-links", "-fstype", "-printf", "-fprint", "-fprint0", "-lname", "-ilname",
                    "-context", "-files0-from"})


def _primary(tokens: list[str], i: int, full: str, shown: str, kind: str) -> tuple[Maybe, int]:
    from fnmatch import fnmatchcase

    if i >= len(tokens):
        return True, i
    test = tokens[i]
    value = tokens[i + 1] if i + 1 < len(tokens) else ""
    step = 3 if test == "-fprintf" else 2 if test in VALUED else 1
    if (test in NAME_TESTS or test in PATH_TESTS) and "TASK-" in value.upper():
        return None, i + step  # a real task's name, which the samples' TASK is not: it may match (F-0080)
    if not shown and (test in PATH_TESTS or (test in NAME_TESTS and kind == "d")):
        return None, i + step  # found through a link: its path, and a folder's name, are the link's, not its own
    if test in NAME_TESTS or test in PATH_TESTS:
        subject = posixpath.basename(full) if test in NAME_TESTS else shown
        fold = NAME_TESTS.get(test, PATH_TESTS.get(test, False))
        return fnmatchcase(subject.lower() if fold else subject, value.lower() if fold else value), i + step
    if test == "-type":  # (through a link, `l` is the link itself: what it leads to may be either; read 43's B)
        return (None if not shown and "l" in value else kind in value.split(",")), i + step
    if test in ("-prune", "-true", "-print", "-print0", "-ls", "-maxdepth", "-mindepth", "-regextype"):
        return True, i + step
    if test == "-false":
        return False, i + step
    return None, i + step
