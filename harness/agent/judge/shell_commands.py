"""A shell command line split into the simple commands it would run.

Pure: text in, a list of :class:`SimpleCommand` out. The agent's shell tools hand us one
string that may hold lists, pipelines, subshells, loops, command substitutions and nested
`sh -c "…"`; a guard that looked at the raw text would be fooled by a commit message that
mentions `--no-verify`, and one that split on spaces would miss `$(git commit -n)`.

`bashlex` parses most of bash into a real tree. Where it gives up (`[[ … ]]`, arithmetic,
`case`), an honest fallback tokenizes with :mod:`shlex` (quotes handled, operators split
out) and errs towards finding more commands, never fewer. A plainly written line (words and
`&&`, `||`, `;`, `|`: :mod:`plain_line`) is split without importing bashlex, into exactly the
commands bashlex gives for it.
"""

from __future__ import annotations

import itertools
import posixpath
from collections.abc import Iterator

from harness.agent.judge.plain_line import pipelines
from harness.agent.judge.shell_prefixes import XARGS_INPUT, is_assignment, strip_prefix
from harness.agent.judge.xargs_input import items_of, listed_by, put_in
from harness.core import lazy_re as re  # imported on a pattern's first use: most lines need none
from harness.core.value_class import dataclass, field, replace

TYPE_CHECKING = False  # typing costs the agent's tool guard, which imports this module, a tenth of its answer
if TYPE_CHECKING:
    from typing import Any

SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ksh", "ash"})
# Programs that run a command line given as an option's value: `su -c "…"`, `script -qec "…"`; (the short option,
# the long ones). su's and runuser's `--session-command` runs its line as `-c` does, in the same session (F-0235).
SU_COMMAND = ("c", ("--command", "--session-command"))
COMMAND_OPTION = {"su": SU_COMMAND, "runuser": SU_COMMAND, "script": ("c", ("--command",))}
FIND_EXEC = frozenset({"-exec", "-execdir", "-ok", "-okdir"})
RESERVED = frozenset({"if", "then", "else", "elif", "fi", "do", "done", "while", "until", "for", "in",
                      "case", "esac", "{", "}", "!", "[[", "]]", "function", "select"})
WRITE_REDIRECTS = frozenset({">", ">>", ">|", "&>", "&>>", "<>", ">&"})
MAX_DEPTH = 8
# Command substitutions inside one another (`$(…)`, backticks, `<(…)`, `>(…)`): a line nested deeper is refused, not
# read. Each level runs a command the rules judge, and 2,500 levels kept the guard past the host's timeout (F-0374).
MAX_SUBSTITUTION_NESTING = 64
# ... and nested deeper than this, read by the fallback alone: bashlex reads each level again for every level around
# it (64 levels of a 32 KB line took it 6 s), the fallback reads the line once.
BASHLEX_NESTING = 8


class ShellSyntaxError(ValueError):
    """Neither parser could read the text (an unbalanced quote, say)."""


class TooMuchToJudge(ValueError):
    """A line the guard does not follow to its end: a word expanding to more words than it judges (#28's task F-0086,
    F-0087; harness.agent.judge.shell_resolve), substitutions nested too deep (F-0374). The judge refuses the line."""


@dataclass(frozen=True)
class SimpleCommand:
    """One simple command a line runs: its words, the assignments before them, its redirects."""

    words: tuple[str, ...]                                    # argv after quote removal
    assignments: tuple[str, ...] = ()                         # NAME=value prefixes
    redirects: tuple[tuple[str, str], ...] = field(default=())  # (operator, target)
    found_by: tuple[str, ...] = ()   # a run of `find … -exec`: find's own words (its start folders and tests)
    in_found_folder: bool = False    # a run of `-execdir`/`-okdir`: in the folder of each file found
    in_child: str = ""               # the program that runs it as a child (`env cd`, `find -exec cd`), else ""
    xargs_items: tuple[str, ...] | None = None  # an xargs's input, where the line shows it (`echo a b | xargs …`)

    @property
    def program(self) -> str:
        return posixpath.basename(self.words[0]) if self.words else ""

    @property
    def changes_folder(self) -> bool:
        """A cd, pushd or popd the shell itself runs. Run by `env`, `nice`, `timeout`, `find -exec` …, the word is
        /usr/bin/cd (Fedora, macOS ship one), which moves only its own child process (#28's task F-0093)."""
        return self.program in CHANGERS and not self.in_child


CHANGERS = frozenset({"cd", "pushd", "popd"})
# Words the shell reads itself that run the rest of the line in the shell (a cd behind them still moves it).
SHELL_WORDS = frozenset({"command", "builtin", "time"})


def parse(text: str) -> list[SimpleCommand]:
    """Every simple command ``text`` would run, nested ones included."""
    return list(_parse(text, 0))


