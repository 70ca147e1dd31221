"""The file side of the bypass denier: programs that delete, overwrite, copy onto, extract
over or re-mode the harness's record and the files that decide whether its hooks run.

Pure. Each program is read the way it reads its own arguments: `cp -t DIR SRC` writes into
DIR (not into SRC, its last word), `cp SRC DIR/` writes DIR/SRC's name, `sed -Ei` and
`perl -ni` edit in place as surely as `sed -i`, `tar -x` writes whatever its archive holds.
"""

from __future__ import annotations

import posixpath
from collections.abc import Mapping

from harness import paths
from harness.agent.judge import guarded_paths
from harness.agent.judge.denials import Denial, delete_denial, first_protected, hook_file_denial, protected_denial
from harness.core import lazy_re as re  # imported on a pattern's first use: most lines need none

TYPE_CHECKING = False
if TYPE_CHECKING:
    from harness.agent.judge.pytest_writes import Reach

WRITERS = frozenset({"tee", "truncate", "touch", "shred", "dd"})
DELETERS = frozenset({"rm", "unlink", "rmdir", "shred"})
COPIERS = frozenset({"cp", "install", "ln", "rsync", "mv"})
MODE_CHANGERS = frozenset({"chmod", "chown", "chgrp", "chattr", "setfacl"})
# Short options, per in-place editor, that take a value: the `i` of `-i` counts only before one of them.
IN_PLACE_EDITORS = {"sed": "efl", "perl": "eEMmIxl0", "ruby": "eErIxCF"}
RECURSIVE = frozenset({"-r", "-R", "-a", "--recursive", "--archive"})
TAR_VALUES = "fCTXbgHKNV"
# Programs that write where an option says, not where an operand does: (short, long) option names.
# pytest's, which come from more places than its command line, are read by harness.agent.judge.pytest_writes.
# pytest's configuration files, which it finds on its own (harness.paths' one list):
# written by the shell, their content would reach pytest unjudged (#28's task F-0137).
PYTEST_CONFIGS = paths.PYTEST_CONFIGS
OUTPUT_OPTIONS = {"sort": ("o", ("--output",)), "tree": ("o", ()), "less": ("oO", ("--log-file", "--LOG-FILE")),
                  "coverage": ("o", ("--data-file",))}


def check_files(prog: str, args: list[str], where: guarded_paths.Where, hooks_dirs: tuple[str, ...],
                archives: Mapping[str, tuple[str, ...]] | None = None) -> Denial | None:
    """What ``prog ARGS`` does to the harness's files and the hook files, as a denial or None.
    ``archives``: the members of the archives the adapter could list (absolute path -> names)."""
    return (_check_link(prog, args, where, hooks_dirs)
            or _check_deletion(prog, args, where, hooks_dirs)
            or _check_overwrite(prog, args, where, hooks_dirs)
            or _check_copy(prog, args, where, hooks_dirs)
            or _check_extract(prog, args, where, hooks_dirs, archives or {}))


def operands(args: list[str], prog: str = "") -> list[str]:
    """The operands of ``args`` (harness.agent.judge.copier_options: every word after `--`, and for a copier no
    value an option takes)."""
    from harness.agent.judge.copier_options import operands as read

    return read(args, prog)


def hook_or_protected(targets: list[str], where: guarded_paths.Where, hooks_dirs: tuple[str, ...]) -> Denial | None:
    for t in targets:
        if guarded_paths.hook_config(where, t, hooks_dirs):
            return hook_file_denial(t)
        # Wherever it is: pytest finds its configuration where it runs and above, outside the repository
        # too, and a value there may name the record by its absolute path (#28's task F-0141).
        if posixpath.basename(posixpath.normpath(posixpath.join(where.cwd, t))) in PYTEST_CONFIGS:
            return Denial("pytest-config", f"`{t}` is pytest's configuration, which pytest reads on its own: "
                          "written from the shell, what it makes pytest write or empty is not judged",
                          f"edit {posixpath.basename(t)} with the Edit or Write tool, where its content is judged")
    return first_protected(targets, where)


