"""A code-only push answered from git alone, before click or pygit2 loads (as a code-only commit is).

The push guard checks each pushed commit against its parents. A commit with one parent whose
``.harness`` entry is that parent's, in a root tree and ``.harness`` folder git's fsck accepts, has
nothing for any rule to judge: the full path finds no problem in it. When every pushed commit is
such a one, the answer is known without the CLI. Anything else — a merge, a root commit, a
changed ``.harness``, a defect, a line git would not write, an object missing, any error — answers
None, and the full push guard runs and says what it finds.
"""

from __future__ import annotations

import os

from harness import paths
from harness.core.code_only import FOLDER, code_only
from harness.core.tree_listing import ListingRefused, parse
from harness.gitio.environment import HARNESS_DIR, as_stored, common_dir

ZERO = "0" * 40
TRUST_ROOTS = r"^(harness\.allowedsigners|gpg\.ssh\.allowedsignersfile)$"  # git config keys naming signers
_HEX = frozenset("0123456789abcdef")


def _is_oid(text: str) -> bool:
    """An object name as git writes it (sha-1 or sha-256, lower case): what history.ref_lines accepts."""
    return len(text) in (40, 64) and set(text) <= _HEX


def in_a_worktree() -> bool:
    """Whether the current directory is inside a git work tree, judged as the full path's
    :func:`harness.store.layout.find_worktree` judges it (a `.git` here or above), without its imports."""
    return worktree_root() is not None


def worktree_root() -> str | None:
    """The top of the work tree the current directory is in (a `.git` here or above), None outside any."""
    here = os.path.realpath(os.getcwd())
    while True:
        if os.path.exists(os.path.join(here, ".git")):
            return here
        parent = os.path.dirname(here)
        if parent == here:
            return None
        here = parent


def _may_be_grafted() -> bool:
    """Whether the repository may have a graft file (the full path refuses to judge through one, #28's
    task F-0056): its common git folder's `info/grafts` is not empty, or the folder is not found here."""
    root = worktree_root()
    try:
        common = common_dir(root) if root is not None and "GIT_DIR" not in os.environ else None
    except OSError:
        common = None  # a folder it may not search: in doubt
    if common is None:
        return True
    try:
        return os.stat(os.path.join(common, "info", "grafts")).st_size > 0
    except OSError:
        return False


def _start(argv: list[str], feed: bool) -> tuple[int, int | None, int]:
    """Start ``argv`` (found on PATH, in this environment) with stdout on a pipe, stderr on /dev/null
    and stdin on a pipe with ``feed``, else on /dev/null: (pid, stdin's write end, stdout's read end).
    os.posix_spawnp, not subprocess: importing subprocess (re, locale, threading, selectors) costs
    a code-only push more than the git processes it runs."""
    out_r, out_w = os.pipe()
    in_r, in_w = os.pipe() if feed else (None, None)
    actions: list[tuple] = [(os.POSIX_SPAWN_DUP2, out_w, 1), (os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0),
                            (os.POSIX_SPAWN_DUP2, in_r, 0) if in_r is not None
                            else (os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0)]
    try:
        pid = os.posix_spawnp(argv[0], argv, as_stored(dict(os.environ)), file_actions=actions)
    except BaseException:
        for fd in (out_r, in_w):
            if fd is not None:
                os.close(fd)
        raise
    finally:
        for fd in (out_w, in_r):
            if fd is not None:
                os.close(fd)
    return pid, in_w, out_r


def _exit_code(pid: int) -> int:
    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])


class _Objects:
    """One `git cat-file --batch` process: object types and raw contents, by name or revision. What it
    answered for a revision is kept (a commit's tree is asked while walking to it, and read after)."""

    def __init__(self) -> None:
        self.pid, to_git, from_git = _start(["git", "cat-file", "--batch"], feed=True)
        assert to_git is not None
        self.stdin, self.stdout = os.fdopen(to_git, "wb"), os.fdopen(from_git, "rb")
        self.answered: dict[str, tuple[str, str, bytes] | None] = {}

    def get(self, rev: str) -> tuple[str, str, bytes] | None:
        """(object id, type, content) of ``rev``, None when git finds no such object."""
        return self.get_all([rev])[0]

    def get_all(self, revs: list[str]) -> list[tuple[str, str, bytes] | None]:
        """:meth:`get` of each of ``revs``, asked together (one round trip to git for all of them)."""
        asked = [rev for rev in dict.fromkeys(revs) if rev not in self.answered]
        if asked:
            self.stdin.write(b"".join(rev.encode("utf-8", "surrogateescape") + b"\n" for rev in asked))
            self.stdin.flush()
            for rev in asked:
                self.answered[rev] = self._read()
        return [self.answered[rev] for rev in revs]

    def _read(self) -> tuple[str, str, bytes] | None:
        header = self.stdout.readline().split()
        if len(header) != 3:
            return None  # "<rev> missing" / "ambiguous"
        body = self.stdout.read(int(header[2]) + 1)[:-1]
        return header[0].decode("ascii"), header[1].decode("ascii"), body

    def close(self) -> None:
        self.stdin.close()
        _exit_code(self.pid)
        self.stdout.close()