def _parse(text: str, depth: int) -> Iterator[SimpleCommand]:
    if depth > MAX_DEPTH:
        raise ShellSyntaxError("commands nested too deeply to judge")
    text, scripts = without_heredocs(text)
    commands = _plain_commands(text)  # a plain line's commands as bashlex gives them, without importing it
    if commands is None and _nests_deeper(text, BASHLEX_NESTING):
        commands = list(_fallback_commands(text))
    elif commands is None:
        try:
            commands = list(_bashlex_commands(text))
        except Exception:  # bashlex raises several types for what it does not support
            commands = list(_fallback_commands(text))
    for found in commands:
        yield from _judged(found, depth)
    for script in scripts:  # a here-document's shell runs it where the line is by then (#28's task F-0077)
        yield from _parse(script, depth + 1)


def _nests_deeper(text: str, depth: int) -> bool:
    """Whether substitutions nest more than ``depth`` deep in ``text``; raises TooMuchToJudge past
    MAX_SUBSTITUTION_NESTING. Counted in one scan, and only where the line holds more openers than ``depth`` (a
    count of them bounds the nesting): most lines are answered by str.count alone."""
    if sum(text.count(o) for o in SUBSTITUTIONS) <= depth:
        return False
    from harness.agent.judge.shell_quotes import scan

    opened: list[bool] = []  # per context open, innermost last: whether it is a substitution
    deep = deepest = 0  # the substitutions among them, and the most there were
    for start, end, kind, _ in scan(text):
        if kind == "open":
            opened.append(text[start:end] in SUBSTITUTIONS)
            deep += opened[-1]
            deepest = max(deep, deepest)
            if deep > MAX_SUBSTITUTION_NESTING:
                raise TooMuchToJudge(f"the line nests command substitutions more than {MAX_SUBSTITUTION_NESTING} "
                                     "deep, past what the guard judges")
        elif kind == "close" and opened:
            deep -= opened.pop()
    return deepest > depth


def _judged(found: SimpleCommand, depth: int) -> Iterator[SimpleCommand]:
    """One command as it will run (its prefixes dropped), then every command it runs in turn."""
    if found.xargs_items is None and found.program == "xargs":
        here_string = next((t for op, t in found.redirects if op == "<<<"), None)  # `xargs rm <<< "a b"`
        items = items_of(here_string + "\n") if here_string is not None else None
        found = replace(found, xargs_items=tuple(items)) if items is not None else found
    cmd, scripts, folders = _strip_prefixes(found)
    if not found.xargs_items:
        yield from _judged_stripped(cmd, scripts, folders, depth)
        return
    items = list(found.xargs_items)
    handed = [v for script in scripts for variant in put_in((script,), items) for v in variant]
    for words in put_in(cmd.words, items):  # what xargs runs, its input put in (#28's task F-0094, F-0095)
        yield from _judged_stripped(replace(cmd, words=words), handed, folders, depth)


def _judged_stripped(cmd: SimpleCommand, scripts: list[str], folders: list[str], depth: int) -> Iterator[SimpleCommand]:
    for folder in folders:
        # `env -C DIR CMD` runs CMD in DIR: said as a `cd DIR` before it. The judge keeps every folder a line
        # may be in, so CMD is judged where the line was as well as in DIR (#28's task F-0058).
        yield SimpleCommand(("cd", "--", folder))
    if cmd.words or cmd.assignments or cmd.redirects:
        yield cmd
    nested = [*(c for script in scripts for c in _parse(script, depth + 1)), *_nested(cmd, depth)]
    for found in nested:
        # What a run handed a find's (or a piped xargs's) files runs on them too (`xargs -I% sh -c '… %'`).
        marked = found.found_by or not cmd.found_by
        yield found if marked else replace(found, found_by=cmd.found_by, in_found_folder=cmd.in_found_folder)


# Patterns, compiled by re's own cache where a line holds `<<` (compiling them at import cost every judged
# command line, and few hold a here-document).
# `<<EOF`, `<<-EOF`, `<< 'EOF'`, `<<"EOF"` — not the here-string `<<<`.
HEREDOC = r"(?<!<)<<(-?)[ \t]*(?:'([^'\n]+)'|\"([^\"\n]+)\"|\\?([A-Za-z0-9_.-]+))(?!<)"
FEEDS_A_SHELL = r"(^|[;&|(\s])((sudo\s+)?(\S*/)?(ba|z|da|k|a)?sh(\s+-[a-z]+)*|(source|\.)\s+(/dev/stdin|-))\s*$"
# `cat <<EOF | sh`: the here-document is piped into a shell that reads its commands from stdin.
PIPED_TO_SHELL = r"^[^|;&]*\|\s*(sudo\s+)?(\S*/)?(ba|z|da|k|a)?sh(\s+-[a-z]+)*\s*($|[;&|)])"
# Programs whose output is their literal words: `echo 'git commit -n' | bash` runs those words.
ECHOES = frozenset({"echo", "printf"})