def _check_deletion(prog: str, args: list[str], where: guarded_paths.Where, hooks_dirs: tuple[str, ...]) -> Denial | None:
    """A program that deletes (or moves away) something of the harness's record, or a hook file."""
    # find's -exec runs are judged with each file it may hand them (shell_folders.found_files): -delete is its own.
    if prog == "find" and "-delete" in args:
        from harness.agent.judge.shell_folders import found_files

        found = found_files(("find", *args), where)  # what -delete may reach by find's tests (F-0101)
        if found:
            return delete_denial(found[0])
    if prog in DELETERS or prog == "mv" or (prog == "find" and "-delete" in args):
        targets = operands(args) if prog != "find" else operands(args)[:1]
        for t in targets:
            rel = where.resolve(t)
            if guarded_paths.harness_state(rel) or guarded_paths.glob_harness_state(rel):
                return delete_denial(t)
            if guarded_paths.hook_config(where, t, hooks_dirs):
                return hook_file_denial(t)
    return None


def as_program(prog: str, args: list[str]) -> tuple[str, list[str]]:
    """`python -m pytest ARGS` (python's own flags before `-m` too: `-I`, `-B`, `-W X`, `-mpytest`), `coverage
    run [OPTIONS] -m pytest ARGS` and `py.test ARGS` are pytest's (#28's task F-0134)."""
    if prog == "coverage" and args[:1] == ["run"]:  # its options' values may be separate words: any `-m` counts
        at = next((i for i, a in enumerate(args) if a == "-m" or (a.startswith("-m") and a[2:3] != "-")), None)
        args = args[at:] if at is not None else args
    if prog.startswith("python") or prog == "coverage":
        module = _module_run(args, "WX")
        if module is not None and module[0] in ("pytest", "py.test"):
            return "pytest", module[1]
        # A module that runs another (cProfile, pdb, runpy, trace…), or an interpreter option with a value before
        # `-m`: pytest's word anywhere on the line is judged as pytest's start (#28's task F-0144).
        at = next((i for i, a in enumerate(args) if a in PYTEST_WORDS), None)
        if at is not None:
            return "pytest", args[at + 1:]
        if module is not None:
            return module
    return ("pytest" if prog == "py.test" else prog), args


PYTEST_WORDS = frozenset({"pytest", "py.test", "-mpytest", "-mpy.test"})


def _module_run(args: list[str], valued: str) -> tuple[str, list[str]] | None:
    """(the module `-m` names, its arguments), past the interpreter's options (``valued``: its short options
    that take a value); None when it runs a script or code instead."""
    i = 0
    while i < len(args):
        word = args[i]
        if not word.startswith("-") or word == "--":
            return None  # a script, or what follows `--`
        short = word[1:] if not word.startswith("--") else ""
        for j, letter in enumerate(short):
            if letter == "c":
                return None  # `-c CODE`: code, not a module
            if letter == "m":
                return short[j + 1:] or (args[i + 1] if i + 1 < len(args) else ""), args[i + (1 if short[j + 1:] else 2):]
            if letter in valued:
                i += 0 if short[j + 1:] else 1
                break
        i += 1
    return None


def option_values(args: list[str], short: str, long: tuple[str, ...]) -> list[str]:
    """The values of the options named (`-o V`, `-oV`, `--name=V`, `--name V`), as the program reads them; a short
    one inside a cluster too (`-uo V`, `-uoV`: getopt reads the letters before it as flags; #27's task F-0043). A
    letter that is another option's value (`-to`: sort's separator `o`) is read as the option as well: a refusal
    then needs the word after it to be guarded."""
    out = []
    for i, a in enumerate(args):
        name, eq, value = a.partition("=")
        nxt = args[i + 1] if i + 1 < len(args) else None
        if name in long:
            out += [value] if eq else [nxt] if nxt is not None else []
        elif len(a) >= 2 and a[0] == "-" and a[1:2] != "-":
            at = next((j for j in range(1, len(a)) if a[j] in short), None)
            if at is not None:
                out += [a[at + 1:]] if len(a) > at + 1 else [nxt] if nxt is not None else []
    return out


