"""What a PASS_TO_PASS run of the base is measured with beyond the base's tree and the command: the environment it
starts from, the program that runs and that program's own files (read 110's F-0389).

The base's cases are kept under the account's home (:func:`harness.evidence.pass_to_pass.kept_results`) and read by
every later PASS_TO_PASS of that base: a kept result is a later run's answer only where that run would have measured
the same thing. So its key holds, beside the base's source tree and the command, the digest of:

- every variable the run starts from (:func:`harness.runner.clean_env`): `PATH` chooses the program and every program
  the tests start, `HOME` the user's site-packages and tools' configuration, `TMPDIR` where the worktree is made, the
  locale and `CI` what tests skip or print;
- the program the command starts, as the run finds it, and, while it is a script, the interpreter its `#!` line names
  (through `env`, looked up on that PATH): each by the path it is found at, its real path, and its file's identity —
  device, inode, size, modification and change time, mode — and content;
- of each of those that is a Python, its environment: its virtualenv's `pyvenv.cfg`, every file and folder of its
  site folders (a `.pth`, a plugin's entry points, pytest's own modules), each by the same identity, and the top level
  of each folder outside the checkout their `.pth` files name.

The measurement is taken again after the base's run: a result is kept only when nothing of it changed while the run
went on (a `.pth` written during the run and removed moves its folder's change time).

A wrapper first on PATH, another interpreter, a wrapper or `.pth` written for one run and put back, a `HOME` or
`TMPDIR` of the caller's choosing: each is another key, and the base is measured again. A file's change time is not
set back by any call, so a file rewritten with its bytes and times restored is a change too. What a program reads
beyond these (a configuration file of its own elsewhere, the standard library) is not in the key; CI's re-run trusts
no kept result. Past :data:`ENTRY_CAP` files no key is made: nothing is kept, the base is measured each time.
"""

from __future__ import annotations

import hashlib
import json
import os
import shlex
import stat
from collections.abc import Callable, Mapping
from pathlib import Path

from harness.core.value_class import dataclass
from harness.evidence.finder_names import inside
from harness.evidence.tree_imports import PYTHON_NAME, first_word

ENTRY_CAP = 250_000
HASH_CAP = 1 << 20  # a program file larger than this is known by its identity alone (its change time moves on a write)
HOPS = 4  # a script's interpreter, its interpreter's, ...: past this, the chain is not followed
SHELL = "/bin/sh"  # what runs a shell line (harness.runner)


@dataclass(frozen=True)
class Measured:
    """What a base run is measured with: its digest, the program a run in the checkout starts (as found on PATH, or
    its path in the checkout), and the latest change time (seconds) of the files outside the tree it names."""

    digest: str
    program: str | None
    changed: float


def measured_with(command: list[str] | str, shell: bool, root: Path, environ: Mapping[str, str],
                  in_tree: Callable[[str], bytes | None]) -> Measured | None:
    """What a run of ``command`` starting from ``environ`` is measured with (module docstring): its program looked up as
    the worktree run finds it (a relative path the tree holds is the tree's, ``in_tree`` reads it; one it lacks is the
    checkout's at ``root``). None when it cannot be told: too many files, or no program to name."""
    words = [SHELL, first_word(command)] if shell else list(command) if isinstance(command, list) else []
    if not words or not all(words):
        return None
    sink = _Sink()
    sink.add("env", sorted(environ.items()))
    sink.add("shell", shell)
    program = _chain(str(words[0]), root, environ, in_tree, sink)
    if shell:
        _chain(str(words[1]), root, environ, in_tree, sink)
    return None if sink.full else Measured(sink.digest(), program, sink.changed)


class _Sink:
    """The facts a key is made of, hashed in order as they come, and the latest change time among the files they
    name."""

    def __init__(self) -> None:
        self._hash = hashlib.sha256()
        self.changed = 0.0
        self.left = ENTRY_CAP

    @property
    def full(self) -> bool:
        return self.left <= 0

    def add(self, *fact: object) -> None:
        self._hash.update(json.dumps(fact, default=str).encode("utf-8", "surrogateescape") + b"\n")

    def file(self, path: str, content: bool = False, st: os.stat_result | None = None,
             folder: bool = False) -> bytes | None:
        """``path``'s identity (a folder's by name alone unless ``folder``: an entry made or removed in it, even one put
        back, moves its change time; a link's by its target) and, with ``content``, its content's digest, its head
        returned for a `#!` line; None when absent."""
        self.left -= 1
        try:
            st = st or os.lstat(path)
        except OSError:
            self.add("absent", path)
            return None
        if stat.S_ISDIR(st.st_mode) and not folder:
            self.add("folder", path)
            return None
        self.changed = max(self.changed, st.st_ctime_ns / 1e9)
        if stat.S_ISLNK(st.st_mode):
            self.add("link", path, _readlink(path))
            return None
        self._hash.update(f"{path}\0{st.st_dev} {st.st_ino} {st.st_size} {st.st_mtime_ns} {st.st_ctime_ns} "
                          f"{st.st_mode}\n".encode("utf-8", "surrogateescape"))
        if not content or not stat.S_ISREG(st.st_mode):
            return None
        return self._content(path, st.st_size)

    def _content(self, path: str, size: int) -> bytes | None:
        try:
            with open(path, "rb") as f:
                data = f.read(HASH_CAP if size <= HASH_CAP else 256)
        except OSError:
            self.add("unreadable", path)
            return None
        if size <= HASH_CAP:
            self.add("sha256", hashlib.sha256(data).hexdigest())
        return data[:256]

    def digest(self) -> str:
        return self._hash.hexdigest()