def without_heredocs(text: str) -> tuple[str, list[str]]:
    """The text with here-document bodies taken out (they are data: a commit message written
    with `git commit -m "$(cat <<'EOF' … EOF)"` is not a command), and the bodies that feed a
    shell (`bash <<EOF`), which are commands and are judged as such. A body starts after the first newline bash
    reads as code, not inside a quote the `<<WORD` line leaves open (F-0274); several start in order."""
    if "<<" not in text:
        return text, []  # no here-document (HEREDOC starts with `<<`)
    from harness.agent.judge.shell_quotes import code_positions

    lines = text.split("\n")
    out: list[str] = []
    scripts: list[str] = []
    cuts: list[tuple[int, int, int]] = []  # (the line in out, where the `<<WORD` starts, where it ends)
    pending: list[tuple[int, re.Match[str]]] = []  # the here-documents whose bodies have not started yet
    open_quotes: tuple[str, ...] = ()  # what the lines so far leave open (a quote a line goes on in)
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        code, open_quotes = code_positions(line + "\n", open_quotes)
        # `echo "<<EOF"`, `: # <<EOF`, `$((1<<x))`: a quoted, commented or arithmetic `<<` starts none (F-0252, F-0273)
        pending += [(len(out), m) for m in re.finditer(HEREDOC, line) if {m.start(), m.start() + 1} <= code]
        out.append(line)
        # The line ends in code (the bodies start on the next line), or in what only looks like arithmetic: bash reads
        # `((echo x) )` as two subshells, and its here-document's body starts on the next line (read 80's F-0278).
        if pending and (len(line) in code or any(o == "((" for o in open_quotes)):
            i = _heredoc_bodies(lines, i, pending, out, scripts, cuts)
            pending = []
    for at, start, stop in reversed(cuts):
        out[at] = out[at][:start] + out[at][stop:]
    return "\n".join(out), scripts


def _heredoc_bodies(lines: list[str], i: int, pending: list[tuple[int, re.Match[str]]], out: list[str],
                    scripts: list[str], cuts: list[tuple[int, int, int]]) -> int:
    """Read the bodies of the ``pending`` here-documents from ``lines[i]`` on, one after another: each one's
    operator to cut out of its line in ``out``, and its body among ``scripts`` where it feeds a shell. Where the
    text goes on after the last body."""
    for at, m in pending:
        strip_tabs, word = m.group(1) == "-", next(g for g in m.groups()[1:] if g)
        end = next((j for j in range(i, len(lines)) if (lines[j].lstrip("\t") if strip_tabs else lines[j]) == word),
                   None)
        if end is None:
            continue  # not a here-document after all (no terminator): leave the text as it is
        line = out[at]
        if re.search(FEEDS_A_SHELL, line[:m.start()]) or re.match(PIPED_TO_SHELL, line[m.end():]):
            scripts.append("\n".join(lines[i:end]))
        cuts.append((at, m.start(), m.end()))
        i = end + 1  # a second here-document on the line starts after the first one's end
    return i


def _nested(cmd: SimpleCommand, depth: int) -> Iterator[SimpleCommand]:
    """`bash -c "…"`, `eval …`, `su -c "…"` run a string as a command line, `find -exec` a command: parse them too."""
    line = command_line(cmd)
    if line is not None:
        yield from _parse(line, depth + 1)
    elif cmd.program == "find":
        for run, in_folder in _find_runs(cmd.words):
            run_cmd = SimpleCommand(tuple(run), found_by=cmd.words, in_found_folder=in_folder, in_child="find")
            for found in _judged(run_cmd, depth + 1):
                # What the run hands a shell runs where the run does (`-execdir sh -c '…'`).
                yield found if found.found_by else replace(found, found_by=cmd.words, in_found_folder=in_folder)


def command_line(cmd: SimpleCommand) -> str | None:
    """The command line a shell (`-c`), `eval`, `su -c`, `script -c` or `sg` is handed, or None."""
    words = cmd.words
    if cmd.program in SHELLS | SOURCES and words[1:2] and words[1].startswith("<(") and words[1].endswith(")"):
        return _printed_by(words[1][2:-1])  # `bash <(echo '…')`, `source <(echo '…')` (F-0085)
    if cmd.program in SHELLS:
        for i, w in enumerate(words[1:], 1):
            if w.startswith("-") and "c" in w[1:] and not w.startswith("--") and i + 1 < len(words):
                return _positionals_put_in(words[i + 1], words[i + 2:])
        return next((t for op, t in cmd.redirects if op == "<<<"), None)  # `bash <<< "…"` reads it as commands
    if cmd.program in SOURCES and words[1:2] and words[1] in STDIN_OPERANDS:
        return next((t for op, t in cmd.redirects if op == "<<<"), None)  # `. /dev/stdin <<< "…"` (F-0085)
    if cmd.program == "eval" and len(words) > 1:
        line = " ".join(words[1:])
        return _printed_by_substitutions(line) if "$(" in line or "`" in line else line
    if cmd.program == "trap":
        return _trap_action(list(words[1:]))
    if cmd.program in COMMAND_OPTION:
        return _option_value(words[1:], *COMMAND_OPTION[cmd.program])
    if cmd.program == "sg":
        return _sg_line(list(words[1:]))
    if cmd.program in POWERSHELLS:
        return _powershell_line(words[1:])
    return None


# PowerShell's programs, run from bash: a `-Command` line is a PowerShell line, judged as the PowerShell tool's is.
POWERSHELLS = frozenset({"pwsh", "powershell", "pwsh.exe", "powershell.exe"})
# Its options that take a value (`-ep`, `-wd`: their short names are prefixes too).
PWSH_VALUED = ("executionpolicy", "ep", "workingdirectory", "wd", "windowstyle", "configurationname", "outputformat",
               "of", "inputformat", "version", "settingsfile", "custompipename", "psconsolefile")


