"""The programs a shell line runs, and every PATH it may look them up on, for the check that the tree supplies no
runner.

A `shell: true` test command is a line the shell reads, not one argv: `PATH="$PWD/bin:$PATH" pytest`, `export
PATH=bin:$PATH; pytest` or `true | pytest` start a runner the line's first plain words do not show. Each simple
command the line runs (in lists, pipelines, loops, `sh -c` and `timeout …` included: the agent guard's parser,
:mod:`harness.agent.judge.shell_commands`) is looked up on every PATH the line assigns (`PATH=…`, `PATH+=…`, as a
prefix, alone, or through `export`/`declare`), each value read every way the shell may read it: the parser hands it
over with its quotes removed, so each `$NAME`, `${NAME}` and leading `~` is taken both expanded (from the run's
environment; `$PWD` is the folder the run starts in) and as the literal text a quote would have kept (read 143's
F-0509). What only the shell can tell is refused, never guessed (read 143's F-0506..F-0508): a PATH set another way
(`for PATH in`, `read PATH`, `printf -v PATH`; PATH is found in the line's text with its quotes taken out, so a quoted
`"PA"TH=` is found too), a variable the line itself may set (HOME and PWD among them), a substitution, a brace (bash may
expand it into several assignments), more than :data:`MAX_READINGS` expansions in one value, a `~user` or a `~` with no
HOME to read, and a relative entry (or `$PWD`) on a line that changes folder before it runs something.
"""

from __future__ import annotations

import itertools
import re

from harness.errors import HarnessError

DECLARERS = frozenset({"export", "declare", "typeset", "readonly", "local"})
ASSIGNED = ("PATH", "PATH+")  # `PATH+=…` appends: its own entries are new, the rest were checked as they were set
MAX_READINGS = 6  # expansions in one value, each read two ways: 64 PATHs at most, past that the value is refused
# `$NAME`, `${NAME}`: the whole of a parameter expansion the shell decides nothing in
_PARAMETER = re.compile(r"\$(?:\{([A-Za-z_]\w*)\}|([A-Za-z_]\w*))")
# PATH named as a word: read (`$PATH`, `${PATH}`), assigned (`PATH=`, `PATH+=`), or anything else the shell may do with it
_PATH_WORD = re.compile(r"(?<![\w])PATH(?!\w)")
_DECLARED = re.compile(r"(?:^|[\s;&|(])(?:export|readonly|declare|typeset|local)(?:\s+-\w+)*\s+$")
_IDENTIFIER = re.compile(r"(?<![\w$])(?<!\$\{)([A-Za-z_]\w*)")


class UnknownPath(HarnessError):
    """A PATH the line gives, or a folder it looks it up from, that the shell alone can compute."""


def line_runners(text: str, environ: dict[str, str], cwd: str) -> tuple[list[list[str]], list[str]]:
    """(the words of each simple command ``text`` runs, every PATH the line may look them up on). Raises
    :class:`UnknownPath` where only the shell can tell, and HarnessError for a line the parser cannot read."""
    from harness.agent.judge.shell_commands import ShellSyntaxError, TooMuchToJudge, parse

    try:
        commands = parse(text)
    except (ShellSyntaxError, TooMuchToJudge) as exc:
        raise HarnessError(f"the shell line cannot be read ({exc}), so the programs it runs were not checked") from None
    _refuse_other_writes(text)
    moves = any(c.changes_folder for c in commands)
    # the names the line may set, as written and as the shell hands them over, quotes taken out (read 145's F-0514)
    named = {m.group(1) for spelt in (text, _unquoted(text)) for m in _IDENTIFIER.finditer(spelt)}
    reading = _Reading(environ, cwd, named, moves)
    paths = []
    for command in commands:
        declared = command.words[1:] if command.program in DECLARERS else ()
        for assignment in (*command.assignments, *declared):
            name, eq, value = assignment.partition("=")
            if eq and name in ASSIGNED:
                paths.extend(reading.readings(value))
    if moves:
        reading.refuse_relative([environ.get("PATH", ""), *paths])
    return [list(c.words) for c in commands if c.words], list(dict.fromkeys(paths))