def _readlink(path: str) -> str:
    try:
        return os.readlink(path)
    except OSError:
        return "?"


def _chain(word: str, root: Path, environ: Mapping[str, str], in_tree: Callable[[str], bytes | None],
           sink: _Sink) -> str | None:
    """Sign the program ``word`` names and, while it is a script, its interpreter; the first one's path as a run in
    the checkout finds it (None: none)."""
    first: str | None = None
    for hop in range(HOPS):
        path, head = _program(word, root, environ, in_tree, sink)
        first = path if hop == 0 else first
        if path is None:
            break
        if PYTHON_NAME.match(os.path.basename(path)) or PYTHON_NAME.match(os.path.basename(os.path.realpath(path))):
            _python_environment(path, root, environ, sink)
        word = _interpreter(head) or ""
        if not word:
            break
    return first


def _program(word: str, root: Path, environ: Mapping[str, str], in_tree: Callable[[str], bytes | None],
             sink: _Sink) -> tuple[str | None, bytes | None]:
    """(the path ``word`` is found at, the head of its file) with its identity signed."""
    if os.sep in word and not os.path.isabs(word):
        held = in_tree(os.path.normpath(word))
        if held is not None:  # the tree's own file: its bytes are the tree's, in the key already
            sink.add("tree", word)
            return str(root / word), held[:256]
        found: str | None = str(root / word)
    else:
        found = word if os.path.isabs(word) else _which(word, environ.get("PATH", os.defpath))
    if found is None:
        sink.add("not found", word)
        return None, None
    sink.add("program", word, found, os.path.realpath(found))
    real = os.path.realpath(found)
    if real != found:
        sink.file(found)
    return found, sink.file(real, content=True)


def _which(name: str, path: str) -> str | None:
    for folder in path.split(os.pathsep) if path else ():
        found = os.path.join(folder or ".", name)
        if os.path.isfile(found) and os.access(found, os.X_OK):
            return os.path.abspath(found)
    return None


def _interpreter(head: bytes | None) -> str | None:
    """The program a `#!` line runs: its path, or the name `env` is given (looked up on PATH as env does)."""
    if not head or not head.startswith(b"#!"):
        return None
    line = head[2:].split(b"\n", 1)[0].decode("utf-8", "replace")
    try:
        words = shlex.split(line)
    except ValueError:
        words = line.split()
    if not words:
        return None
    if os.path.basename(words[0]) != "env":
        return words[0]
    rest = [w for w in words[1:] if not w.startswith("-") and "=" not in w]
    return rest[0] if rest else None


def _python_environment(python: str, root: Path, environ: Mapping[str, str], sink: _Sink) -> None:
    """Sign what ``python`` imports from beyond the standard library: its virtualenv's configuration and site folders
    (and the base interpreter's with `include-system-site-packages`), else its prefix's and the user's."""
    venv = Path(os.path.abspath(python)).parent.parent
    cfg = venv / "pyvenv.cfg"
    sites: list[Path] = []
    if cfg.is_file():
        sink.file(str(cfg), content=True)
        sites += venv.glob("lib*/python*/site-packages")
        if "include-system-site-packages=true" not in _read(str(cfg)).replace(" ", "").lower():
            _sites(sites, root, sink)
            return
    prefix = Path(os.path.realpath(python)).parent.parent
    home = environ.get("HOME")
    sites += [*prefix.glob("lib*/python*/site-packages"), *prefix.glob("lib*/python*/dist-packages"),
              *(Path(home).glob(".local/lib/python*/site-packages") if home else [])]
    _sites(sites, root, sink)


def _sites(sites: list[Path], root: Path, sink: _Sink) -> None:
    for folder in sorted({os.path.realpath(s) for s in sites}):
        _site(folder, root, sink)


def _site(folder: str, root: Path, sink: _Sink) -> None:
    """A site folder: every entry under it (:func:`_walk`), and the top level of each folder outside the checkout its
    `.pth` files name (the checkout's own are the worktree's in the run: :mod:`harness.evidence.tree_imports`)."""
    _walk(folder, sink)
    try:
        pths = sorted(p for p in os.listdir(folder) if p.endswith(".pth"))
    except OSError:
        return
    for pth in pths:
        for line in _read(os.path.join(folder, pth)).splitlines():
            named = os.path.join(folder, line.strip())
            if line.strip() and not line.startswith(("#", "import ", "import\t")) and os.path.isdir(named) \
                    and not inside(os.path.realpath(named), os.path.realpath(root)):
                _top(named, sink)


def _read(path: str) -> str:
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read(1 << 20)
    except OSError:
        return ""


def _walk(folder: str, sink: _Sink) -> None:
    """Every entry under ``folder``, folders too, by identity (a link as its target's name, not followed)."""
    sink.file(folder, folder=True)
    todo = [folder]
    while todo and not sink.full:
        try:
            with os.scandir(todo.pop()) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError:
            continue
        for entry in entries:
            try:
                st = entry.stat(follow_symlinks=False)
            except OSError:
                st = None
            sink.file(entry.path, st=st, folder=True)
            if st is not None and stat.S_ISDIR(st.st_mode):
                todo.append(entry.path)


def _top(folder: str, sink: _Sink) -> None:
    """The entries of ``folder`` itself: a module or package added there, a file of its top level rewritten."""
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        names = []
    sink.file(folder)
    for name in names:
        sink.file(os.path.join(folder, name))