def _powershell_line(args: tuple[str, ...]) -> str | None:
    """The line `pwsh -Command LINE…` runs (the words after `-Command`, or after the options: Windows PowerShell
    runs its first word that is no option as a command), which is then read as a bash line; None for `-File`.
    Raises TooMuchToJudge for what the guard cannot read of it (`-EncodedCommand`, splatting, …; F-0382)."""
    from harness.agent.judge.powershell_words import unread

    valued = False  # the word is the value of the option before it (`-ExecutionPolicy Bypass`)
    for i, word in enumerate(args):
        option = word.lower().lstrip("-/") if word[:1] in "-/" and not valued else None
        if option and re.fullmatch(r"e(?:c|n[a-z]*)?", option):
            raise TooMuchToJudge("pwsh's -EncodedCommand hands PowerShell a line the guard cannot read")
        if option and ("command".startswith(option) or option in ("commandwithargs", "cwa")):
            line = " ".join(args[i + 1:])
        elif option and "file".startswith(option):
            return None  # a script, as `bash FILE`
        elif option is None and not valued:
            line = " ".join(args[i:])
        else:
            named = option or ""
            valued = bool(named) and any(name.startswith(named) for name in PWSH_VALUED) and ":" not in named
            continue
        why = unread(line)
        if why:
            raise TooMuchToJudge(f"the PowerShell line pwsh is handed: {why}")
        return line
    return None


def _sg_line(args: list[str]) -> str | None:
    """`sg [-] GROUP [-c] LINE`: the line sg hands `/bin/sh -c` (F-0253). shadow's sg takes the one word after the
    group (or after `-c`); an sg that joins the words left is read too: both are judged."""
    if args[:1] == ["-"]:
        args = args[1:]
    rest = args[1:]
    if rest[:1] == ["-c"]:
        rest = rest[1:]
    return "\n".join(dict.fromkeys([rest[0], " ".join(rest)])) if rest else None


# `source FILE` and `. FILE` run FILE's lines in this shell: of standard input, what it is fed (#28's task F-0085).
SOURCES = frozenset({"source", "."})
POSITIONAL = r"\$(?:\{([0-9@*])\}|([0-9@*]))"


def _positionals_put_in(line: str, args: tuple[str, ...]) -> str:
    """`sh -c LINE NAME ARGS…`: the line with `$0`, `$1`…, `$@` and `$*` as those words, so
    `find … -exec sh -c 'echo x >> "$0"' {} +` writes what find hands it (#28's task F-0080). A word that
    would change the line's quoting is left out (the line keeps the parameter, which the rules call unknown)."""
    if "$" not in line or not args or any(set(a.replace(XARGS_INPUT, "")) & set('"$`\\') for a in args):
        return line
    loop = re.search(r"\bfor\s+([A-Za-z_]\w*)\s*(?:;|\s+do\b|\s+in\s+\"?\$[@*]\"?)", line)
    if loop:  # `for f; do … "$f"; done` walks the positional words
        line = re.sub(r"\$(?:\{" + loop[1] + r"\}|" + loop[1] + r"(?![A-Za-z0-9_]))", lambda _: " ".join(args[1:]), line)

    def value(m: re.Match[str]) -> str:
        name = m[1] or m[2]
        if name in "@*":
            return " ".join(args[1:])
        return args[int(name)] if int(name) < len(args) else m[0]

    return re.sub(POSITIONAL, value, line)


def _printed_by(inner: str) -> str:
    """What a command of literal `echo`/`printf` prints, every way it may (its escapes decoded and not: :func:`_printed`),
    as the lines of the script a shell reading it runs; the command itself when it is another."""
    import shlex  # for a substitution alone

    try:
        words = shlex.split(inner)
    except ValueError:
        return inner
    if words[:1] and words[0] in ECHOES:
        return "\n".join(dict.fromkeys(_printed(SimpleCommand(tuple(words)))))
    return inner


def _printed_by_substitutions(line: str) -> str:
    """`eval "$(echo '…')"`: the line with its echo/printf substitutions put in, as eval runs it — once with what
    each prints as written, once with its escapes decoded (`$(printf 'git commit \\055n')`), each line judged. The
    exact reading of a word (:func:`literal_output`) would leave a substitution holding `;` or `>` as written."""
    from harness.agent.judge.shell_resolve import substitute_commands

    lines = [substitute_commands(line, _as_written_printed), substitute_commands(line, _decoded_printed)]
    return "\n".join(dict.fromkeys(lines))


def _as_written_printed(inner: str, as_written: str) -> str:
    return _nth_printed(inner, as_written, 0)


def _decoded_printed(inner: str, as_written: str) -> str:
    return _nth_printed(inner, as_written, 1)


def _nth_printed(inner: str, as_written: str, k: int) -> str:
    """The ``k``-th way :func:`_printed` says an echo/printf substitution prints (as written, escapes decoded; where
    they cannot be decoded, the substitution itself first: F-0249), its last line break dropped as `$(…)` drops it;
    another command's substitution as written."""
    import shlex

    try:
        words = shlex.split(inner)
    except ValueError:
        return as_written
    if not words or words[0] not in ECHOES:
        return as_written
    printed = _printed(SimpleCommand(tuple(words)))
    return printed[min(k, len(printed) - 1)].rstrip("\n") if printed else ""


