"""A git folder's listing (a tree object's bytes) read as git reads it: the one reader of an entry's kind.

The gate (through libgit2) and status and recordings (through `git cat-file`) read a commit's `.harness/`
files; where the two parsers of a listing differ, they read two different policies in one commit (read
119: a link whose mode has permission bits is a link to git and an executable file to libgit2; a name
listed twice or out of order is found by one lookup and missed by the other; a mode libgit2 cannot parse
made the gate die). Both now take a listing from here. A listing that breaks a lookup by name (a name
twice, entries out of order, an entry cut short, a mode libgit2 cannot parse) is refused whole; an entry
whose mode the two parsers read differently (120755) is refused where a reader reaches it, not for the
listing around it (read 121: a root's odd link, which the harness never reads, blocked every commit and
ref move on it). Plain code and no imports: the hooks' fast path loads it.
"""

from harness import paths
from harness.errors import HarnessError

TYPE_CHECKING = False  # typing's, without importing typing on a hot path (tests/test_layering.py)
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

LISTING_CAP = 64 * 1024 * 1024  # a folder listing more than this (over a million entries) is refused unread
FILE, FOLDER, SYMLINK, SUBMODULE = "file", "folder", "symlink", "submodule"
AMBIGUOUS = "ambiguous"  # a mode git and libgit2 both parse and read as different kinds: no reader goes past it
_TYPES = {0o100000: FILE, 0o040000: FOLDER, 0o120000: SYMLINK, 0o160000: SUBMODULE}
_ENTRY_MODE = {FOLDER: 0o040000, SYMLINK: 0o120000, SUBMODULE: 0o160000}


class Entry:
    """One entry of a listing: its kind, its object's id (hex) and its mode as git reads it."""

    __slots__ = ("kind", "mode", "oid")

    def __init__(self, kind: str, oid: str, mode: int) -> None:
        self.kind, self.oid, self.mode = kind, oid, mode

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Entry) and (self.kind, self.oid, self.mode) == (other.kind, other.oid, other.mode)

    def __hash__(self) -> int:
        return hash((self.kind, self.oid, self.mode))

    def __repr__(self) -> str:
        return f"Entry({self.kind!r}, {self.oid!r}, {self.mode:o})"


def kind_of(mode: bytes) -> tuple[str, int] | None:
    """(kind, git's canonical mode) of a listing's mode field, where git (canon_mode: the type bits) and libgit2
    (an executable bit makes any non-folder an executable file) read the same kind; None where they do not, or
    where either cannot parse it: not octal digits, over 16 bits (libgit2 cannot; git reads 100160000 as a
    submodule's), a type neither writes (git takes it for a submodule's, libgit2 for a file), an executable bit
    on a link or a submodule's entry (120755: a link to git, an executable file to libgit2). Leading zeros and
    a folder's or a file's permission bits are read by value, as both do (0100644, 100664, 40755)."""
    if not mode or len(mode) > 7 or not all(0x30 <= c <= 0x37 for c in mode):
        return None
    value = int(mode, 8)
    kind = _TYPES.get(value & 0o170000)
    if kind is None or value > 0o177777:
        return None
    if kind == FILE:  # git's permissions: executable or not, by the owner's x bit
        return kind, 0o100755 if value & 0o100 else 0o100644
    if kind == FOLDER:
        return kind, 0o040000
    return (kind, _ENTRY_MODE[kind]) if not value & 0o111 else None


class ListingRefused(HarnessError):
    """A listing the harness does not read: ``where`` (the folder, as the reader names it) lists ``defects``."""

    def __init__(self, where: str, defects: list[str]) -> None:
        super().__init__(f"{where}: {'; '.join(defects)}: refused (git's `add` and `commit` never write such a "
                         "folder; it was made with `git mktree` or `git hash-object --literally`)")
        self.where, self.defects = where, defects


def parse(raw: bytes, oid_len: int, where: str) -> dict[str, Entry]:
    """name -> :class:`Entry` of a tree object's bytes (entries ``<mode> <name>\\0<id, oid_len bytes>``);
    ``where`` names the folder in a refusal. Raises :class:`ListingRefused` for a listing the harness does
    not read: one git cannot parse, a mode the two parsers read differently, what git's fsck rejects."""
    out: dict[str, Entry] = {}
    names: list[tuple[bytes, bool]] = []
    modes: dict[bytes, tuple[str, int] | None] = {}  # a listing spells few modes: each is judged once
    at, end, find = 0, len(raw), raw.find
    while at < end:
        space, nul = find(b" ", at), find(b"\0", at)
        if space < 0 or nul < space or nul + 1 + oid_len > end:
            raise ListingRefused(where, ["an entry git cannot parse (cut short, or no mode)"])
        mode, name = raw[at:space], raw[space + 1:nul]
        read = modes[mode] if mode in modes else modes.setdefault(mode, kind_of(mode) or _ambiguous(mode))
        if read is None:  # libgit2 cannot parse the listing at all (the gate died on it): nothing of it is read
            raise ListingRefused(where, [f"the entry {name.decode('utf-8', 'replace')!r} has mode "
                                         f"{mode.decode('ascii', 'replace')!r}, which git and libgit2 do not read "
                                         "alike (libgit2 cannot parse it)"])
        names.append((name, read[1] & 0o170000 == 0o040000))  # git orders by the type bits (40755 too: F-0441)
        out[name.decode("utf-8", "surrogateescape")] = Entry(read[0], raw[nul + 1:nul + 1 + oid_len].hex(), read[1])
        at = nul + 1 + oid_len
    defects = entry_defects(names)
    if defects:
        raise ListingRefused(where, defects)
    return out