def check_pytest(args: list[str], addopts: list[str], files: Mapping[str, str], where: guarded_paths.Where,
                 hooks_dirs: tuple[str, ...]) -> Denial | None:
    """pytest's run (``args`` after `pytest` or `python -m pytest`), by what it writes over and empties wherever
    its options come from (PYTEST_ADDOPTS' words ``addopts``, `@FILE`, `-c FILE`: ``files``, the adapter's)."""
    from harness.agent.judge.pytest_writes import reach

    return _judged(reach(args, addopts, files, where.cwd), where, hooks_dirs)


def check_pytest_temproot(roots: list[str], where: guarded_paths.Where, hooks_dirs: tuple[str, ...]) -> Denial | None:
    """PYTEST_DEBUG_TEMPROOT: pytest keeps its numbered temp folders, and prunes old ones, in ROOT/pytest-of-USER
    (#28's task F-0152)."""
    return _written_or_emptied([], [posixpath.join(r, "pytest-of-user") for r in roots], where, hooks_dirs)


def check_pytest_config(text: str, where: guarded_paths.Where, hooks_dirs: tuple[str, ...]) -> Denial | None:
    """pytest's configuration (``text``: an ini, tox.ini, setup.cfg or pyproject.toml as an edit leaves it)
    giving a writing option, a `--basetemp`, a cache_dir or a log_file: every later plain `pytest` writes or
    empties it, as on the command line."""
    from harness.agent.judge.pytest_writes import Reach, config_reach

    found = config_reach(text, Reach())
    # pytest may run in any folder: a relative value is judged from the top as well (#28's task F-0145).
    return _judged(found, where, hooks_dirs) or _judged(found, where.cd(where.root), hooks_dirs)


def _judged(found: Reach, where: guarded_paths.Where, hooks_dirs: tuple[str, ...]) -> Denial | None:
    if found.unread is not None:
        return Denial("pytest-options", f"pytest reads options from `{found.unread}`, which the guard could not "
                      "read as pytest will (missing, too large, or on a line that may write it first)",
                      "give pytest its options on the command line, or run it as the line's first command")
    # A relative value may be resolved from pytest's root folder (`--rootdir`, the folder of the ini `-c`
    # names) rather than from where it runs: judged from each (#28's task F-0138).
    written = found.written + [posixpath.join(b, w) for b in found.bases for w in found.written if not w.startswith("/")]
    emptied = found.emptied + [posixpath.join(b, e) for b in found.bases for e in found.emptied if not e.startswith("/")]
    return _written_or_emptied(written, emptied, where, hooks_dirs)


def _written_or_emptied(written: list[str], emptied: list[str], where: guarded_paths.Where,
                        hooks_dirs: tuple[str, ...]) -> Denial | None:
    denial = hook_or_protected(written, where, hooks_dirs)
    return denial or next((d for d in (_emptied(f, where, hooks_dirs) for f in emptied) if d), None)


def _emptied(folder: str, where: guarded_paths.Where, hooks_dirs: tuple[str, ...]) -> Denial | None:
    """A folder a program empties before it writes there (`pytest --basetemp=DIR`): refused when it is,
    or holds, the harness's record, the repository itself or a hooks folder."""
    full = posixpath.normpath(posixpath.join(where.cwd, folder))
    root = posixpath.normpath(where.root)
    rel = where.resolve(folder)
    holds_root = root == full or root.startswith(full.rstrip("/") + "/")
    if holds_root or guarded_paths.harness_state(rel) or guarded_paths.glob_harness_state(rel) or rel == ".git" \
            or (rel or "").startswith(".git/") or guarded_paths.hook_config(where, folder, hooks_dirs) \
            or any(d == full or d.startswith(full.rstrip("/") + "/") for d in hooks_dirs):
        return delete_denial(folder)
    return None


