"""A symbolic link copied AS a link on a line that runs more: refused, as one made there is (line_links.py).

Pure: whether a path is a link, or a folder holding one, comes from the caller's ``links(word, folder, walk)``
(harness/agent/real_names.holds_links). `cp -a`, `-P`, `-d`, `-R` (a link named on its command line too, unless
`-L` or `-H`), `mv`, a hard `ln` and `rsync -l`/`-a` copy a link as a link, and the links inside a folder they copy
whole. The copy's new name does not exist when the guard reads the line, so a path through it later on the line is
judged by its text while the kernel follows it: `cp -a .harness/local/abs a && echo x >> a/tasks/T/events.jsonl`
with `abs -> $PWD/.harness` writes the ledger; a relative link copied or moved elsewhere leads elsewhere (read 43's
A). A copy of no link (looked at on disk: `cp -r src build && pytest` stays allowed), or one that follows links
(plain `cp FILE`, `cp -L`), is judged as before; so is a copy on a line of its own, whose copy is on disk when the
next line is judged and followed then. A source the guard cannot see (`$SRC`, an xargs's unseen input) may be a
link.

A find without `-L` does not follow the links under its start, but the program it runs on what it finds (`-exec`,
`-execdir`, `-ok`, xargs) is handed them and does: `find .harness/local -name x -exec truncate -s0 {} +` with
`x -> ../tasks/T/events.jsonl` empties the ledger (read 43's B). Such a run is judged as one of a find that follows
links (:func:`found_through_links`), which may reach any guarded file (shell_folders.found_files); `-delete`
removes the link itself and is judged as written.
"""

from __future__ import annotations

import posixpath

from harness.agent.judge.bypass_files import destination, operands
from harness.agent.judge.denials import Denial
from harness.agent.judge.line_links import makes_symlink
from harness.agent.judge.shell_commands import SimpleCommand
from harness.agent.judge.shell_prefixes import XARGS_INPUT
from harness.core.value_class import replace

TYPE_CHECKING = False  # typing's, without importing typing on a hot path (tests/test_layering.py)
if TYPE_CHECKING:
    from typing import Protocol

    class LinkLookup(Protocol):
        """What the judge asks the disk about links (harness/agent/real_names.Links)."""

        def __call__(self, word: str, cwd: str, walk: bool) -> bool: ...

        def moved(self, word: str, cwd: str, walk: bool) -> list[tuple[str, str]] | None: ...

        def real(self, path: str, cwd: str) -> str: ...

        def folder(self, path: str, cwd: str) -> bool: ...

# Short options that take a value, by program (getopt gives it the rest of the word).
VALUED = {"cp": "St", "mv": "St", "ln": "St", "link": "", "rsync": "eBfTM"}
# cp's options that decide how it treats a link: follow all (L), none (P: -P, -d, -a), the command line's (H).
CP_LONG = {"--dereference": "L", "--no-dereference": "P", "--archive": "a", "--recursive": "r"}
RSYNC_LONG = {"--links": "l", "--archive": "a", "--recursive": "r", "--copy-links": "L", "--no-links": "!",
              "--no-l": "!"}


def link_copied_with_more(cmd: SimpleCommand, line: tuple[SimpleCommand, ...], cwd: str,
                          links: LinkLookup) -> Denial | None:
    """The denial of ``cmd`` (run in ``cwd``, one of ``line``'s commands) when it copies a link as a link, or a
    folder holding one, and the line runs more than it (and the find or xargs that hands it its sources)."""
    walk = _copies_links(cmd)
    if walk is None:
        return None
    feeders = {c.found_by for c in line if c.words == cmd.words and c.found_by}
    # Counted, not compared by words: a second copy with the very same words runs more (F-0063), and copies into
    # the link the first one made.
    if len(line) - 1 - sum(1 for c in line if c.words in feeders) <= 0:
        return None
    shown = any(c.xargs_items is not None for c in line)
    remote = cmd.program == "rsync"
    if not any(_may_be_a_link(s, cwd, walk, links, feeders, shown, remote) for s in _sources(cmd)):
        return None
    return Denial("link", f"`{' '.join(cmd.words)}` copies a symbolic link as a link (or a folder holding one) on a "
                  "line that runs more: the guard reads the line before the copy exists, so a path through it is "
                  "judged by its text, not where it leads",
                  "copy it with a command of its own (or follow the links: `cp -rL`), then run the rest: a later "
                  "line's paths through the copy are followed")


