"""What xargs hands the command it runs, where the line says: the files a find, `git ls-files` or `grep -l`
lists, the names `ls` is given, the words echo, printf or a here-string write.

Pure. xargs appends its input to its command's words (`echo .harness | xargs rm -rf`), or with `-I R` puts each
line where R stands, even into a shell's line (`… | xargs -I{} sh -c '{}'`). The guard spells that input as
shell_prefixes.XARGS_INPUT, an expansion it cannot work out, and puts in what the line shows it to be
(#28's task F-0081, F-0094, F-0095). What it cannot see (`cat list | xargs …`) stays unknown: a shell line made
of it is refused, and an argument of it judged as any unknown word is.
"""

from __future__ import annotations

from harness.agent.judge.shell_prefixes import XARGS_INPUT
from harness.core import lazy_re as re  # imported on a pattern's first use: most lines need none

MAX_ITEMS = 64  # input words put in one by one; more, and the input stays unknown
GREPS = frozenset({"grep", "egrep", "fgrep", "rg"})
GREP_VALUED = "efmABCdDgtTM"  # grep/rg short options that take a value (-e PATTERN, -f FILE, -g GLOB, …)
# grep's and rg's long options that take a value, which may be the next word (`--exclude-dir node_modules`; F-0110).
GREP_LONG_VALUED = frozenset({
    "--regexp", "--file", "--max-count", "--after-context", "--before-context", "--context", "--label", "--include",
    "--exclude", "--exclude-from", "--exclude-dir", "--binary-files", "--devices", "--directories",
    "--group-separator", "--glob", "--iglob", "--type", "--type-not", "--type-add", "--type-clear", "--max-depth",
    "--max-filesize", "--encoding", "--engine", "--ignore-file", "--path-separator", "--pre", "--pre-glob",
    "--replace", "--sort", "--sortr", "--threads", "--dfa-size-limit", "--regex-size-limit", "--context-separator",
    "--field-match-separator", "--field-context-separator", "--colors", "--max-columns", "--hyperlink-format"})


def items_of(text: str) -> list[str] | None:
    """The inputs a text hands xargs: its lines (what `-I` reads) and its words (what plain xargs reads, quotes
    removed as xargs does, and as written); None beyond MAX_ITEMS."""
    import shlex

    found = [line.strip() for line in re.split(r"[\n\0]", text)]
    found += re.split(r"[\s\0]+", text)
    try:
        found += shlex.split(text.replace("\0", " "))
    except ValueError:
        pass
    out = list(dict.fromkeys(f for f in found if f))
    return out if len(out) <= MAX_ITEMS else None


def put_in(words: tuple[str, ...], items: list[str]) -> list[tuple[str, ...]]:
    """``words`` with the input put in: all of it as words where xargs appends it, then each item where it stands."""
    if not any(XARGS_INPUT in w for w in words):
        return [words]
    out = [tuple(x for w in words for x in (items if w == XARGS_INPUT else [w]))]
    out += [tuple(w.replace(XARGS_INPUT, item) for w in words) for item in items]
    return list(dict.fromkeys(out))


def listed_by(words: tuple[str, ...]) -> tuple[tuple[str, ...] | None, list[str] | None]:
    """(the find that lists the same files, the literal names) a feeder prints: `find`, `git ls-files`, `grep -l`
    and `rg -l` list files under their paths; `ls` prints the names it is given (and, with none, what is here)."""
    program = words[0].rsplit("/", 1)[-1] if words else ""
    if program == "find":
        return words, None
    if program == "git" and words[1:2] == ("ls-files",):
        return _ls_files_as_find(words[2:]), None
    if program in GREPS:
        return _grep_paths(list(words[1:]), rg=program == "rg"), None
    if program == "ls":
        names = [w for w in words[1:] if not w.startswith("-") or w == "-"]
        every = any(w.startswith("-") and not w.startswith("--") and set(w[1:]) & set("aA") for w in words[1:])
        return (None if names else ("find", ".", *(() if every else ("!", "-path", "./.*")))), names or None
    return None, None


def _grep_paths(args: list[str], rg: bool) -> tuple[str, ...] | None:
    """The find that lists what `grep -l` (or `rg -l`, `rg --files`) prints, or None when it prints lines, not
    names: its paths (`.` by default), its `--include`/`--exclude` (rg's `-g`) as name tests, and, for rg
    unless told `--hidden`, no hidden file or folder below a path (rg skips them)."""
    values: list[tuple[str, str]] = []  # (option, value)
    flags: list[str] = []
    positionals: list[str] = []
    unsure = False  # an abbreviated long option that may take the next word (`--exclude-d node_modules`)
    i = 0
    while i < len(args):
        a = args[i]
        if a.startswith("--"):
            opt, eq, value = a.partition("=")
            known = opt if opt in GREP_LONG_VALUED else None
            unsure = unsure or (known is None and not eq and any(k.startswith(opt) for k in GREP_LONG_VALUED))
            if known and not eq:
                value, i = (args[i + 1] if i + 1 < len(args) else ""), i + 1
            if known or eq:
                values.append((opt, value))
            else:
                flags.append(opt)
        elif a.startswith("-") and len(a) > 1:
            for j, ch in enumerate(a[1:], 1):
                if ch in GREP_VALUED:
                    value = a[j + 1:] or (args[i + 1] if i + 1 < len(args) else "")
                    i += not a[j + 1:]
                    values.append(("-" + ch, value))
                    break
                flags.append("-" + ch)
        else:
            positionals.append(a)
        i += 1
    if not set(flags) & {"-l", "-L", "--files-with-matches", "--files-without-match", "--files"}:
        return None
    given = {o for o, _ in values} & {"-e", "-f", "--regexp", "--file"} or "--files" in flags
    paths = (positionals if given else positionals[1:]) or ["."]
    if unsure:  # either reading: every word may be a path, and with none, grep walks `.`
        paths = list(dict.fromkeys([*positionals, "."]))
    globs = [v for o, v in values if o in ("--include", "-g", "--glob") and not v.startswith("!")]
    tests = ["(", *(t for n, g in enumerate(globs) for t in ((["-o"] if n else []) + ["-name", g])), ")"] if globs else []
    for o, v in values:
        if o == "--exclude" or (o in ("-g", "--glob") and v.startswith("!")):
            tests += ["!", "-name", v.removeprefix("!")]
    hidden = not rg or flags.count("-u") >= 2 or bool(set(flags) & {"--hidden", "-."})
    for p in ([] if hidden else paths):
        tests += ["!", "-path", f"{p.rstrip('/')}/.*", "!", "-path", f"{p.rstrip('/')}/*/.*"]
    return ("find", *paths, *tests)


def _ls_files_as_find(args: tuple[str, ...]) -> tuple[str, ...]:
    """`git ls-files PATHSPEC…` as the find that lists the same files (a pathspec's glob crosses `/`, as
    find's -path does; a plain one names a file or a folder's files)."""
    specs = [a.removeprefix("./") for a in args if not a.startswith("-")]
    tests: list[str] = []
    for spec in specs:
        tests += [*(["-o"] if tests else []), "-path", f"./{spec}"]
        if not set(spec) & set("*?["):
            tests += ["-o", "-path", f"./{spec.rstrip('/')}/*"]
    return ("find", ".", "(", *tests, ")") if tests else ("find", ".")