def _check_overwrite(prog: str, args: list[str], where: guarded_paths.Where, hooks_dirs: tuple[str, ...]) -> Denial | None:
    """A program that writes over (or re-modes) a guarded file in place."""
    targets = operands(args)
    # The program's own writing options, and those of the module it runs (`coverage run --data-file=F -m …`).
    for named, named_args in ((prog, args), as_program(prog, args)):
        if named in OUTPUT_OPTIONS:
            short, long = OUTPUT_OPTIONS[named]
            denial = hook_or_protected(option_values(named_args, short, long), where, hooks_dirs)
            if denial:
                return denial
    if prog == "uniq" and len(targets) > 1:  # `uniq IN OUT` writes OUT
        return hook_or_protected(targets[1:2], where, hooks_dirs)
    if prog == "dd":
        targets = [a[3:] for a in args if a.startswith("of=")]
    if prog in MODE_CHANGERS:
        return next((hook_file_denial(t) for t in targets if guarded_paths.hook_config(where, t, hooks_dirs)), None)
    if prog in WRITERS or prog in DELETERS or in_place(prog, args):
        return hook_or_protected(targets, where, hooks_dirs)
    return None


def in_place(prog: str, args: list[str]) -> bool:
    """`sed -i`, `sed -Ei`, `perl -ni`, `perl -i.bak`, `ruby -pi`, `gawk -i inplace`: editing the files named."""
    if prog in ("awk", "gawk"):
        return any(a == "inplace" and i and args[i - 1] == "-i" for i, a in enumerate(args)) or "-iinplace" in args
    values = IN_PLACE_EDITORS.get(prog)
    if values is None:
        return False
    for a in args:
        if a.startswith("--in-place"):
            return True
        if a.startswith("-") and not a.startswith("--"):
            for ch in a[1:]:
                if ch == "i":
                    return True
                if ch in values:
                    break
    return False


def _check_copy(prog: str, args: list[str], where: guarded_paths.Where, hooks_dirs: tuple[str, ...]) -> Denial | None:
    """A copy, link or move onto a guarded file: the destination (`-t DIR`, or the last word) and,
    when that is a folder, each source's name inside it."""
    if prog not in COPIERS:
        return None
    target, sources = destination(args, prog)
    if target is None:
        return None
    rel = where.resolve(target)
    recursive = prog == "rsync" or any(a in RECURSIVE or (a[:1] == "-" and a[1:2] != "-" and set("rRa") & set(a))
                                       for a in args)
    # Files put into the per-clone folder (`cp report.md .harness/local/`: a folder it must be) are judged by their
    # names; the folder itself only when it may be replaced or filled whole (F-0150).
    into_local = target.endswith("/") and not recursive and rel == f"{guarded_paths.HARNESS}/local"
    written = [target] * (not into_local) + [posixpath.join(target, posixpath.basename(s.rstrip("/"))) for s in sources]
    denial = hook_or_protected(written, where, hooks_dirs)
    if denial:
        return denial
    if recursive and (guarded_paths.harness_state(rel) or guarded_paths.glob_harness_state(rel)):
        return protected_denial(target, ("a folder of the harness's record", guarded_paths.EVIDENCE[1]))
    if recursive and _git_machinery(target, where, hooks_dirs):
        return hook_file_denial(target)  # `cp -r d/. .git/info/` writes names no word shows (#28's task F-0070)
    if recursive and _into_the_top(prog, target, sources, args, where):
        return protected_denial(target, ("the repository's top, which holds the record and git's folder", guarded_paths.EVIDENCE[1]))
    return None


def _into_the_top(prog: str, target: str, sources: list[str], args: list[str], where: guarded_paths.Where) -> bool:
    """A recursive copy that puts `.harness` or `.git` into the top, or a folder's contents (`d/.`, `-T` or a
    prefix of `--no-target-directory` getopt takes, rsync's `d/`) into a folder that holds the record (#28's task
    F-0088, read 49)."""
    from harness.agent.judge.copier_options import long_option

    landing = [posixpath.join(target, posixpath.basename(s.rstrip("/"))) for s in sources]
    if any(where.resolve(name) in (guarded_paths.HARNESS, ".git") for name in landing):
        return True
    opts = args[:args.index("--")] if "--" in args else args
    contents = any((a[:2] == "--" and prog != "rsync" and long_option(a, prog)[0] == "no-target-directory")
                   or (a[:1] == "-" and a[1:2] != "-" and "T" in a and prog != "rsync") for a in opts) \
        or any(s.rstrip("/").endswith("/.") or s == "." or (prog == "rsync" and s.endswith("/")) for s in sources)
    return contents and _holds_the_record(target, where)