def _refuse_other_writes(text: str) -> None:
    """UnknownPath where the line names PATH otherwise than reading it (`$PATH`), assigning it (`PATH=`, `PATH+=`)
    or exporting it: `for PATH in …`, `read PATH`, `printf -v PATH`, `declare -n ref=PATH` set it in ways not read
    here (read 143's F-0506)."""
    text = _unquoted(text)
    for match in _PATH_WORD.finditer(text):
        before, after = text[:match.start()], text[match.end():]
        if before.endswith(("$", "${")) or after.startswith(("=", "+=")) or _DECLARED.search(before):
            continue
        raise UnknownPath(f"the shell line names PATH in `{_around(text, match.start())}`, which sets it in a way "
                          "the harness does not follow, so where its programs are found was not checked")


def _unquoted(text: str) -> str:
    """``text`` as the shell hands its words to a builtin, over-approximated: every quote and backslash taken out, and
    each line continuation (`P""ATH`, `P\\ATH` and `PA\\<newline>TH` are PATH to `read`, `printf -v` or a nameref:
    read 144's F-0511)."""
    return re.sub(r"[\"'\\]", "", text.replace("\\\n", ""))


def _around(text: str, at: int) -> str:
    return text[max(0, at - 20):at + 24].strip()


class _Reading:
    """How a value of the line is read: which variables it takes from the environment, and from which folder."""

    def __init__(self, environ: dict[str, str], cwd: str, named: set[str], moves: bool) -> None:
        self.environ, self.cwd, self.named, self.moves = environ, cwd, named, moves

    def readings(self, value: str) -> list[str]:
        """Every PATH ``value`` may be, as the shell expands it with each expansion or `~` quoted or not."""
        if "`" in value or "$" in _PARAMETER.sub("", value):
            raise self._unknown(value, "a substitution or an expansion that decides")
        if "{" in _PARAMETER.sub("", value):  # bash expands `{a,b}` and `{1..3}` in export's words (F-0512)
            raise self._unknown(value, "a brace, which bash may expand into several assignments")
        spots = [(m.start(), m.end(), self._value(m.group(1) or m.group(2), value)) for m in _PARAMETER.finditer(value)]
        spots += self._tildes(value)
        if len(spots) > MAX_READINGS:
            raise self._unknown(value, f"more than {MAX_READINGS} expansions")
        spots.sort()
        out = []
        for expand in itertools.product((True, False), repeat=len(spots)):
            parts, at = [], 0
            for (start, end, expanded), chosen in zip(spots, expand, strict=True):
                parts += [value[at:start], expanded if chosen else value[start:end]]
                at = end
            out.append("".join([*parts, value[at:]]))
        return list(dict.fromkeys(out))

    def _value(self, name: str, value: str) -> str:
        if name == "PWD" and not (self.moves or name in self.named):
            return self.cwd  # where the run starts: the line neither moves nor sets it
        if name == "PATH" or (name in self.environ and name not in self.named and name != "PWD"):
            # PATH: as the environment has it; a value the line gave it earlier is itself one of the PATHs checked
            return self.environ.get(name, "")
        raise self._unknown(value, f"${name}, which the line may set itself or the environment does not give")

    def _tildes(self, value: str) -> list[tuple[int, int, str]]:
        """The `~` that starts an entry (the shell expands it in an assignment), as HOME."""
        spots, at = [], 0
        for entry in value.split(":"):
            if entry.startswith("~"):
                home = self.environ.get("HOME") if "HOME" not in self.named else None  # F-0510: the line's HOME
                if not home or not (entry == "~" or entry.startswith("~/")):
                    raise self._unknown(value, "`~USER`, or `~` with a HOME the line may set or the environment lacks")
                spots.append((at, at + 1, home))
            at += len(entry) + 1
        return spots

    def refuse_relative(self, paths: list[str]) -> None:
        """UnknownPath for a relative entry (an empty one is the folder itself) on a line that changes folder: which
        folder it names depends on where the line is by then (read 143's F-0508)."""
        for path in paths:
            entry = next((e for e in path.split(":") if not e.startswith("/")), None)
            if entry is not None:
                raise self._unknown(path, f"the relative entry `{entry or '(empty: the current folder)'}` on a line "
                                          "that changes folder before it runs its programs")

    @staticmethod
    def _unknown(value: str, why: str) -> UnknownPath:
        return UnknownPath(f"the shell line looks programs up on PATH={value}, which only the shell can compute "
                           f"({why}), so where they are found was not checked")