def links_a_copy_moves(cmd: SimpleCommand, cwd: str, links: LinkLookup) -> list[tuple[str, str]] | None:
    """(text, new real path) of each relative link ``cmd`` (run in ``cwd``) copies or moves as a link into another
    folder, where it may lead elsewhere than it did (F-0064: `ln -s ../tasks .harness/local/a/tk`, then `cp -P
    .harness/local/a/tk .harness/local/tk` puts a link to the record one folder up). Each is given where the copy
    lands: inside the destination when it is a folder, as it otherwise; under the source's own path with
    `cp --parents` or `rsync -R` (read 49). Folders are compared and judged by their real paths, as the kernel
    walks them (F-0070, F-0071); a copy that lands in its source's own folder moves no link's meaning and is not
    looked into (read 49: renaming node_modules). None when the links a source holds are not known (F-0072).
    `$PWD` is read as ``cwd``; a source with another variable (`$SRC`) or a find's `{}` is left to the rule of
    lines that run more."""
    walk = _copies_links(cmd)
    if walk is None:
        return []
    args = [w.replace("${PWD}", cwd).replace("$PWD", cwd) for w in cmd.words[1:]]
    target, sources = destination(args, cmd.program)
    if target is None:
        return []
    into = links.folder(target, cwd) and not _no_target_folder(args, cmd.program)
    deep = _keeps_parents(args, cmd.program)
    out: list[tuple[str, str]] = []
    for source in sources:
        if "{}" in source or XARGS_INPUT in source or "$" in source or "`" in source:
            continue
        held = posixpath.dirname(source.rstrip("/")) or "."
        landing = posixpath.join(target, held) if deep else target if into else posixpath.dirname(target) or "."
        if not deep and links.real(landing, cwd) == links.real(held, cwd):
            continue
        moved = links.moved(source, cwd, walk)
        if moved is None:
            return None
        for rel, text in moved:
            inner = rel.partition("/")[2]
            new = posixpath.join(landing, rel) if deep or into else posixpath.join(target, inner) if inner else target
            place = links.real(posixpath.dirname(new) or ".", cwd)
            if place != links.real(posixpath.join(held, posixpath.dirname(rel)), cwd):
                out.append((text, posixpath.join(place, posixpath.basename(new))))
    return out


def _no_target_folder(args: list[str], prog: str) -> bool:
    """`-T`/`--no-target-directory` (or a prefix getopt takes): the destination is the copy's name, folder or not."""
    from harness.agent.judge.copier_options import long_option

    opts = args[:args.index("--")] if "--" in args else args
    return prog != "rsync" and any((a[:2] == "--" and long_option(a, prog)[0] == "no-target-directory")
                                   or (a[:1] == "-" and a[1:2] != "-" and "T" in a) for a in opts)


def _keeps_parents(args: list[str], prog: str) -> bool:
    """`cp --parents`, `rsync -R`/`--relative`: the source's own path is made again under the destination."""
    from harness.agent.judge.copier_options import long_option

    opts = args[:args.index("--")] if "--" in args else args
    if prog == "rsync":
        return any(a == "--relative" or (a[:1] == "-" and a[1:2] != "-" and "R" in a) for a in opts)
    return prog == "cp" and any(a[:2] == "--" and long_option(a, "cp")[0] == "parents" for a in opts)