def _git_machinery(folder: str, where: guarded_paths.Where, hooks_dirs: tuple[str, ...]) -> bool:
    """Whether ``folder`` is git's folder, one of its guarded folders, or a hooks folder."""
    full = posixpath.normpath(posixpath.join(where.cwd, folder))
    return guarded_paths.machinery_folder(where.resolve(folder)) or any(
        full == d.rstrip("/") or full.startswith(d.rstrip("/") + "/") for d in hooks_dirs)


LINKERS = frozenset({"ln", "link"})


def _check_link(prog: str, args: list[str], where: guarded_paths.Where, hooks_dirs: tuple[str, ...]) -> Denial | None:
    """A link to the harness's record, git's folder or a hook file: a second name, by which a later write or
    delete is judged as some other file's (a hard link has no other name on disk at all; #28's task
    F-0038..F-0040). A symbolic link's source counts from the link's folder as well as from here."""
    if prog not in LINKERS and not (prog == "cp" and _links(args)):
        return None
    target, sources = destination(args, prog)
    if target is None:
        sources = operands(args, prog)  # `ln -s SOURCE`: a link named as the source, here
    for source in sources:
        expanded = "$" in source or "`" in source  # `"$PWD/.harness"`: judged by the names it spells
        # From the link's folder: the target's own (a link named TARGET) or the target (a folder, `-t DIR`).
        seen = [source] + ([posixpath.join(posixpath.dirname(target), source), posixpath.join(target, source)]
                           if target else [])
        if any(_leads_to_guarded(name, source, expanded, where, hooks_dirs) for name in seen):
            return Denial("link", f"a link to {source} gives it a second name, by which a write or a delete is "
                          "judged as some other file's", f"work on {source} by its own name, or ask a human")
    return None


def moved_link_leads_to_guarded(text: str, new: str, where: guarded_paths.Where, hooks_dirs: tuple[str, ...]) -> bool:
    """Whether a relative link reading ``text``, put at ``new`` by a copy or a move, leads where a link made there
    (`ln -s TEXT NEW`) is refused: from ``new``'s folder (F-0064)."""
    return _leads_to_guarded(posixpath.join(posixpath.dirname(new), text), text, False, where, hooks_dirs)


def _leads_to_guarded(name: str, source: str, expanded: bool, where: guarded_paths.Where,
                      hooks_dirs: tuple[str, ...]) -> bool:
    """Whether a link whose target, from its folder, is ``name`` (``source`` as written; ``expanded`` when it holds
    `$` or a backquote) reaches the record, git's folder, a hook file or a folder holding the repository."""
    rel = (guarded_paths.HARNESS if _names_guarded_tail(source) else None) if expanded else where.resolve(name)
    if rel is not None and rel.startswith(LOCAL_SCRATCH) and rel != VALID_CACHE_FILE:
        # .harness/local/: the clone's own scratch, which shell commands may write anyway; but for its cache of
        # valid documents, a guarded file (`ln -s valid .harness/local/v`; read 42's F-0045). A link to the
        # folder stays allowed (#28's task F-0073): a later line's words through it are followed to the cache.
        return False
    guarded = rel is not None and (rel in (guarded_paths.HARNESS, ".git") or rel.startswith((guarded_paths.HARNESS + "/", ".git/"))
                                   or guarded_paths.glob_harness_state(rel) or guarded_paths.hook_config(where, name, hooks_dirs))
    return guarded or (not expanded and _holds_the_record(name, where))


