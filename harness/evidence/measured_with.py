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
  device, inode, size, modification and change time, mode — and content; a wrapper in front of it (`timeout 60`) and
  the shell of a shell line alike;
- of the Python that runs the tests, its environment as its start-up finds it: each `pyvenv.cfg` it reads (beside it
  and one level up, absent ones too) and the folders they would be written in, every file and folder of its
  virtualenv's site folders (a `.pth`, a plugin's entry points, pytest's own modules), each by the same identity, and
  the top level of each folder outside the checkout their `.pth` files name; with system site-packages on (no
  `pyvenv.cfg`, or one that does not say `include-system-site-packages = false`), the base interpreter's site folders
  and the user's (`PYTHONUSERBASE`, else `~/.local`), made later or not.

A key is made only for a run whose tests that Python runs itself (read 115's F-0413): `python -m pytest` (by a
Python's own file, not a wrapper script named `python`) or a `pytest` console script whose `#!` line names it, as
the command or as a shell line that runs one command (no list, pipe, substitution, redirection, variable or
assignment), behind wrappers that do not change what it finds (`env` with a variable or an option does). `make
test`, `tox`, `uv run`, a pyenv shim, a script (the tree's too), a long-`#!` console script run by `/bin/sh`: the
interpreter they start is not known here, so no key is made — nothing is kept or reused, the base is measured each
time (slower, never a wrong answer).

The measurement is taken again after the base's run: a result is kept only when nothing of it changed while the run
went on (a `.pth` written during the run and removed moves its folder's change time).

Another interpreter, a `.pth` or `pyvenv.cfg` written for one run and put back, a `HOME` or `TMPDIR` of the caller's
choosing (`PYTHONHOME`, `PYTHONUSERBASE` never reach the run: :func:`harness.runner.clean_env`): each is another key,
and the base is measured again. A file's change time is not set back by any call, so a file rewritten with its bytes
and times restored is a change too. What a program reads beyond these (a configuration file of its own elsewhere, the
standard library) is not in the key; CI's re-run trusts no kept result. Past :data:`ENTRY_CAP` files no key is made:
nothing is kept, the base is measured each time.
"""

from __future__ import annotations

import hashlib
import json
import os
import shlex
import stat
from collections.abc import Callable, Mapping
from itertools import pairwise
from pathlib import Path

from harness.core.test_verdict import WRAPPERS, runs_pytest, unwrapped
from harness.core.value_class import dataclass
from harness.evidence.finder_names import inside
from harness.evidence.tree_imports import PYTHON_NAME

ENTRY_CAP = 250_000
HASH_CAP = 1 << 20  # a program file larger than this is known by its identity alone (its change time moves on a write)
HOPS = 4  # a script's interpreter, its interpreter's, ...: past this, the chain is not followed
SHELL = "/bin/sh"  # what runs a shell line (harness.runner)
SHELL_SPECIAL = "\n;&|<>()$`"  # a shell line holding one may run another program, or find one elsewhere
PYTEST_SCRIPTS = ("pytest", "py.test")  # console scripts: their `#!` line names the interpreter that runs the tests
VENV_CFG = "pyvenv.cfg"


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
    checkout's at ``root``). None when it cannot be told: the tests are not run by the command's own Python (read 115's
    F-0413), or too many files."""
    argv = _words(command, shell)
    rest = unwrapped(argv) if argv else []
    wrappers = (argv or [])[:len(argv or []) - len(rest)]
    if not rest or not runs_pytest(rest) or not _plain(wrappers):
        return None
    sink = _Sink()
    sink.add("env", sorted(environ.items()))
    sink.add("shell", shell)
    # The shell and the wrappers run the command and nothing else: each a program of its own (no script, which
    # could start any interpreter), known by its file.
    ahead = [_chain(word, root, environ, in_tree, sink)
             for word in [*([SHELL] if shell else []), *(w for w in wrappers if os.path.basename(w) in WRAPPERS)]]
    chain = _chain(rest[0], root, environ, in_tree, sink)
    python = _own_python(chain, rest[0])
    if python is None or any(len(hops) != 1 or hops[0].script for hops in ahead):
        return None
    _python_environment(python, root, environ, sink)
    return None if sink.full else Measured(sink.digest(), (ahead[0] if ahead else chain)[0].path, sink.changed)


def _words(command: list[str] | str, shell: bool) -> list[str] | None:
    """The words of the one command ``command`` runs; None for a shell line that may run another (a list, a pipe, a
    substitution, a redirection, a variable or an assignment, which could name another program or PATH)."""
    if not shell:
        return list(command) if isinstance(command, list) and command and all(command) else None
    if not isinstance(command, str) or any(c in command for c in SHELL_SPECIAL):
        return None
    try:
        words = shlex.split(command)
    except ValueError:
        return None
    return words if words and "=" not in words[0].split("/")[0] else None


def _plain(wrappers: list[str]) -> bool:
    """Whether ``wrappers`` (`timeout 60`, `nice -n 5`) run the command as the run would find it: no `env` with a
    variable or an option of its own (another PATH, another environment, a split string)."""
    return not any("=" in w for w in wrappers) and not any(
        os.path.basename(w) == "env" and nxt.startswith("-") for w, nxt in pairwise(wrappers))


def _own_python(chain: list[_Hop], word: str) -> str | None:
    """The interpreter that runs the tests itself, when ``chain`` (the program ``word`` names and its `#!` chain) ends
    in one: `python -m pytest` a Python's own file, `pytest` a console script its `#!` line runs. Anything else (a
    wrapper script named `python`, a script of the tree's, a program that starts an interpreter of its own) names
    no interpreter the run is known to use."""
    hops = 2 if os.path.basename(word) in PYTEST_SCRIPTS else 1
    if len(chain) != hops or any(hop.tree for hop in chain) or chain[-1].script:
        return None
    last = chain[-1].path
    return last if PYTHON_NAME.match(os.path.basename(last)) or PYTHON_NAME.match(
        os.path.basename(os.path.realpath(last))) else None


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


@dataclass(frozen=True)
class _Hop:
    """A program of a command's `#!` chain: where it is found, whether its file is a script (what its `#!` line
    names runs it), and whether it is the tree's own file."""

    path: str
    script: bool
    tree: bool = False


def _chain(word: str, root: Path, environ: Mapping[str, str], in_tree: Callable[[str], bytes | None],
           sink: _Sink) -> list[_Hop]:
    """Sign the program ``word`` names and, while it is a script, its interpreter: each as it is found (none: not
    found)."""
    hops: list[_Hop] = []
    while word and len(hops) < HOPS:
        hop, head = _program(word, root, environ, in_tree, sink)
        if hop is None:
            break
        hops.append(hop)
        word = _interpreter(head) or ""
    return hops


def _program(word: str, root: Path, environ: Mapping[str, str], in_tree: Callable[[str], bytes | None],
             sink: _Sink) -> tuple[_Hop | None, bytes | None]:
    """(where ``word`` is found, the head of its file) with its identity signed; (None, None) when no file is."""
    if os.sep in word and not os.path.isabs(word):
        held = in_tree(os.path.normpath(word))
        if held is not None:  # the tree's own file: its bytes are the tree's, in the key already
            sink.add("tree", word)
            return _Hop(str(root / word), held.startswith(b"#!"), tree=True), held[:256]
        found: str | None = str(root / word)
    else:
        found = word if os.path.isabs(word) else _which(word, environ.get("PATH", os.defpath))
    real = os.path.realpath(found) if found else ""
    if found is None or not os.path.isfile(real):
        sink.add("not found", word)
        return None, None
    sink.add("program", word, found, real)
    if real != found:
        sink.file(found)
    head = sink.file(real, content=True) or b""
    return _Hop(found, head.startswith(b"#!")), head


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
    """Sign what ``python`` imports from beyond the standard library, as its start-up finds it (CPython's getpath
    and site.venv(), read 115's F-0414): each `pyvenv.cfg` it reads — beside it, which site reads first, and one
    level up — present or absent, and the folders one would be written in; its virtualenv's site folders; and, with
    system site-packages on (no `pyvenv.cfg`, or the first one site reads does not say `false`: true is its
    default), the base interpreter's site folders and the user's (`PYTHONUSERBASE`, else `~/.local`), made later or
    not."""
    exe_dir = os.path.dirname(os.path.abspath(python))
    configs = [os.path.join(exe_dir, VENV_CFG), os.path.join(os.path.dirname(exe_dir), VENV_CFG)]
    for folder in (exe_dir, os.path.dirname(exe_dir)):
        sink.file(folder, folder=True)  # a pyvenv.cfg written there for one run and removed moves its change time
    for cfg in configs:
        sink.file(cfg, content=True)
    read = next((cfg for cfg in configs if os.path.isfile(cfg)), None)
    prefixes = [os.path.dirname(exe_dir)] if read else []
    if read is None or _setting(read, "include-system-site-packages", "true").lower() == "true":
        prefixes += [*_base_prefixes(python, configs, environ), _user_base(environ)]
    _sites([site for prefix in prefixes for site in _prefix_sites(prefix, sink)], root, sink)


def _setting(cfg: str, key: str, default: str) -> str:
    """``key``'s value in the `pyvenv.cfg` ``cfg``, read as site reads it (its last line of `key = value`)."""
    value = default
    for line in _read(cfg).splitlines():
        name, equals, rest = line.partition("=")
        if equals and name.strip().lower() == key:
            value = rest.strip()
    return value


def _base_prefixes(python: str, configs: list[str], environ: Mapping[str, str]) -> list[str]:
    """Where the base interpreter's site folders may be: above its real file, above the `home` a `pyvenv.cfg` names,
    `PYTHONHOME`'s; each with its `local/` (Debian's site reads `/usr/local/lib/python3.X/dist-packages`)."""
    homes = [_setting(cfg, "home", "") for cfg in configs if os.path.isfile(cfg)]
    found = [os.path.dirname(os.path.dirname(os.path.realpath(python))), *(os.path.dirname(h) for h in homes if h),
             *(environ.get("PYTHONHOME") or "").split(os.pathsep)]
    return [p for prefix in found if prefix for p in (prefix, os.path.join(prefix, "local"))]


def _user_base(environ: Mapping[str, str]) -> str:
    """The user's base folder as site finds it: `PYTHONUSERBASE`, else `~/.local` by `HOME` (else the account's)."""
    import pwd

    if environ.get("PYTHONUSERBASE"):
        return environ["PYTHONUSERBASE"]
    return os.path.join(environ["HOME"] if "HOME" in environ else pwd.getpwuid(os.getuid()).pw_dir, ".local")


def _prefix_sites(prefix: str, sink: _Sink) -> list[Path]:
    """The site folders under ``prefix`` (`lib*/python*/site-packages`, `dist-packages`), with the folders one would
    be made in signed by identity, absent ones too: a site folder made later is another key."""
    sink.file(prefix, folder=True)
    top = Path(prefix)
    for folder in sorted([*top.glob("lib*"), *top.glob("lib*/python*")]):
        sink.file(str(folder), folder=True)
    return [*top.glob("lib*/python*/site-packages"), *top.glob("lib*/python*/dist-packages")]


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
