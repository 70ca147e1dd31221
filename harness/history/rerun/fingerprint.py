"""What the next re-run relies on, fingerprinted: a re-run that changes it poisons every later one.

Re-runs in one CI job share an interpreter, a user, a PATH and a HOME, one after the other. A
command of an earlier commit (or the build re-run of the same commit) that writes a
`sitecustomize.py` or a `.pth` into the interpreter, a `python3` into a PATH folder, or a line
into `~/.gitconfig` decides what every later re-run does. So the places later runs read from are
fingerprinted before the first run and after each one, and any change is named.

Signatures: every file's size, modification time, change time and mode; a sha256 of the content
too for the small files whose content decides most (the top level of site-packages, interpreter
`bin/` folders, HOME's configuration, the repository's git config and hooks). The change time
(`st_ctime`) is what a rewrite that keeps the size and puts the modification time back cannot hide:
no call sets it back from user space. Below a walked folder's top level, files nothing runs (images,
stylesheets, C sources, …) are signed by name only.

Bytecode caches are not what keeps re-runs apart: every command a re-run starts gets a fresh, empty
cache folder of its own (`PYTHONPYCACHEPREFIX`, see :mod:`harness.history.rerun.execute`), so its interpreters
neither read a `__pycache__` beside the sources (where another run could plant a cache whose header
matches its source's size and time) nor write one there. So a new cache in a `__pycache__` may
appear (a tool that ignores the environment compiles there), and caches below the top level are not
read; at the top level a changed one is still named. Out of reach: an interpreter started with `-I`
or `-E` (it ignores `PYTHONPYCACHEPREFIX`) reads the `__pycache__` folders — fan the re-run out.
The folders above the re-runs' worktrees are fingerprinted by name: the job's temporary folder, where every worktree
is made in a fresh folder of its own, and each folder above it, for the names tools look up in every folder above the
one they start from (:data:`UPWARD`: a `node_modules`, a `conftest.py`, a `package.json`; read 86's F-0298). Each
command gets a temporary folder of its own, so an honest tool writes none of them there.
Bounded: at most ``ENTRY_CAP`` entries per group of spots (:func:`take_each`), past which the fingerprint says it
stopped (:data:`TRUNCATED`).
"""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Iterable
from dataclasses import dataclass, field

ENTRY_CAP = 250_000
HASH_CAP = 1 << 20  # a file larger than this is signed by size and time only
# What commands started from a re-run read from HOME (the re-run keeps HOME): version control,
# package managers and build tools' user configuration, the shell's startup files.
HOME_CONFIG = (".gitconfig", ".config/git", ".gitattributes", ".config/pip", ".pip", ".pypirc", ".pydistutils.cfg",
               ".config/uv", ".condarc", ".netrc", ".npmrc", ".yarnrc", ".yarnrc.yml", ".config/pypoetry",
               ".config/hatch", ".cargo/config", ".cargo/config.toml", ".m2/settings.xml", ".gradle/gradle.properties",
               ".gradle/init.d", ".bazelrc", ".curlrc", ".wgetrc", ".ssh/config", ".docker/config.json", ".profile",
               ".bashrc", ".bash_profile", ".zshenv", ".pdbrc")