LOCAL_SCRATCH = (guarded_paths.LOCAL + "/", guarded_paths.LOCAL)
VALID_CACHE_FILE = guarded_paths.LOCAL + "/valid"


def _holds_the_record(name: str, where: guarded_paths.Where) -> bool:
    """Whether ``name`` is the repository's top or a folder above it: a link to it reaches `.harness/` and
    `.git/` by another name (`ln -s . r && echo >> r/.harness/…`; #28's task F-0061)."""
    full = posixpath.normpath(posixpath.join(where.cwd, name))
    if guarded_paths.GLOB_CHARS & set(name):  # `ln -s ../rep? r`: the shell picks what the pattern matches (F-0082)
        from fnmatch import fnmatchcase

        folder, ancestors = where.root.rstrip("/") or "/", []
        while folder not in ancestors:
            ancestors.append(folder)
            folder = posixpath.dirname(folder)
        return any(fnmatchcase(a, full) for a in ancestors)
    if re.match(guarded_paths.PROC_FOLDERS, full):  # `ln -s /dev/fd x && cd x/3 3<.harness` (#28's task F-0108)
        return True
    return full == "/" or (where.root.rstrip("/") + "/").startswith(full.rstrip("/") + "/")


def _names_guarded_tail(word: str) -> bool:
    """Whether a word with an expansion in it ends in `.harness`, `.git` or a hooks folder (or passes through one)."""
    parts = [p for p in posixpath.normpath(word).split("/") if p]
    return any(p in (guarded_paths.HARNESS, ".git") for p in parts) or parts[-1:] == ["hooks"]


def _links(args: list[str]) -> bool:
    """Whether cp's options make it link instead of copy (`-l`, `-s`, `--link`, `--symbolic-link`, or a prefix
    getopt takes: `--li`, `--sym`; read 49)."""
    from harness.agent.judge.copier_options import long_option

    opts = args[:args.index("--")] if "--" in args else args
    return any((a[:2] == "--" and long_option(a, "cp")[0] in ("link", "symbolic-link"))
               or (a[:1] == "-" and a[1:2] != "-" and set("ls") & set(a[1:])) for a in opts)


def destination(args: list[str], prog: str = "") -> tuple[str | None, list[str]]:
    """(where a copy writes, what it copies): `-t DIR`/`--target-directory=DIR` (or a prefix of it getopt takes:
    `--target=DIR`, `--t DIR`; F-0068), else the last operand (harness.agent.judge.copier_options: a value an
    option takes is none, every word after `--` is one; read 49)."""
    found = operands(args, prog)
    for i, a in enumerate(args):
        if a == "--":
            break
        opt, eq, value = a.partition("=")
        if _names_the_target_option(opt, prog):
            target = value if eq else (args[i + 1] if i + 1 < len(args) else None)
            return target, [o for o in found if o != target]
        if a[:1] == "-" and a[1:2] != "-":
            rest = _target_in_cluster(a[1:], prog)
            if rest is not None:
                target = rest or (args[i + 1] if i + 1 < len(args) else None)
                return target, [o for o in found if o != target]
    return (found[-1], found[:-1]) if len(found) >= 2 else (None, [])


def _names_the_target_option(opt: str, prog: str) -> bool:
    """Whether ``opt`` is `--target-directory` or a prefix getopt takes for it (`--t`: every copier's only long
    option that starts with `t`). rsync has none (its `--t…` options are others)."""
    from harness.agent.judge.copier_options import long_option

    return opt[:2] == "--" and prog != "rsync" and long_option(opt, prog)[0] == "target-directory"


def _target_in_cluster(letters: str, prog: str) -> str | None:
    """What follows `t` in a cluster of short options (`-t DIR`, `-st DIR`, `-tDIR`; F-0043), read as getopt
    reads it: the first letter that takes a value takes the rest of the word, so `-S.bt` is a suffix `.bt`,
    not a target folder (#28's task F-0072). None when the cluster names no target folder."""
    from harness.agent.judge.copier_options import VALUED_SHORT

    valued = VALUED_SHORT.get(prog, "St")
    for j, letter in enumerate(letters):
        if letter in valued:
            return letters[j + 1:] if letter == "t" and prog != "rsync" else None
    return None