def _trap_action(args: list[str]) -> str | None:
    """The command line `trap ACTION SIGNAL…` runs when a signal (or EXIT) comes: a command like any other
    (#28's task F-0071). `trap -p`, `trap - SIG` and a lone signal (reset) run nothing."""
    if args[:1] == ["--"]:
        args = args[1:]
    if len(args) < 2 or args[0] == "-" or args[0].startswith("-"):
        return None
    return args[0]


def _find_runs(words: tuple[str, ...]) -> Iterator[tuple[list[str], bool]]:
    """The commands `find … -exec CMD {} ;` runs (`-execdir`, `-ok` alike), each with whether it runs in the
    folder of the file found (`-execdir`, `-okdir`)."""
    run: list[str] | None = None
    in_folder = False
    for w in words[1:]:
        if run is None:
            run, in_folder = ([] if w in FIND_EXEC else None), w in ("-execdir", "-okdir")
        elif w in (";", "+"):
            yield run, in_folder
            run = None
        else:
            run.append(w)
    if run:
        yield run, in_folder


def _option_value(args: tuple[str, ...], short: str, longs: tuple[str, ...]) -> str | None:
    """The value of ``-c`` (alone, or last in a cluster like `-qec`, or with the value attached), or of a long option
    among ``longs``, abbreviated too as getopt_long reads it (`--comm`, `--session`; an ambiguous `--s` errs towards
    a command line)."""
    for i, a in enumerate(args):
        opt, eq, value = a.partition("=")
        if len(opt) > 2 and opt.startswith("--") and any(name.startswith(opt) for name in longs):
            return value if eq else (args[i + 1] if i + 1 < len(args) else None)
        if a.startswith("-") and not a.startswith("--") and short in a[1:]:
            rest = a[a.index(short, 1) + 1:]
            return rest or (args[i + 1] if i + 1 < len(args) else None)
    return None


def _strip_prefixes(cmd: SimpleCommand) -> tuple[SimpleCommand, list[str], list[str]]:
    """The command behind its prefixes (`sudo`, `nice -n 5`, `env -S "…"`, `flock F -c "…"`), the command
    lines those prefixes hand to a shell, and the folders they run it in (`env -C DIR`, `sudo -D DIR`)."""
    words, assigns = list(cmd.words), list(cmd.assignments)
    scripts: list[str] = []
    folders: list[str] = []
    in_child = cmd.in_child
    while words:
        if words[0] in RESERVED:
            words.pop(0)
            continue
        if words[0] == "coproc":  # `coproc CMD …` and `coproc NAME { …; }` run the command (#28's task F-0071)
            del words[:2 if words[2:3] in (["{"], ["("]) else 1]
            in_child = in_child or "coproc"
            continue
        head = words[0]
        stripped, handed = strip_prefix(words, assigns, folders)
        scripts += handed
        if not stripped:
            break
        in_child = in_child or ("" if head in SHELL_WORDS else posixpath.basename(head))
    return replace(cmd, words=tuple(words), assignments=tuple(assigns), in_child=in_child), scripts, folders


# -- bashlex ------------------------------------------------------------------------------

def _bashlex_commands(text: str) -> Iterator[SimpleCommand]:
    import bashlex

    for tree in bashlex.parse(text):
        yield from _walk(tree, text)


def _walk(node: Any, text: str) -> Iterator[SimpleCommand]:
    kind = getattr(node, "kind", None)
    if kind == "command":
        words, assigns, redirects = [], [], []
        for part in node.parts:
            if part.kind == "word":
                words += _as_braced(part, text)
            elif part.kind == "assignment":
                assigns.append(part.word)
            elif part.kind == "redirect":
                target = part.output
                redirects += [(part.type, t) for t in (_as_braced(target, text) if hasattr(target, "word") else [str(target)])]
        yield SimpleCommand(tuple(words), tuple(assigns), tuple(redirects))
    if kind == "pipeline":
        yield from _piped_to_a_shell(node.parts, text)
    # Substitutions inside words, bodies of loops and functions, subshells: all run too.
    for attr in ("parts", "list"):
        for child in getattr(node, attr, None) or []:
            yield from _walk(child, text)
    for attr in ("command", "body", "output"):
        child = getattr(node, attr, None)
        if child is not None and hasattr(child, "kind"):
            yield from _walk(child, text)


def _as_braced(word: Any, text: str) -> list[str]:
    """A word as bashlex gives it (quotes removed), or, when it was written with a quoted or escaped character and
    a brace, the words bash's brace expansion makes of it as written (`.harnes{s,\\}}`; #28's task F-0102)."""
    start, end = getattr(word, "pos", (0, 0))
    raw = text[start:end]
    if "{" not in raw or not set(raw) & set("\\'\""):
        return [(_unquoted(raw) if "'" in raw and '"' in raw else None) or word.word]
    from harness.agent.judge.shell_resolve import quoted_braces  # (it imports this module)

    return quoted_braces(raw) or [word.word]