def _ambiguous(mode: bytes) -> tuple[str, int] | None:
    """(AMBIGUOUS, its value) for a mode both parsers parse (octal, 16 bits at most) but read as different kinds;
    None for one libgit2 cannot parse."""
    if not mode or len(mode) > 7 or not all(0x30 <= c <= 0x37 for c in mode) or int(mode, 8) > 0o177777:
        return None
    return AMBIGUOUS, int(mode, 8)


def ambiguity(name: str, entry: Entry) -> str:
    """Why the reader stops at ``entry``, an AMBIGUOUS one."""
    return f"the entry {name!r} has mode {entry.mode:o}, which git and libgit2 do not read alike"


def reached(name: str, entry: Entry | None, folder: str, label: str = "") -> Entry | None:
    """``entry`` (``name`` in ``folder``, of the commit ``label``) as a reader that reaches it gets it: the one
    refusal of an AMBIGUOUS entry, which no reader goes past (:class:`ListingRefused`)."""
    if entry is not None and entry.kind == AMBIGUOUS:
        raise ListingRefused(where_of(folder, label), [ambiguity(name, entry)])
    return entry


def entry_defects(entries: "Iterable[tuple[bytes, bool]]") -> list[str]:
    """The fsck errors of one folder's own entries, given as (raw name, is a folder) in stored order: the one
    judgement of a listing, for the readers (:func:`parse`), the history checks and the push's fast path."""
    out: list[str] = []
    seen: set[bytes] = set()
    previous: bytes | None = None
    harness = paths.HARNESS.encode()
    for name, is_tree in entries:
        shown = name.decode("utf-8", "replace")
        if name in seen:
            out.append(f"the entry {shown!r} appears more than once (git fsck: duplicateEntries)")
        elif name in (b"", b".", b"..") or b"/" in name or name.lower() == b".git":
            out.append(f"the entry name {shown!r} is not one git can check out")
        elif name.lower() == harness and name != harness:
            # A case-insensitive checkout (macOS, Windows) makes it one folder with .harness/: records no
            # check read (#27's task F-0017).
            out.append(f"the entry name {shown!r} is {paths.HARNESS} in another case")
        # git orders a folder as if its name ended in "/" (so `a-b` sorts before the folder `a`).
        key = name + (b"/" if is_tree else b"")
        if previous is not None and key <= previous and name not in seen:
            out.append(f"the entry {shown!r} is out of git's order (git fsck: treeNotSorted)")
        seen.add(name)
        previous = key
    return out


def lookup(listing_of: "Callable[[str, str], dict[str, Entry] | None]", root: str, rel: str,
           label: str = "") -> Entry | None:
    """The entry at ``rel`` (names joined by "/") under the folder ``root`` (an id), each folder on the way read
    with ``listing_of(id, its path)`` (None: that object is no folder). None where nothing is at ``rel``."""
    entry: Entry | None = Entry(FOLDER, root, 0o040000)
    walked = ""
    for name in rel.split("/") if rel else ():
        if entry is None or entry.kind != FOLDER:
            return None
        listing = listing_of(entry.oid, walked)
        entry = reached(name, listing.get(name) if listing is not None else None, walked, label)
        walked = f"{walked}/{name}" if walked else name
    return entry


def where_of(path: str, label: str = "") -> str:
    """A folder as a refusal names it: its path (or the root folder) and the commit it is in."""
    return f"{path or 'the root folder'} in {label}" if label else path or "the root folder"


def changes(listing_of: "Callable[[str, str], dict[str, Entry] | None]", old: str | None, new: str | None,
            base: str = "", label: str = "", under: str = "") -> list[tuple[str, int]]:
    """(path under ``base``, its mode in ``new``, 0 where it went) of every non-folder entry that differs
    between the folders ``old`` and ``new`` (ids; None: an empty folder). Folders of equal ids are not
    opened, so the cost follows the change, not the folders' size."""
    if old == new:
        return []
    before = (listing_of(old, base) or {}) if old else {}
    after = (listing_of(new, base) or {}) if new else {}
    out: list[tuple[str, int]] = []
    for name in sorted(before.keys() | after.keys()):
        a, b = before.get(name), after.get(name)
        path = f"{base}/{name}" if base else name
        folder_a = a.oid if a is not None and a.kind == FOLDER else None
        folder_b = b.oid if b is not None and b.kind == FOLDER else None
        if folder_a or folder_b:
            out.extend(changes(listing_of, folder_a, folder_b, path, label, under))
        file_a = a if a is not None and a.kind != FOLDER else None
        file_b = b if b is not None and b.kind != FOLDER else None
        if file_a != file_b:
            shown = f"{under}/{base}" if under and base else under or base  # the folder from the tree's root
            for entry in (file_b, file_a):  # the entry the new tree has named first
                reached(name, entry, shown, label)
            out.append((path, file_b.mode if file_b is not None else 0))
    return out
