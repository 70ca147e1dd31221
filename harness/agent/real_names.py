"""Path words spelled by their real paths, where a symlink leads them into the record.

The judge reads words: `echo x >> h/tasks/T/events.jsonl` names no guarded file when `h` is a symlink to
`.harness`, nor `g/hooks/pre-commit` when `g` is one to `.git` (#28's task F-0038, F-0040). Making such a
link is refused, but one may exist already (a human's, an older guard's). This adapter looks on disk for
the judge (harness/agent/judge/bypass.py, whose rules stay pure): a word, or the value glued to an option
in it, whose real path lies in the repository's `.harness/` or `.git/` and is not its written path, is
spelled by the real one: written inside `.git/` too (`.git/x -> ../.harness`; read 42's F-0047). The judge asks it of each command's words as it expanded them, so `$(echo h)/x`
and `d=h; $d/x` are followed as `h/x` is (#28's task F-0050). Only os: it runs for every judged shell command.

It also tells the judge whether a path is a symbolic link, or a folder holding one (:func:`holds_links`): a copy
that keeps links as links (`cp -a`, `mv`) on a line that runs more is refused when its source holds one, and a
find that runs a program on what it finds is judged as following the links under its start (read 43's A and B).
The walk is bounded: past its bound, or where a folder cannot be read, a link is taken to be there.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from harness import paths

GUARDED = (paths.HARNESS, ".git")
MAX_WALKED = 20000  # the entries :func:`holds_links` looks at under a folder (.git's not); past it, a link may be there
MAX_MATCHES = 64   # the paths a glob in a word may name that it looks at; past it, one may be a link
GLOB_CHARS = "*?["
MAX_FOLLOWED = 4096  # the paths a glob word's expansion looks at to follow each through a link
MAX_MOVED = 100000  # the entries and glob matches the links a copy keeps are looked for in, for all its sources


def follower(root: str) -> Callable[[str, str], str | None]:
    """The judge's ``real_name(word, cwd)`` for the repository at ``root``: the word with its path spelled
    by its real one relative to ``cwd`` when a symlink leads it into ``root``'s `.harness/` or `.git/`, else
    None. A word without a `/` counts too: `cd h && echo x >> tasks/T/events.jsonl` goes through `h`."""
    real_root = os.path.realpath(root)
    guarded = [os.path.join(real_root, name) for name in GUARDED]

    def real_name(word: str, cwd: str) -> str | None:
        return _through_a_link(word, cwd, guarded)

    return real_name


def _through_a_link(word: str, cwd: str, guarded: list[str]) -> str | None:
    """``word``'s real path when a symlink leads it into a guarded folder by another path: from outside, from
    inside `.git/` or the record (read 42's F-0047: the judge reads a word by its text alone), or from the
    clone's untracked state (`.harness/local/`, which the judge leaves alone but for its cache of valid documents)
    into the rest of it (#27's task F-0038) or to that cache (`.harness/local/v -> valid`: F-0045); the word
    whole, or its value after an option glued to it (`--out=h/x`, `of=h/x`, `-oh/x`; #28's task F-0042)."""
    cuts = [0]
    if "=" in word:
        cuts.append(word.index("=") + 1)
    if word[:1] == "-" and word[1:2] != "-" and len(word) > 2:
        cuts.append(2)
    for cut in cuts:
        value = word[cut:]
        if not value or "\0" in value:
            continue
        path = os.path.join(cwd, value)
        # A glob standing where a link's name is (`t*/T/events.jsonl` through `tk -> ../tasks`) has no real path
        # of its own: each path it matches is followed (F-0061); one too wide to expand inside the repository may
        # lead anywhere in it, and is spelled as the record (F-0065).
        matches = _matches(path, MAX_FOLLOWED) if any(c in value for c in GLOB_CHARS) else [path]
        if matches is None:
            fixed, root = _fixed_part(path), os.path.dirname(guarded[0])
            if _inside(fixed, [root]) or _inside(root, [fixed.rstrip("/") or "/"]) or fixed == "/":
                return word[:cut] + os.path.relpath(guarded[0], cwd)
            continue
        for match in matches:
            written = os.path.normpath(match)
            real = os.path.realpath(match)  # `l/..` physically: the parent of l's target
            if real != written and _inside(real, guarded):
                return word[:cut] + os.path.relpath(real, cwd)
    return None


def _inside(path: str, folders: list[str]) -> bool:
    return any(path == f or path.startswith(f + "/") for f in folders)


class Links:
    """The judge's view of the symbolic links on disk in the repository at ``root``: whether a path may lead
    into it (``links(word, cwd, walk)``, :func:`holds_links`), and the relative links a copy of it would move
    (:meth:`moved`)."""

    def __init__(self, root: str) -> None:
        real_root = os.path.realpath(root)
        self.guarded = [os.path.join(real_root, name) for name in GUARDED]
        self.budget = [MAX_MOVED]  # what :meth:`moved` may still look at, for every copy of the line judged

    def __call__(self, word: str, cwd: str, walk: bool) -> bool:
        return holds_links(word, cwd, walk, self.guarded)

    def moved(self, word: str, cwd: str, walk: bool) -> list[tuple[str, str]] | None:
        return moved_links(word, cwd, walk, self.budget)

    def folder(self, path: str, cwd: str) -> bool:
        """Whether ``path`` (from ``cwd``) is a folder now, through links (where a copy puts what it copies)."""
        return os.path.isdir(os.path.join(cwd, os.path.expanduser(path)))

    def real(self, path: str, cwd: str) -> str:
        """``path`` (from ``cwd``) as the kernel walks it: its links followed, `..` taken from where they lead."""
        return os.path.realpath(os.path.join(cwd, os.path.expanduser(path)))


def link_lookup(root: str) -> Links:
    """The judge's link lookups for the repository at ``root``."""
    return Links(root)


def moved_links(word: str, cwd: str, walk: bool, budget: list[int]) -> list[tuple[str, str]] | None:
    """The relative links a copy that keeps links as links (`cp -P`, `mv`) takes from what ``word`` names to a new
    place, where they may lead elsewhere: (the link's path from the folder holding the copied path, its text), for
    the path itself when it is such a link and (``walk``) each link under it — `.git` folders too (read 49) —
    whose text may leave it (:func:`_may_leave`). An absolute one leads where it did. None when that is not known:
    more entries (and glob matches) than ``budget`` holds (shared by a command's sources: read 49), a folder it
    cannot read, or a text whose `..` follows a name (`s/../x`: where it leads depends on `s`, which may be a
    link copied beside it; read 49)."""
    path = os.path.join(cwd, os.path.expanduser(word))
    found = _matches(path, budget[0]) if any(c in word for c in GLOB_CHARS) else [path]
    if found is None:
        return None
    budget[0] -= len(found)
    out = []
    for p in (f.rstrip("/") or "/" for f in found):
        if os.path.islink(p):
            text = _link_text(p)
            if text is None or _climbs_after_a_name(text):
                return None
            if not os.path.isabs(text):
                out.append((os.path.basename(p), text))
        elif walk and os.path.isdir(p):
            under = _leaving_links(p, budget)
            if under is None:
                return None
            out += [(os.path.relpath(link, os.path.dirname(p)), text) for link, text in under]
    return out


def _link_text(path: str) -> str | None:
    try:
        return os.readlink(path)
    except OSError:
        return None


def _climbs_after_a_name(text: str) -> bool:
    names = [n for n in text.split("/") if n not in ("", ".")]
    return any(n == ".." for n in names[next((i for i, n in enumerate(names) if n != ".."), len(names)):])


def _may_leave(text: str, depth: int) -> bool:
    """Whether a relative link ``depth`` folders below a copied folder's top may lead out of it: its `..`s climb
    above the top at some step. Judged step by step, not on the normalised path: `../.harness/a` from inside
    a folder named `.harness` stays inside only by that name, which a copy renames (read 49)."""
    for name in text.split("/"):
        if name == "..":
            depth -= 1
            if depth < 0:
                return True
        elif name not in ("", "."):
            depth += 1
    return False


def _leaving_links(folder: str, budget: list[int]) -> list[tuple[str, str]] | None:
    """The links under ``folder`` (not through links) whose relative text may leave it, with their texts; None
    past the ``budget`` of entries, at a folder that cannot be read, or at a text :func:`_climbs_after_a_name`."""
    top = os.path.normpath(folder)
    todo, out = [folder], []
    while todo:
        current = todo.pop()
        depth = 0 if current == folder else os.path.relpath(current, top).count("/") + 1
        try:
            with os.scandir(current) as entries:
                for entry in entries:
                    budget[0] -= 1
                    if budget[0] < 0:
                        return None
                    if entry.is_symlink():
                        text = _link_text(entry.path)
                        if text is None or _climbs_after_a_name(text):
                            return None
                        if not os.path.isabs(text) and _may_leave(text, depth):
                            out.append((entry.path, text))
                    elif entry.is_dir(follow_symlinks=False):
                        todo.append(entry.path)
        except OSError:
            return None
    return out


def holds_links(word: str, cwd: str, walk: bool, guarded: list[str], bound: int = MAX_WALKED) -> bool:
    """Whether the path ``word`` names from ``cwd`` is a symbolic link that may lead into a ``guarded`` folder, or
    (``walk``) a folder with one under it (not followed: an entry is looked at as itself; `.git` folders are not
    walked); each path a glob in it matches. True when that is not known (more entries than ``bound``, more matches
    than :data:`MAX_MATCHES`, a folder that cannot be read); False for a path that is not there. Only such links
    count (F-0060): a venv's `lib64 -> lib` leads nowhere a copy or a find's program could harm the record."""
    path = os.path.join(cwd, os.path.expanduser(word))
    found = _matches(path) if any(c in word for c in GLOB_CHARS) else [path]
    if found is None:
        return True
    return any(_leads_in(p.rstrip("/") or "/", os.path.dirname(p.rstrip("/")), guarded)
               or (walk and _walked_to_a_link(p, guarded, bound)) for p in found)


def _leads_in(path: str, top: str, guarded: list[str]) -> bool:
    """Whether ``path`` is a link that may lead into a guarded folder: its real path is in one or holds one (a
    link to the top), or, relative, it climbs out of ``top``, the folder copied with it: where it leads then
    depends on where the copy lands."""
    if not os.path.islink(path):
        return False
    real = os.path.realpath(path)
    if any(real == g or real.startswith(g + "/") or g.startswith(real.rstrip("/") + "/") for g in guarded):
        return True
    try:
        target = os.readlink(path)
    except OSError:
        return True
    lands = os.path.normpath(os.path.join(os.path.dirname(path), target))
    return not os.path.isabs(target) and not (lands == top or lands.startswith(top.rstrip("/") + "/"))


def _walked_to_a_link(folder: str, guarded: list[str], bound: int) -> bool:
    """Whether a walk of ``folder`` (not through links, not into `.git`) meets a link that may lead into a guarded
    folder (:func:`_leads_in`, ``folder`` its top), or more than ``bound`` entries, or a folder it cannot read.
    False for a path that is no folder."""
    if not os.path.isdir(folder):
        return False
    top = os.path.normpath(folder)
    todo, seen = [folder], 0
    while todo:
        try:
            with os.scandir(todo.pop()) as entries:
                for entry in entries:
                    seen += 1
                    if seen > bound or (entry.is_symlink() and _leads_in(entry.path, top, guarded)):
                        return True
                    if entry.is_dir(follow_symlinks=False) and entry.name != ".git":
                        todo.append(entry.path)
        except OSError:
            return True
    return False


def _fixed_part(path: str) -> str:
    """``path`` up to its first name that holds a glob."""
    names = path.split("/")
    return "/".join(names[:next((i for i, n in enumerate(names) if any(c in n for c in GLOB_CHARS)), len(names))]) or "/"


def _matches(path: str, limit: int = 0) -> list[str] | None:
    """The paths a glob ``path`` matches (a name with `*`, `?` or `[` in any folder of it; a dotted name too, which
    bash leaves out: erring towards more), or None when there are more than ``limit`` (:data:`MAX_MATCHES`)."""
    from fnmatch import fnmatchcase

    found = ["/"]
    for name in path.split("/")[1:]:
        if not name:
            continue
        if not any(c in name for c in GLOB_CHARS):
            found = [os.path.join(f, name) for f in found]
            continue
        expanded = []
        for folder in found:
            try:
                expanded += [os.path.join(folder, n) for n in os.listdir(folder) if fnmatchcase(n, name)]
            except OSError:
                continue
        if len(expanded) > (limit or MAX_MATCHES):
            return None
        found = expanded
    return found