SYSTEM_CONFIG = ("/etc/gitconfig", "/etc/pip.conf", "/etc/xdg/pip/pip.conf")
# What tools look for in the folder they start from and, when it holds none, in every folder above it up to the root
# (read 86's F-0298): each re-run's worktree is made in a fresh folder of the job's temporary folder, which every
# command could write until it got a TMPDIR of its own, and one of these written there or above it decides what a
# later run does in a tree that holds none — node resolves a bare require() through the node_modules of every folder
# above, pytest takes the first configuration it finds (ended at the worktree's root: harness.core.pytest_search),
# linters and type checkers their configuration, version managers their pin. Grouped by ecosystem; a name not
# listed (a tool's own configuration file that another tool does not share) is not looked for.
UPWARD = (
    # Python: pytest's configuration and conftest.py, the packaging and lint and type-check configurations, the pin
    "conftest.py", "pytest.ini", ".pytest.ini", "pytest.toml", ".pytest.toml", "pyproject.toml", "tox.ini", "setup.cfg",
    "mypy.ini", ".mypy.ini", "ruff.toml", ".ruff.toml", ".flake8", ".pylintrc", "pylintrc", ".coveragerc",
    ".isort.cfg", "pyrightconfig.json", ".python-version",
    # JavaScript: node's modules, the package managers', compilers', test runners' and linters' configurations
    "node_modules", "package.json", ".npmrc", ".yarnrc", ".yarnrc.yml", ".pnp.cjs", "pnpm-workspace.yaml",
    "tsconfig.json", "jsconfig.json", "babel.config.js", "babel.config.json", ".babelrc", ".babelrc.json",
    "jest.config.js", ".mocharc.js", ".mocharc.json", ".mocharc.yml", ".eslintrc", ".eslintrc.js", ".eslintrc.json",
    ".eslintrc.yml", "eslint.config.js", ".prettierrc", ".nvmrc", ".node-version", "deno.json", "bunfig.toml",
    # Go, Rust, Ruby, the JVM, Bazel
    "go.mod", "go.work", "Cargo.toml", ".cargo", "rust-toolchain", "rust-toolchain.toml", "Gemfile", ".ruby-version",
    ".bundle", "pom.xml", ".mvn", "settings.gradle", "settings.gradle.kts", "gradle.properties", "WORKSPACE",
    "WORKSPACE.bazel", "MODULE.bazel", ".bazelrc",
    # version managers and environment files
    ".tool-versions", ".env", ".envrc", ".editorconfig")
# The repository's own git configuration: what `git worktree add` of the next commit, and git
# commands inside every re-run, obey (filters, hooks, grafts, alternates, replace refs).
GIT_FILES = ("config", "shallow", "info/grafts", "info/attributes", "objects/info/alternates")
GIT_LISTED = ("hooks", "info")
GIT_WALKED = ("refs/replace",)
Signature = tuple[str | int, ...]
ABSENT: Signature = ("absent",)
DIR: Signature = ("d",)
PRESENT: Signature = ("present",)
# Files no interpreter or tool runs (images, fonts, stylesheets, translations, C sources, type stubs,
# documents): below a walked folder's top level only their presence is signed, not their size and
# time — an lstat each would cost more than everything else (a docs theme ships 14,000 icons).
ASSETS = (".svg", ".png", ".jpg", ".jpeg", ".gif", ".ico", ".webp", ".css", ".woff", ".woff2", ".ttf", ".otf",
          ".eot", ".mo", ".po", ".c", ".h", ".cpp", ".hpp", ".pyi", ".md", ".rst", ".map")


@dataclass
class Spots:
    walked: set[str] = field(default_factory=set)   # read in full: site-packages, the harness's package
    listed: set[str] = field(default_factory=set)   # one level deep: PATH folders, bin/, import folders
    hashed: set[str] = field(default_factory=set)   # of ``listed``, those whose small files are hashed too
    files: set[str] = field(default_factory=set)    # single files (absent is a state too)
    pruned: set[str] = field(default_factory=set)   # folders inside a walked one read as a name only

    def update(self, other: Spots) -> None:
        self.walked |= other.walked
        self.listed |= other.listed
        self.hashed |= other.hashed
        self.files |= other.files
        self.pruned |= other.pruned


def home_spots(home: str | None) -> Spots:
    spots = Spots(files=set(SYSTEM_CONFIG))
    if not home:
        return spots
    for rel in HOME_CONFIG:
        path = os.path.join(home, rel)
        (spots.walked if os.path.isdir(path) else spots.files).add(path)
    return spots