# The modes git writes. Another spelling (a zero-padded 040000, say) is read by git and libgit2 by its value,
# which this reader does not try to match: such a tree is the full path's to judge (#28's task F-0055).
CANONICAL_MODES = frozenset({b"40000", b"100644", b"100755", b"120000", b"160000"})


def _tree_entries(raw: bytes, oid_len: int) -> list[tuple[bytes, bool, str]] | None:
    """(name, is a tree, object id) of each entry of a raw tree object; None when the readers' parser
    (:func:`harness.core.tree_listing.parse`) refuses it, or a mode is not spelled as git writes it: the full
    path, which parses with the same parser, then says why (read 120: a loop of this module's own passed an id
    cut short and died on a listing with no NUL)."""
    try:
        parse(raw, oid_len, "(root)")
    except ListingRefused:
        return None
    out, at = [], 0
    while at < len(raw):
        space, nul = raw.index(b" ", at), raw.index(b"\0", at)
        mode, name = raw[at:space], raw[space + 1:nul]
        if mode not in CANONICAL_MODES:
            return None
        out.append((name, mode == b"40000", raw[nul + 1:nul + 1 + oid_len].hex()))
        at = nul + 1 + oid_len
    return out


def _sound(objects: _Objects, tree: str, known: set[str], top: bool) -> bool:
    """Whether ``tree`` (a root tree when ``top``, else inside .harness/) and, recursively, its
    .harness folder (a root) or every folder (inside .harness/) have no entry git's fsck rejects.
    ``known`` holds the trees found sound whole, and roots found sound as roots (`ID:root`): a root's
    folders but .harness were not looked into, so the same tree met as .harness is checked again
    (#28's task F-0054)."""
    key = f"{tree}:root" if top else tree
    if tree in known or key in known:
        return True
    found = objects.get(tree)
    if found is None or found[1] != "tree":
        return False
    entries = _tree_entries(found[2], len(tree) // 2)
    if entries is None:  # refused by the readers' parser (its fsck judgement too), or spelled otherwise
        return False
    if not all(_sound(objects, oid, known, False) for name, is_tree, oid in entries
               if is_tree and (not top or name == HARNESS_DIR.encode())):
        return False
    known.add(key)
    return True


def _git(*args: str) -> str | None:
    """What `git ARGS` prints, None when it fails."""
    pid, _, from_git = _start(["git", *args], feed=False)
    return _output(pid, from_git)


def _output(pid: int, from_git: int) -> str | None:
    """What the started git process prints, None when it fails."""
    with os.fdopen(from_git, "rb") as out:
        printed = out.read()
    return printed.decode("utf-8", "surrogateescape") if _exit_code(pid) == 0 else None


def _commit_id(objects: _Objects, sha: str) -> str | None:
    """The commit ``sha`` leads to (a tag peeled), None for a blob, a tree or a missing object."""
    found = objects.get(f"{sha}^{{commit}}")
    return found[0] if found is not None and found[1] == "commit" else None


def _remote_tips(objects: _Objects, remote: str | None) -> list[str] | None:
    prefix = f"refs/remotes/{remote}/" if remote else "refs/remotes/"
    listed = _git("for-each-ref", "--format=%(refname)%00%(objectname)", prefix)
    if listed is None:
        return None
    tips = []
    for line in listed.splitlines():
        name, _, oid = line.partition("\0")
        if name.startswith(prefix) and not name.endswith("/HEAD"):
            peeled = _commit_id(objects, oid)
            if peeled:
                tips.append(peeled)
    return tips


def _harness_entry(objects: _Objects, commit: str, known: set[str]) -> tuple[tuple[str, str] | None] | None:
    """(``commit``'s .harness entry as :func:`code_only` takes it, or None when it has none), or None when
    the root tree or its .harness folder is not sound (then the full path names the defect)."""
    found = objects.get(f"{commit}^{{tree}}")
    if found is None or found[1] != "tree" or not _sound(objects, found[0], known, True):
        return None
    entries = _tree_entries(found[2], len(commit) // 2) or []  # (read whole by _sound just now)
    entry = next(((is_tree, oid) for name, is_tree, oid in entries if name == HARNESS_DIR.encode()), None)
    if entry is not None and not entry[0]:
        return None  # a .harness that is no folder (a submodule entry naming its parent's tree, say): the full path's
    return ((FOLDER, entry[1]) if entry is not None else None,)


MAX_WALKED = 1000  # commits walked in cat-file before `git rev-list` is asked instead


def _walked(objects: _Objects, tip: str, old: str) -> list[str] | None:
    """`git rev-list --parents TIP --not OLD`'s lines, read in the cat-file process already running (a git
    process fewer) when every commit from ``tip`` down to ``old`` has exactly one parent: then those
    commits are exactly the ones reachable from the tip and not from ``old``. The parents are the ones
    rev-list sees (`C^1`, `C^2` go through git's revision parser: grafts, a shallow history and replaced
    commits count as they do for rev-list). None when the walk meets a root or a merge, or goes on past
    MAX_WALKED commits: rev-list then answers (a rewind, a diverged history, a long push)."""
    lines: list[str] = []
    commit = tip
    while commit != old:
        if len(lines) >= MAX_WALKED:
            return None
        first, second, _tree = objects.get_all([f"{commit}^1", f"{commit}^2", f"{commit}^{{tree}}"])
        if first is None or second is not None or first[1] != "commit":
            return None
        lines.append(f"{commit} {first[0]}")
        commit = first[0]
    return lines


def _listed(objects: _Objects, tip: str, old: str | None, remote: str | None) -> list[str] | None:
    """`git rev-list --parents TIP --not OLD` (no OLD: the remote's tips), walked in cat-file when it can be."""
    walked = _walked(objects, tip, old) if old else None
    if walked is not None:
        return walked
    exclude = [old] if old else _remote_tips(objects, remote)
    listed = None if exclude is None else _git("rev-list", "--parents", tip, "--not", *exclude)
    return None if listed is None else listed.splitlines()


def _line_commits(parsed: list[list[str]], objects: _Objects, remote: str | None) -> list[str] | None:
    """The commits of the push the guard would check, as (commit parent) lines; None: ask the full path."""
    out: list[str] = []
    seen: set[str] = set()
    for _ref, local, _remote_ref, remote_sha in parsed:
        if local == ZERO:
            continue
        if objects.get(local) is None:
            return None  # the full path refuses an object missing from the repository
        tip = _commit_id(objects, local)
        if tip is None:
            continue  # an object that leads to no commit (a tagged blob)
        old = _commit_id(objects, remote_sha) if remote_sha != ZERO else None
        listed = _listed(objects, tip, old, remote)
        if listed is None:
            return None
        out.extend(line for line in listed if line not in seen)
        seen.update(out)
    return out


def _parsed(lines: list[bytes]) -> list[list[str]] | None:
    """The fields of each pre-push line; None when one is not a line git writes (the full path refuses it)."""
    parsed = []
    for raw in lines:
        parts = raw.decode("utf-8", "surrogateescape").rsplit(None, 3)
        if not parts:
            continue
        if len(parts) != 4 or not (_is_oid(parts[1]) and _is_oid(parts[3])):
            return None
        parsed.append(parts)
    return parsed


NOTES_REFS = "refs/notes/"  # the refs whose notes a push guard reads (harness.history.pushed_notes too)
NOTE_CAP = 16 * 1024 * 1024  # harness.core.file_caps.CAPS["note"] (a test holds them equal)
CONFIG_AT = paths.CONFIG  # as a commit's revision names it


def pushed_notes(lines: list[bytes], remote: str | None) -> tuple[list[tuple[str, bytes]], list[bytes]] | None:
    """(each note the push's notes refs add, as (the object it is on, its text); the config.yaml of each commit a note is
    on), for the push guard's secret check (harness.store.note_check), read as the full path reads them
    (harness.history.pushed_notes: every note a new notes commit adds, the ones shared with a parent not looked into).
    None when anything is in doubt (a notes ref naming no commit, a note past its cap): the full path reads it."""
    parsed = _parsed(lines)
    notes_lines = [p for p in parsed or () if (p[0].startswith(NOTES_REFS) or p[2].startswith(NOTES_REFS)) and p[1] != ZERO]
    if parsed is None or not notes_lines:
        return None if parsed is None else ([], [])
    objects = _Objects()
    try:
        added: dict[str, str] = {}  # blob id -> the object the note is on
        for _local_ref, local, _remote_ref, remote_sha in notes_lines:
            tip = _commit_id(objects, local)
            old = _commit_id(objects, remote_sha) if remote_sha != ZERO else None
            listed = _listed(objects, tip, old, remote) if tip else None
            if listed is None:
                return None
            for ids in (line.split() for line in listed):
                if not _notes_added(objects, ids[0], ids[1:], added):
                    return None
        return _read_notes(objects, added)
    finally:
        objects.close()


def _notes_added(objects: _Objects, commit: str, parents: list[str], added: dict[str, str]) -> bool:
    """Add to ``added`` the notes the notes commit ``commit`` adds over ``parents`` (False: a tree could not be read)."""
    tree, *others = objects.get_all([f"{c}^{{tree}}" for c in (commit, *parents)])
    if tree is None or tree[1] != "tree":
        return False
    return _added(objects, tree[0], [t[0] for t in others if t is not None and t[1] == "tree"], "", added)


def _added(objects: _Objects, tree: str, olds: list[str], prefix: str, added: dict[str, str]) -> bool:
    """:func:`harness.gitio.notes._added` over the trees cat-file reads."""
    found = objects.get_all([tree, *olds])
    if found[0] is None:
        return False
    entries = _tree_entries(found[0][2], len(tree) // 2)
    if entries is None:
        return False
    old_entries = [{name: (is_tree, oid) for name, is_tree, oid in _tree_entries(f[2], len(tree) // 2) or ()}
                   for f in found[1:] if f is not None and f[1] == "tree"]
    for name, is_tree, oid in entries:
        before = [o[name] for o in old_entries if name in o]
        if any(b[1] == oid for b in before):
            continue
        shown = prefix + name.decode("utf-8", "surrogateescape")
        if is_tree and not _added(objects, oid, [b[1] for b in before if b[0]], shown, added):
            return False
        if not is_tree:
            added.setdefault(oid, shown)
    return True


def _read_notes(objects: _Objects, added: dict[str, str]) -> tuple[list[tuple[str, bytes]], list[bytes]] | None:
    """The texts of the notes ``added`` names and the config.yaml of each commit they are on, asked of git together."""
    blobs = objects.get_all(list(added))
    if any(b is None or b[1] != "blob" or len(b[2]) > NOTE_CAP for b in blobs):
        return None  # a gitlink, a note past its cap: the full path says which
    names = list(added.values())
    configs = objects.get_all([f"{name}:{CONFIG_AT}" for name in dict.fromkeys(names) if _is_oid(name)])
    return ([(name, b[2]) for name, b in zip(names, blobs, strict=True) if b is not None],
            [c[2] for c in configs if c is not None and c[1] == "blob"])


def code_only_push(lines: list[bytes], remote: str | None) -> int | None:
    """How many commits the push guard checks for this push when each is code-only (it then finds
    no problem in any); None when one is not, or anything is in doubt."""
    parsed = _parsed(lines)
    if not parsed or not hasattr(os, "posix_spawnp"):  # (a platform without it: the full path runs git)
        return None
    # A trust root named in git config is read by the full path, which refuses an unreadable one.
    # Asked while cat-file starts: the two processes overlap.
    config, _, from_config = _start(["git", "config", "--get-regexp", TRUST_ROOTS], feed=False)
    try:
        objects = _Objects()
    finally:
        trust_roots = _output(config, from_config)
    try:
        if trust_roots or _may_be_grafted():
            return None
        commits = _line_commits(parsed, objects, remote)
        if commits is None:
            return None
        known: set[str] = set()
        entries: dict[str, tuple[tuple[str, str] | None] | None] = {}  # a commit's, once read (it is also the next one's parent)
        for line in commits:
            ids = line.split()
            if len(ids) != 2:
                return None  # a root commit or a merge: the full path judges it
            for commit in ids:
                if commit not in entries:
                    entries[commit] = _harness_entry(objects, commit, known)
            mine, theirs = entries[ids[0]], entries[ids[1]]
            if mine is None or theirs is None or not code_only(mine[0], [theirs[0]]):
                return None
        return len(commits)
    finally:
        objects.close()