# What a backslash escapes inside double quotes (elsewhere there it is itself).
ESCAPED_IN_DOUBLE_QUOTES = frozenset("$`\"\\\n")


def _unquoted(raw: str) -> str | None:
    """A word as written with its quotes removed as bash removes them, or None where the guard leaves that to bashlex
    (a `$'…'` or `$"…"`, a word the scanner does not close). bashlex drops the quotes of the other kind inside a
    quoted part of a word that starts unquoted (`a='!sh -c "git commit -n"'` came out as `a=!sh -c git commit -n`;
    F-0275); substitutions are kept as written, their own quotes with them."""
    from harness.agent.judge.shell_quotes import scan

    if "$'" in raw or '$"' in raw:
        return None
    out: list[str] = []
    stack: tuple[str, ...] = ()
    for start, end, kind, after in scan(raw):
        piece = raw[start:end]
        if any(o not in ("'", '"') for o in (*stack, *after)):
            out.append(piece)  # in a substitution: as written
        elif kind == "escape":
            out.append(piece[1] if not stack or piece[1] in ESCAPED_IN_DOUBLE_QUOTES else piece)
        elif kind in ("code", "quoted"):
            out.append(piece)
        elif kind not in ("open", "close", "joined"):
            return None
        stack = after
    return "".join(out) if not stack else None


def _piped_to_a_shell(parts: list[Any], text: str) -> Iterator[SimpleCommand]:
    commands = [next(_walk(p, text), None) if getattr(p, "kind", None) == "command" else None for p in parts]
    return _fed_to_a_shell([c for c in commands if c is not None])


def _fed_to_a_shell(feeders: list[SimpleCommand]) -> Iterator[SimpleCommand]:
    """`echo 'git commit -n' | bash`: a shell reading stdin runs what echo/printf print, as `bash -c` would.
    Both sides are read behind their prefixes (`| sudo bash`, `| timeout 9 sh`; #28's task F-0032)."""
    for left, right in itertools.pairwise(feeders):
        feeder, shell = _strip_prefixes(left)[0], _strip_prefixes(right)[0]
        reads = (shell.program in SHELLS and _reads_stdin(shell)) or (
            shell.program in SOURCES and shell.words[1:2] and shell.words[1] in STDIN_OPERANDS)
        if feeder.program in ECHOES and len(feeder.words) > 1 and reads:
            for line in dict.fromkeys(_printed(feeder)):
                yield SimpleCommand(("sh", "-c", line))
        if right.program == "xargs":  # what xargs is fed, where the line shows it (#28's task F-0081, F-0095)
            found_by, names = listed_by(feeder.words)
            if found_by is not None:
                yield replace(right, found_by=found_by)
            texts = [" ".join(names)] if names else _printed(feeder) if feeder.program in ECHOES else []
            items = [item for text in texts for item in items_of(text) or [XARGS_INPUT]]
            if items and XARGS_INPUT not in items:
                yield replace(right, xargs_items=tuple(dict.fromkeys(items)))


# Operands by which a shell still reads its commands from standard input.
STDIN_OPERANDS = frozenset({"-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"})


def _reads_stdin(shell: SimpleCommand) -> bool:
    """Whether the shell runs the commands on its standard input: no `-c` line, and no script but stdin
    itself (`bash`, `bash -s ARGS`, `bash /dev/stdin`)."""
    options = [w for w in shell.words[1:] if w.startswith("-") and not w.startswith("--") and w != "-"]
    if any("c" in w[1:] for w in options):
        return False
    if any("s" in w[1:] for w in options):
        return True
    operands = [w for w in shell.words[1:] if not w.startswith("-") or w == "-"]
    return not operands or operands[0] in STDIN_OPERANDS


def _printed(feeder: SimpleCommand) -> list[str]:
    """The lines echo or printf may print, each judged: echo's words after its leading options (-n, -e, -E and
    their clusters), as written and with escapes decoded (`echo -e`, and dash's echo always); printf's format
    with its arguments put in, escapes decoded, and its words as written (#28's task F-0031)."""
    words = list(feeder.words[1:])
    if feeder.program == "printf":
        if words[:1] == ["-v"]:
            words = words[2:]  # printed into a variable: judged as printed, to be safe
        if words[:1] == ["--"]:
            words = words[1:]
        if not words:
            return []
        return _with_decoded(" ".join(words).replace("\\n", "\n"), _printf(words[0], words[1:]), feeder)
    while words and len(words[0]) > 1 and words[0][0] == "-" and set(words[0][1:]) <= {"n", "e", "E"}:
        words.pop(0)
    text = " ".join(words)
    return _with_decoded(text.replace("\\n", "\n"), _unescaped(text), feeder)


def _with_decoded(as_written: str, decoded: str | None, feeder: SimpleCommand) -> list[str]:
    """[as written, decoded]. Where the escapes cannot be decoded (F-0249), the command itself as a substitution
    comes first in place of the decoded text: the line a shell or eval is handed then starts with what the guard
    cannot work out (`$(printf 'git \\q')`), unresolved as `$(cat file)` is."""
    if decoded is not None:
        return [as_written, decoded]
    import shlex

    return ["$(" + shlex.join(feeder.words) + ")", as_written]