def upward_spots(folder: str) -> Spots:
    """The names of :data:`UPWARD` in ``folder`` (the job's temporary folder) and every folder above it, as written and
    with links resolved (node resolves from a module's real path): a folder already there is read in full, anything
    else by content, and a name that appears is added."""
    spots = Spots()
    for above in ancestors(folder):
        for name in UPWARD:
            path = os.path.join(above, name)
            (spots.walked if os.path.isdir(path) else spots.files).add(path)
    return spots


def ancestors(folder: str) -> list[str]:
    """``folder`` and each folder above it up to the root, as written (made absolute) and with links resolved."""
    out: list[str] = []
    for here in (os.path.abspath(folder), os.path.realpath(folder)):
        while here not in out:
            out.append(here)
            here = os.path.dirname(here)
    return out


def git_spots(common_dir: str) -> Spots:
    spots = Spots(files={os.path.join(common_dir, f) for f in (*GIT_FILES, "packed-refs")})
    spots.listed = {os.path.join(common_dir, d) for d in GIT_LISTED}
    spots.hashed = set(spots.listed)
    spots.walked = {os.path.join(common_dir, d) for d in GIT_WALKED}
    return spots


TRUNCATED = "…"  # the key of a fingerprint that reached ENTRY_CAP (one per group in take_each's)


def take_each(groups: Iterable[Spots]) -> dict[str, Signature]:
    """:func:`take` of each group in turn, each within a cap of its own: a group learned later pushes nothing an
    earlier one watches past the cap (read 170's F-0578). A path two groups reach keeps the first one's name and
    signature, so every fingerprint of the same groups names and signs alike (self-found 32's F-0576)."""
    out: dict[str, Signature] = {}
    for i, group in enumerate(groups):
        for path, sig in take(group).items():
            out.setdefault(f"{TRUNCATED}{i}" if path == TRUNCATED else path, sig)
    return out


def truncated(signatures: dict[str, Signature]) -> bool:
    """Whether a fingerprint stopped at its cap somewhere: what lies past it is not watched."""
    return any(path.startswith(TRUNCATED) for path in signatures)


def take(spots: Spots) -> dict[str, Signature]:
    """path -> signature of everything ``spots`` names (a folder inside a walked one is read once)."""
    out: dict[str, Signature] = {}
    budget = [ENTRY_CAP]
    walked = _outermost(spots.walked)
    for path in sorted(spots.files):
        if not _within(path, walked):
            out[path] = _packed_replace_refs(path) if path.endswith("packed-refs") else _sign(path, hashed=True)
    listed: dict[str, str] = {}  # real path -> the first name it is listed under (/bin and /usr/bin are one)
    for folder in sorted(spots.listed - set(walked)):
        listed.setdefault(os.path.realpath(folder), folder)
    hashed = {os.path.realpath(f) for f in spots.hashed}
    for real, folder in listed.items():
        if not _within(folder, walked) and not _within(real, walked):
            _list(folder, out, real in hashed, budget)
    # Not a folder an interpreter reads from, whichever interpreter's spots pruned it (read 136's F-0487).
    pruned = {os.path.abspath(p) for p in spots.pruned} - {os.path.abspath(w) for w in spots.walked}
    for folder in walked:
        _walk(folder, out, budget, pruned)
    if budget[0] <= 0:
        out[TRUNCATED] = ("truncated", f"more than {ENTRY_CAP} entries: the rest is not fingerprinted")
    return out


def changes(before: dict[str, Signature], after: dict[str, Signature]) -> list[str]:
    """What differs, as `changed PATH`, `added PATH`, `removed PATH` (new bytecode caches allowed)."""
    if before == after:  # the usual answer, found in C
        return []
    out = []
    for path, sig in before.items():
        now = after.get(path, ABSENT)
        if now != sig:
            out.append(f"{'added' if sig == ABSENT else 'removed' if now == ABSENT else 'changed'} {path}")
    out.extend(f"added {p}" for p, sig in after.items() if p not in before and not _may_appear(p, sig))
    return sorted(out)


