"""What a glob may match of the paths the guard keeps, under the glob options a line may turn on.

Pure. By bash's defaults `*` skips dotted names and case counts; `shopt -s dotglob nocaseglob globstar` (or
`GLOBIGNORE`) change that, and `shopt -s extglob` makes `@(.harness)` a pattern, which an agent's shell may
have on already. So a line that sets glob options has each of its globs read loosely (a leading dot, any case,
`**` across folders), and an extglob pattern is read as matching anything within its folder, on any line (#28's
task F-0103, F-0104). Each guarded path a glob may then match is judged in its place, as the shell would put
the match there.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterator

from harness.agent.judge.guarded_paths import FOUND_FOLDERS, FOUND_SAMPLES, GLOB_CHARS, Where
from harness.agent.judge.shell_commands import SimpleCommand
from harness.core import lazy_re as re  # imported on a pattern's first use: most lines need none
from harness.core.value_class import replace

# The line sets glob options: `shopt -s …`, `bash -O dotglob …`, GLOBIGNORE (#28's task F-0103, F-0120).
GLOB_OPTIONS = r"\bshopt\b|\bGLOBIGNORE\b|\bBASHOPTS\b|\b(?:dot|nocase|ext|null|fail)glob\b|\bglobstar\b"
DOT_OPTIONS = r"\bdotglob\b|\bGLOBIGNORE\b|\bBASHOPTS\b"  # what lets `*` match a leading dot
EXTGLOB = r"[?*+@!]\("
KEPT = (*FOUND_SAMPLES, *FOUND_FOLDERS)


def looseness(text: str) -> int:
    """How loosely a line's globs match: 0 as bash's defaults, 1 when it sets glob options (any case, `**`),
    2 when those may let `*` match a leading dot (dotglob, GLOBIGNORE)."""
    if "shopt" not in text and "glob" not in text.lower() and "BASHOPTS" not in text:
        return 0
    return 2 if re.search(DOT_OPTIONS, text) else 1 if re.search(GLOB_OPTIONS, text) else 0


def loosened(cmd: SimpleCommand, here: Where, loose: int) -> Iterator[SimpleCommand]:
    """``cmd``, then ``cmd`` with one glob at a time put as each guarded path it may match loosely (``loose``:
    :func:`looseness` of the line; an extglob pattern is loose on any line)."""
    yield cmd
    targets = [*cmd.words, *(t for _, t in cmd.redirects)]
    if not any(_is_pattern(t, loose) for t in targets):
        return
    for word in dict.fromkeys(t for t in targets if _is_pattern(t, loose)):
        for match in _reached(word, here, dots=loose > 1):
            yield replace(cmd, words=tuple(match if w == word else w for w in cmd.words),
                          redirects=tuple((op, match if t == word else t) for op, t in cmd.redirects))


def _is_pattern(word: str, loose: int) -> bool:
    return ("(" in word and re.search(EXTGLOB, word) is not None) or (loose > 0 and bool(GLOB_CHARS & set(word)))


def _reached(word: str, here: Where, dots: bool) -> list[str]:
    """The guarded paths (absolute) a pattern may match from ``here``, its task folder's name as written."""
    pattern = posixpath.normpath(posixpath.join(here.cwd, word))
    regex = re.compile(_loose_regex(pattern, dots), re.IGNORECASE)
    parts = pattern.split("/")
    out = []
    for sample in KEPT:
        names = posixpath.join(here.root, sample).split("/")
        if "TASK" in names and names.index("TASK") < len(parts) and not _is_pattern(parts[names.index("TASK")], 1):
            names[names.index("TASK")] = parts[names.index("TASK")]  # the task the pattern names
        if regex.fullmatch("/".join(names)):
            out.append("/".join(names))
    return out


def _loose_regex(pattern: str, dots: bool) -> str:
    """A glob as a regular expression that matches whatever it may match under the glob options (a leading dot
    only by a dot, unless ``dots``)."""
    out: list[str] = []
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if not dots and c in "?*+@![" and pattern[i - 1:i] == "/":
            out.append(r"(?!\.)")
        if c in "?*+@!" and pattern[i + 1:i + 2] == "(":  # extglob: anything within one folder
            depth, j = 0, i + 1
            while j < len(pattern):
                depth += {"(": 1, ")": -1}.get(pattern[j], 0)
                if depth == 0:
                    break
                j += 1
            out.append("[^/]*")
            i = j + 1
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif c in "*?[":
            close = pattern.find("]", i + 2) if c == "[" else i
            out.append("[^/]*" if c == "*" else "[^/]")
            i = (close if close > 0 else i) + 1
        else:
            out.append(re.escape(c))
            i += 1
    return "".join(out)