def _printf(fmt: str, args: list[str]) -> str | None:
    """What `printf FMT ARGS` prints: the format's escapes decoded, each conversion taking the next argument (`%b`
    with its escapes decoded, `%s` as it is), the format used again while arguments remain, as printf does; None
    where an escape cannot be decoded (:func:`_unescaped`)."""
    out: list[str] = []
    rest = list(args)
    while True:
        before, i = len(rest), 0
        while i < len(fmt):
            piece, i = _format_piece(fmt, i, rest)
            if piece is None:
                return None
            out.append(piece)
        if not rest or len(rest) == before:  # (a format that takes no argument is printed once)
            return "".join(out)


def _format_piece(fmt: str, i: int, rest: list[str]) -> tuple[str | None, int]:
    """What printf prints for the format's piece at ``i`` (an escape, a conversion, which takes the next of ``rest``,
    or a character), and where the next piece starts."""
    if fmt[i] == "\\" and i + 1 < len(fmt):
        return _escape_at(fmt, i)
    if fmt[i] != "%" or i + 1 >= len(fmt):
        return fmt[i], i + 1
    j = i + 1
    while j < len(fmt) and fmt[j] in "-+ #0123456789.*":
        j += 1
    conv = fmt[j] if j < len(fmt) else ""
    if conv == "%":
        return "%", j + 1
    arg = rest.pop(0) if rest else ""
    return (_unescaped(arg) if conv == "b" else arg), j + 1


ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "f": "\f", "v": "\v", "\\": "\\",
           "e": "\x1b", "E": "\x1b", "'": "'", '"': '"', "?": "?"}
# Escapes of a character by its code, and how many hex digits each reads at most: `\xHH`, and bash's `\uHHHH` and
# `\UHHHHHHHH` (printf and `echo -e` decode them: `\u002dn` is `-n`; F-0249).
BY_CODE = {"x": 2, "u": 4, "U": 8}
HEX_DIGITS = frozenset("0123456789abcdefABCDEF")


def _unescaped(text: str) -> str | None:
    """``text`` with the backslash escapes printf and `echo -e` decode: \\NNN and \\0NNN (octal), \\xHH, \\uHHHH,
    \\UHHHHHHHH, \\n …; None where it holds an escape the guard does not know (`\\q`, `\\c`, a `\\x` with no digit):
    what that prints differs between shells and commands, so the text is not worked out rather than read as
    written (F-0249). A backslash that ends the text is printed as it is."""
    out: list[str] = []
    i = 0
    while i < len(text):
        if text[i] != "\\" or i + 1 >= len(text):
            out.append(text[i])
            i += 1
            continue
        decoded, i = _escape_at(text, i)
        if decoded is None:
            return None
        out.append(decoded)
    return "".join(out)


def _escape_at(text: str, i: int) -> tuple[str | None, int]:
    """The character the escape at ``i`` (a backslash) stands for, or None for one the guard does not know, and
    where the text goes on after it."""
    nxt = text[i + 1]
    if nxt in "01234567":
        j = i + 1 + (nxt == "0")
        digits = ""
        while j < len(text) and len(digits) < 3 and text[j] in "01234567":
            digits += text[j]
            j += 1
        return (chr(int(digits, 8) & 0xFF) if digits else "\0"), j
    if nxt in BY_CODE:
        j = i + 2
        while j < len(text) and j < i + 2 + BY_CODE[nxt] and text[j] in HEX_DIGITS:
            j += 1
        code = int(text[i + 2:j], 16) if j > i + 2 else None
        return (chr(code) if code is not None and code <= 0x10FFFF else None), j
    return ESCAPES.get(nxt), i + 2


def _plain_commands(text: str) -> list[SimpleCommand] | None:
    """What :func:`_bashlex_commands` gives for a plain line (:mod:`plain_line`), or None for another line.
    A pipeline is walked as bashlex's tree is: what it feeds a shell first, then its commands."""
    found = pipelines(text)
    if found is None:
        return None
    out: list[SimpleCommand] = []
    for pipeline in found:
        commands = [SimpleCommand(words) for words in pipeline]
        out += [*_fed_to_a_shell(commands), *commands] if len(commands) > 1 else commands
    return out


# -- fallback tokenizer -------------------------------------------------------------------

SEPARATORS = frozenset({";", "&", "|", "&&", "||", "(", ")", ";;", "|&", "\n"})