def found_through_links(cmd: SimpleCommand, cwd: str, links: LinkLookup) -> SimpleCommand:
    """``cmd``, a program a find (or an xargs fed by one) runs on what it finds, as run by a find that follows links
    (`-L`) when a start folder of it (from ``cwd``) is a link or holds one; else ``cmd`` itself."""
    if not cmd.found_by or "-L" in cmd.found_by[1:] or "-follow" in cmd.found_by[1:]:
        return cmd
    from harness.agent.judge.shell_folders import find_starts

    if not any(s is None or links(s, cwd, True) for s in find_starts(cmd.found_by)):
        return cmd
    return replace(cmd, found_by=(cmd.found_by[0], "-L", *cmd.found_by[1:]))


def _copies_links(cmd: SimpleCommand) -> bool | None:
    """None when ``cmd`` copies no link as a link; else whether it copies folders whole (their links too)."""
    flags = _flags(cmd)
    if cmd.program == "cp" and not makes_symlink(cmd):  # (a link cp -s makes is line_links')
        recursive = bool({"r", "R", "a"} & set(flags))
        deref = next((f for f in reversed(flags) if f in "LPHda"), "")  # the last one counts
        if deref in ("L", "H"):  # -H follows the command line's links, not those under a folder it copies
            return True if recursive and deref == "H" else None
        return recursive if deref or recursive else None  # -R alone keeps a command-line link too (GNU)
    if cmd.program == "mv":
        return True
    if cmd.program in ("ln", "link") and not makes_symlink(cmd):
        return None if "L" in flags else False  # a hard link to a link is one more link
    if cmd.program == "rsync":
        keeps = next((f for f in reversed(flags) if f in "laL!"), "") in "la"
        return bool({"r", "a"} & set(flags)) if keeps and any(f in "la" for f in flags) else None
    return None


def _flags(cmd: SimpleCommand) -> str:
    """The option letters of ``cmd`` in order (a long option as the letter it stands for), to its first `--`."""
    valued = VALUED.get(cmd.program, "")
    long = RSYNC_LONG if cmd.program == "rsync" else CP_LONG
    out = []
    for word in cmd.words[1:]:
        if word == "--":
            break
        if word.startswith("--"):
            out.append(_long_letter(word.partition("=")[0], long))
        elif word[:1] == "-":
            letters = word[1:]
            out.append(letters[:next((j for j, c in enumerate(letters) if c in valued), len(letters))])
    return "".join(out)


def _long_letter(name: str, long: dict[str, str]) -> str:
    """The letter a long option stands for, spelled whole or by a prefix getopt takes (`--arch`: F-0062); a prefix
    of several of ``long``'s options that stand for one letter counts as it (getopt may call it ambiguous and copy
    nothing: erring towards the copy)."""
    if name in long:
        return long[name]
    letters = {letter for option, letter in long.items() if len(name) > 3 and option.startswith(name)}
    return letters.pop() if len(letters) == 1 else ""


def _sources(cmd: SimpleCommand) -> list[str]:
    """What ``cmd`` copies: its operands but the one it copies to; ln's one operand (`ln FILE` links it here)."""
    args = list(cmd.words[1:])
    target, sources = destination(args, cmd.program)
    if target is None and cmd.program in ("ln", "link"):
        return operands(args, cmd.program)[:1]
    return sources


def _may_be_a_link(source: str, cwd: str, walk: bool, links: LinkLookup, feeders: set[tuple[str, ...]],
                   shown: bool, remote: bool) -> bool:
    """Whether ``source`` may be a link or hold one: a find's `{}` may be anything under its start folders, an
    xargs's input anything unless the line shows it (each item then judged as a word), a word the guard could not
    expand or a remote rsync source anything."""
    if "{}" in source or XARGS_INPUT in source:
        if feeders:
            from harness.agent.judge.shell_folders import find_starts

            return any(s is None or links(s, cwd, True) for f in feeders for s in find_starts(f))
        return not shown
    if "$" in source or "`" in source or (remote and ":" in source):
        return True
    return links(source, cwd, walk)