def _may_appear(path: str, sig: Signature) -> bool:
    """What may appear: a bytecode cache an honest run writes as it imports, or a folder (what a
    folder holds is what counts, and is signed on its own)."""
    return sig == DIR or (path.endswith(".pyc") and os.path.basename(os.path.dirname(path)) == "__pycache__")


def _outermost(folders: Iterable[str]) -> list[str]:
    kept: list[str] = []
    for folder in sorted({os.path.abspath(f) for f in folders}):
        if not _within(folder, kept):
            kept.append(folder)
    return kept


def _within(path: str, folders: Iterable[str]) -> bool:
    return any(path == f or path.startswith(f.rstrip(os.sep) + os.sep) for f in folders)


def _sign(path: str, hashed: bool = False, st: os.stat_result | None = None) -> Signature:
    """("absent",) | ("d",) | ("l", target) | ("f", size, mtime_ns, ctime_ns, mode[, sha256])."""
    try:
        st = st or os.lstat(path)
    except OSError:
        return ABSENT
    mode = st.st_mode
    if stat.S_ISDIR(mode):
        return DIR
    if stat.S_ISLNK(mode):
        try:
            return ("l", os.readlink(path))
        except OSError:
            return ("l", "?")
    if hashed and stat.S_ISREG(mode) and st.st_size <= HASH_CAP:
        return ("f", st.st_size, st.st_mtime_ns, st.st_ctime_ns, mode, _digest(path))
    return ("f", st.st_size, st.st_mtime_ns, st.st_ctime_ns, mode)


def _digest(path: str) -> str:
    try:
        with open(path, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()
    except OSError:
        return "unreadable"


def _scan(folder: str) -> list[os.DirEntry] | None:
    """The entries of ``folder`` (None: not a folder, or gone)."""
    try:
        with os.scandir(folder) as it:
            return list(it)
    except (NotADirectoryError, FileNotFoundError):
        return None
    except OSError:
        return []


def _list(folder: str, out: dict[str, Signature], hashed: bool, budget: list[int]) -> None:
    entries = _scan(folder)
    out[folder] = _sign(folder) if entries is None else DIR
    for entry in entries or ():
        if budget[0] <= 0:
            return
        budget[0] -= 1
        out[entry.path] = _entry_sign(entry, hashed)


def _walk(folder: str, out: dict[str, Signature], budget: list[int], pruned: set[str] | frozenset[str] = frozenset()
          ) -> None:
    """Every entry under ``folder`` (each costs one lstat) but what the ``pruned`` folders hold; the small files of
    its top level hashed."""
    top = _scan(folder)
    if top is None:
        out[folder] = _sign(folder)
        return
    out[folder] = DIR
    _list(folder, out, True, budget)
    stack = [e.path for e in top if e.is_dir(follow_symlinks=False) and e.path not in pruned]
    while stack and budget[0] > 0:
        entries = _scan(stack.pop()) or ()
        budget[0] -= len(entries)
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):  # the kind comes with the listing: no lstat
                out[entry.path] = DIR
                if entry.name != "__pycache__" and entry.path not in pruned:
                    stack.append(entry.path)
            elif entry.name.endswith(ASSETS):
                out[entry.path] = PRESENT
            elif entry.is_symlink():
                out[entry.path] = _sign(entry.path)
            else:
                try:
                    st = entry.stat(follow_symlinks=False)
                except OSError:
                    continue
                out[entry.path] = ("f", st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_mode)


def _entry_sign(entry: os.DirEntry, hashed: bool) -> Signature:
    try:
        st = entry.stat(follow_symlinks=False)
    except OSError:
        return ABSENT
    return _sign(entry.path, hashed, st)


def _packed_replace_refs(path: str) -> Signature:
    """packed-refs changes when git packs refs (any of them): only its replace refs are signed."""
    try:
        with open(path, "rb") as f:
            lines = [line for line in f if b" refs/replace/" in line]
    except OSError:
        return ABSENT
    return ("replace", hashlib.sha256(b"".join(lines)).hexdigest())