def _fallback_commands(text: str, aside: list[tuple[str, str | None]] | None = None) -> Iterator[SimpleCommand]:
    """The commands of ``text``; with ``aside``, ``text`` is a substitution's line already read by :func:`_set_aside`
    with the whole line (its own substitutions stood in for there): each level is read once, not once more per
    level it is nested in (F-0374)."""
    import shlex  # only for what bashlex cannot read

    # shlex reads neither a line continuation, `$(…)` nor `$'…'`: they are read first (`_set_aside`), else
    # `git commit \<NL>--no-verify` would be two commands and `$(printf %s -n)` no argument of git's (F-0234).
    if aside is None:
        text, aside = _set_aside(text)
    lexer = shlex.shlex(text.replace("\n", " ; "), posix=True, punctuation_chars=";&|()<>")
    lexer.whitespace_split = True
    lexer.commenters = ""
    try:
        tokens = list(lexer)
    except ValueError as exc:
        raise ShellSyntaxError(str(exc)) from None
    words: list[str] = []
    redirects: list[tuple[str, str]] = []
    pending: str | None = None
    pipeline: list[SimpleCommand] = []  # the commands joined by `|` so far: what they feed a shell is judged
    for lexed in tokens + [";"]:
        tok, inners = _put_back(lexed, aside)
        for inner in inners:  # a substitution's commands run too
            yield from _fallback_commands(inner, aside)
        if pending is not None:
            redirects.append((pending, tok))
            pending = None
        elif tok in SEPARATORS or (tok and set(tok) <= set(";&|()")):
            if words or redirects:
                pipeline.append(_fallback_command(words, redirects))
                yield pipeline[-1]
            words, redirects = [], []
            if tok not in ("|", "|&"):  # the pipeline ends (#28's task F-0027: `[[ … ]]; echo … | bash`)
                yield from _fed_to_a_shell(pipeline)
                pipeline = []
        elif tok and set(tok) <= set("<>&"):
            pending = tok
        else:
            words.append(tok)


# Where a part of a line read by the fallback stands while shlex lexes the rest (private-use characters, which
# no shell syntax gives a meaning): `\ue010` N `\ue011` is the Nth part set aside.
ASIDE = "\ue010{}\ue011"
ASIDE_PATTERN = "\ue010([0-9]+)\ue011"


# The parts the fallback sets aside: substitutions, whose commands run too (process substitutions as well: shlex
# would read `<(git commit -n)` as a redirect from `(` and git's words as cat's; F-0250), and `$'…'`.
SUBSTITUTIONS = frozenset({"$(", "`", "<(", ">("})
SET_ASIDE = SUBSTITUTIONS | {"$'"}


def _set_aside(text: str) -> tuple[str, list[tuple[str, str | None]]]:
    """``text`` as shlex can lex it, read by the scanner bash's quoting (harness/agent/judge/shell_quotes.py): line
    continuations (backslash-newline outside single quotes) joined, as bash joins them before it reads words;
    comments dropped to the end of their line, as bash drops them (a quote in one would open a quoted word for
    shlex; F-0251); each `$(…)`, backtick, `<(…)` and `>(…)` substitution, and each `$'…'` holding an escape,
    replaced by a stand-in; the parts stood in for: each as written, with the command line of a substitution (else
    None) read the same way, its own substitutions stood in for by entries of the same list. One scan of the line
    reads every level (F-0374)."""
    from harness.agent.judge.shell_quotes import scan

    out: list[str] = []
    aside: list[tuple[str, str | None]] = []
    parts: list[tuple[int, int, list[str]]] = []  # the parts open, innermost last: (start, depth it closes at, text)
    for start, end, kind, stack in scan(text):
        if parts and kind == "close" and len(stack) == parts[-1][1]:
            begun, _, inner = parts.pop()
            written = text[begun:end]
            stood = _stand_in(written, _inner(written, "".join(inner)), aside)
            (parts[-1][2] if parts else out).append(stood)
        elif kind == "open" and text[start:end] in SET_ASIDE:
            parts.append((start, len(stack) - 1, []))
        elif kind not in ("comment", "joined"):
            (parts[-1][2] if parts else out).append(text[start:end])
    if parts:
        out.append(text[parts[0][0]:])  # an unclosed one is left to the lexer, which reads it as it can
    return "".join(out), aside


def _inner(written: str, read: str) -> str | None:
    """The command line a substitution as written runs (``read``: its text as :func:`_set_aside` read it); None for a
    `$'…'` string. A backtick's line is read by bash apart: a `#` that starts it starts a comment."""
    if written.startswith("$'"):
        return None
    if written.startswith("`") and read.startswith("#"):
        return read[read.index("\n"):] if "\n" in read else ""
    return read


def _stand_in(written: str, inner: str | None, aside: list[tuple[str, str | None]]) -> str:
    """What stands in the lexed text for ``written``: `$'…'` without an escape is the plain quoted text it is."""
    if written.startswith("$'") and "\\" not in written:
        return written[1:]
    aside.append((written, inner))
    return ASIDE.format(len(aside) - 1)


def _put_back(token: str, aside: list[tuple[str, str | None]]) -> tuple[str, list[str]]:
    """A lexed token with the parts set aside put back as written (`$(printf %s -n)`, `$'\\055n'`: expansions the
    rules then work out, or call unresolved), and the command lines of its substitutions."""
    if "\ue010" not in token:
        return token, []
    found = [aside[int(n)] for n in re.findall(ASIDE_PATTERN, token)]
    return re.sub(ASIDE_PATTERN, lambda m: aside[int(m[1])][0], token), [inner for _, inner in found if inner]


def _fallback_command(words: list[str], redirects: list[tuple[str, str]]) -> SimpleCommand:
    assigns = []
    while words and is_assignment(words[0]):
        assigns.append(words.pop(0))
    return SimpleCommand(tuple(words), tuple(assigns), tuple(redirects))
