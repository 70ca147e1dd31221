"""A command's words spelled by the real paths symlinks lead them to, each from the folder its program reads it in.

Pure: what a path is on disk comes from the caller's ``real_name(word, folder)`` (harness/agent/real_names.py),
the spelling of ``word`` relative to ``folder`` when a symlink leads it into `.harness/` or `.git/`, else None.
Most words are read from the folder the command runs in. git reads its operands from the folder its `-C`s lead to,
each `-C` from the one before it: `git -C .harness/local -C up …` with `up -> ..` works in `.harness/`, and
`git -C r checkout REV -- .harness/…` with `r -> .` writes the record (read 42's F-0039, F-0040). rm and unlink
remove a link itself, not what it leads to: their operands are followed but for their last name (F-0046).
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable

from harness.agent.judge.bypass_files import destination
from harness.agent.judge.bypass_git import GIT_GLOBAL_WITH_VALUE
from harness.agent.judge.shell_commands import SimpleCommand
from harness.core.value_class import replace

RealName = Callable[[str, str], "str | None"]


# Programs whose operands name directory entries, a link among them taken as itself (rmdir fails on one).
REMOVERS = frozenset({"rm", "unlink", "rmdir"})


def by_real_names(cmd: SimpleCommand, cwd: str, real_name: RealName, alone: bool = False) -> SimpleCommand | None:
    """``cmd`` with every word, redirect target and assigned value a symlink leads into the record or git's
    folder spelled by its real path; None when none does (it is judged besides as written, never instead).
    ``alone``: the command is the whole line (a link it renames is used by nothing after it)."""
    def real(word: str) -> str:
        return real_name(word, cwd) or word

    if cmd.program == "git":
        words = _git_words(cmd.words, cwd, real_name)
    elif cmd.program in REMOVERS or (cmd.program == "mv" and alone):
        words = _removed_words(cmd, cwd, real_name)
    else:
        words = tuple(real(w) for w in cmd.words)
    found = replace(cmd, words=words, assignments=tuple(real(a) for a in cmd.assignments),
                    redirects=tuple((op, real(t)) for op, t in cmd.redirects))
    return None if found == cmd else found


def _git_words(words: tuple[str, ...], cwd: str, real_name: RealName) -> tuple[str, ...]:
    """git's words, each `-C` (and any value of git's own options) followed from the folder the `-C`s before it
    lead to, and the subcommand's words from the last one. The judge reads the `-C`s the same way, by their text
    (bypass_git._global_options), so a `-C` respelled here leads it to the real folder."""
    out, folder, i = list(words[:1]), cwd, 1
    while i < len(words) and words[i].startswith("-"):
        opt, eq, _ = words[i].partition("=")
        glued = bool(eq)
        spelled = (real_name(words[i], folder) or words[i]) if glued else words[i]
        out.append(spelled)
        if opt in GIT_GLOBAL_WITH_VALUE and not glued and i + 1 < len(words):
            i += 1
            spelled = real_name(words[i], folder) or words[i]
            out.append(spelled)
        if opt == "-C":
            folder = posixpath.normpath(posixpath.join(folder, spelled.partition("=")[2] if glued else spelled))
        i += 1
    return tuple(out + [real_name(w, folder) or w for w in words[i:]])


def _removed_words(cmd: SimpleCommand, cwd: str, real_name: RealName) -> tuple[str, ...]:
    """rm's, unlink's and rmdir's words, and mv's when it is the line's one command: each name it removes (mv's
    sources) followed but for its last name, the rest whole. Removing `.harness/local/t -> ../tasks` removes the
    link (read 42's F-0046); a rename on a line that goes on is followed whole, since the guard cannot follow the
    new name, which does not exist yet when it reads the line (`mv LINK x && echo >> x/…`)."""
    target, sources = destination(list(cmd.words[1:]), "mv") if cmd.program == "mv" else (None, [])
    out, options = list(cmd.words[:1]), True
    for word in cmd.words[1:]:
        removed = (word in sources and word != target) if cmd.program == "mv" else not (options and word[:1] == "-")
        out.append(_own_name(word, cwd, real_name) if removed else real_name(word, cwd) or word)
        options = options and word != "--"
    return tuple(out)


def _own_name(word: str, cwd: str, real_name: RealName) -> str:
    """``word`` with its folder spelled by its real path and its last name as written: the entry itself, a link
    too. A trailing `/`, `.` or `..` leads into what the entry is (`rm -r link/`): followed whole."""
    head, slash, tail = word.rpartition("/")
    if tail in ("", ".", ".."):
        return real_name(word, cwd) or word
    folder = (head or "/") if slash else "."
    real = real_name(folder, cwd)
    return word if real is None else real.rstrip("/") + "/" + tail