def _check_extract(prog: str, args: list[str], where: guarded_paths.Where, hooks_dirs: tuple[str, ...],
                   archives: Mapping[str, tuple[str, ...]]) -> Denial | None:
    """`tar -x` (and `unzip`) write whatever the archive holds: into the harness's folder, or into a
    folder that holds it with no member list that keeps clear of it, that is the record rewritten.
    An archive the adapter listed is judged by its members."""
    if prog in ("tar", "bsdtar", "gtar"):
        folder, members, extracting, archive = _tar_reading(args)
    elif prog == "unzip":
        folder, members, extracting = _unzip_reading(args)
        archive = next((a for a in args if not a.startswith("-") and a != folder), "")
    else:
        return None
    if not extracting:
        return None
    into = where.cd(folder)
    listed = archives.get(posixpath.normpath(posixpath.join(where.cwd, archive))) if archive else None
    if listed is not None and not members:
        landing = [m for m in listed if guarded_paths.harness_state(into.resolve(m)) or guarded_paths.hook_config(into, m, hooks_dirs)]
        return Denial("protected-file", f"`{prog}` extracting {archive} writes {landing[0]}, which the harness "
                      "guards", "extract into a folder outside .harness/ (`tar -xf ARCHIVE -C build/`), or name "
                      "the members you need") if landing else None
    rel = where.resolve(folder)
    holds_state = rel == "." or (rel is None and (where.root.rstrip("/") + "/").startswith(into.cwd.rstrip("/") + "/"))
    clear = bool(members) and not any(guarded_paths.harness_state(into.resolve(m)) or guarded_paths.glob_harness_state(into.resolve(m))
                                      for m in members)
    if guarded_paths.harness_state(rel) or (holds_state and not clear):
        return Denial("protected-file", f"`{prog}` extracting into {folder} could write the harness's record "
                      "(the guard cannot see what the archive holds)",
                      "extract into a folder outside .harness/ (`tar -xf ARCHIVE -C build/`), or name the members")
    if _git_machinery(folder, where, hooks_dirs):
        return hook_file_denial(folder)  # an archive's members land in git's folder unseen (#28's task F-0070)
    return None


def _tar_reading(args: list[str]) -> tuple[str, list[str], bool, str]:
    """(the folder tar extracts into, the members named, whether it extracts, the archive)."""
    folder, plain, extracting, i, archive = ".", [], False, 0, ""
    while i < len(args):
        a, i = args[i], i + 1
        opt, eq, value = a.partition("=")
        if opt in ("--extract", "--get"):
            extracting = True
        elif opt == "--directory":
            folder = value if eq else (args[i] if i < len(args) else ".")
            i += 0 if eq else 1
        elif a.startswith("--"):
            archive = (value if eq else (args[i] if i < len(args) else "")) if opt == "--file" else archive
            i += 1 if opt in ("--file", "--files-from", "--exclude-from") and not eq else 0
        elif a.startswith("-") or (i == 1 and a[:1] != "/"):  # `tar xzf A` reads its first word as options
            letters = a.lstrip("-")
            extracting = extracting or "x" in letters
            for ch in letters:
                if ch in TAR_VALUES and i < len(args):
                    folder = args[i] if ch == "C" else folder
                    archive = args[i] if ch == "f" else archive
                    i += 1
        else:
            plain.append(a)
    return folder, plain, extracting, archive


def _unzip_reading(args: list[str]) -> tuple[str, list[str], bool]:
    folder, plain, i = ".", [], 0
    while i < len(args):
        a, i = args[i], i + 1
        if a == "-d" and i < len(args):
            folder, i = args[i], i + 1
        elif a.startswith("-d") and len(a) > 2:
            folder = a[2:]
        elif not a.startswith("-"):
            plain.append(a)
    listing_only = any(a.startswith("-") and set(a[1:]) & set("lvtZ") for a in args)
    return folder, plain[1:], not listing_only
