"""bashlex, imported with its LR parser tables read from a file beside the guard's own bytecode.

bashlex 0.18 runs its parser generator (PLY's LRTable) at every import and never reads the
tables it ships: most of what the agent's guard paid for a `Bash` call. The generator is
deterministic, so its output (the action and goto tables) is kept in one file and handed back
on the next import instead of being computed again.

Trust: the file sits in this package's `__pycache__` (:func:`cache_dir`), trusted as the code
beside it is — never in the user's cache folder, which the agent's own tools can write. It is
named after a digest of bashlex's own source files, its distribution's name and version and the
Python version (marshal's format is Python's), so a different bashlex or a changed source never
reads it. A file that is missing, oversized, unreadable, of the wrong shape or made for other
productions is ignored and the tables are computed (and the file rewritten atomically).
Only the table computation is replaced, for the duration of the import; the grammar, the
parse functions and the parser object are bashlex's own.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import marshal
import os
import sys
from itertools import chain
from pathlib import Path
from types import ModuleType
from typing import Any

from harness.agent.digest import sha256

FORMAT = 1                      # of the cached file: bump when its layout changes
MAX_BYTES = 4 * 1024 * 1024     # bashlex 0.18's tables take ~90 kB; anything far larger is not ours
PREFIX = "bashlex-tables-"


def cache_dir() -> Path | None:
    """Where the tables live: beside this module's own bytecode (its `__pycache__`), or the folder
    ``HARNESS_PARSER_TABLES`` names (set by whoever starts the guard: tests, benchmarks).

    Not the user's cache folder: the agent's own tools write there, and a table planted under the name
    anyone can compute would decide how every later command is parsed. Whoever can write this folder
    can rewrite the guard's code beside it: the tables are trusted exactly as the code is. A folder
    that cannot be written (a system-wide install) leaves the tables computed at each import."""
    named = os.environ.get("HARNESS_PARSER_TABLES")
    if named:
        return Path(named)
    return Path(__file__).resolve().parent / "__pycache__"


def source_key(package_dir: Path) -> str:
    """A digest of everything the tables depend on: bashlex's source files, its version, Python's."""
    digest = sha256(f"format {FORMAT} python {sys.version_info[:2]}".encode())
    for dist in sorted(p.name for p in package_dir.parent.glob("bashlex-*.dist-info")):
        digest.update(dist.encode())
    for source in sorted(package_dir.glob("*.py")):
        digest.update(source.name.encode() + b"\0" + source.read_bytes() + b"\0")
    return digest.hexdigest()[:32]


def load(folder: Path | None = None) -> ModuleType:
    """``bashlex``, imported (once per process) with its tables from the cache in ``folder``
    (default :func:`cache_dir`); without a usable folder it is imported as bashlex does."""
    if "bashlex" in sys.modules:
        return sys.modules["bashlex"]
    spec = importlib.util.find_spec("bashlex")
    if spec is None or not spec.submodule_search_locations:
        import bashlex  # let the real import report what is missing

        return bashlex
    package_dir = Path(next(iter(spec.submodule_search_locations)))
    folder = cache_dir() if folder is None else folder
    try:
        path = folder / f"{PREFIX}{source_key(package_dir)}.marshal" if folder is not None else None
    except OSError:
        path = None  # bashlex's own files unreadable: its import will say so
    finder = _TableFinder(path)
    sys.meta_path.insert(0, finder)
    try:
        import bashlex
    finally:
        sys.meta_path.remove(finder)
        finder.restore()
    return bashlex


class _TableFinder:  # a sys.meta_path finder (importlib.abc would cost its own imports)
    """Finds ``bashlex.yacc`` as the path finder does, and swaps its LRTable for :class:`_table_class`'s
    until :meth:`restore` (right after bashlex's import, which is when the tables are built)."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.yacc: ModuleType | None = None
        self.original: Any = None

    def find_spec(self, name: str, import_path: Any, target: Any = None) -> importlib.machinery.ModuleSpec | None:
        if name != "bashlex.yacc" or self.path is None:
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, import_path)
        if spec is None or spec.loader is None:
            return None
        loader = spec.loader
        finder = self

        class Patching:
            def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
                return loader.create_module(spec)

            def exec_module(self, module: ModuleType) -> None:
                loader.exec_module(module)
                finder.yacc, finder.original = module, module.LRTable
                module.LRTable = _table_class(module.LRTable, finder.path)  # type: ignore[attr-defined]

        spec.loader = Patching()  # type: ignore[assignment]
        return spec

    def restore(self) -> None:
        if self.yacc is not None:
            self.yacc.LRTable = self.original  # type: ignore[attr-defined]


def _table_class(generator: type, path: Path | None) -> type:
    """A stand-in for PLY's LRTable: the same three attributes the parser reads, from the cache when it
    holds tables for these very productions, else from ``generator`` (and then cached)."""

    class CachedTable:
        def __init__(self, grammar: Any, log: Any = None) -> None:
            self.lr_productions = grammar.Productions
            names = [str(p) for p in grammar.Productions]
            tables = read_tables(path, names) if path is not None else None
            if tables is None:
                built = generator(grammar, log)
                tables = (built.lr_action, built.lr_goto)
                if path is not None:
                    write_tables(path, names, *tables)
            self.lr_action, self.lr_goto = tables
            self.sr_conflicts: list[Any] = []
            self.rr_conflicts: list[Any] = []

        def bind_callables(self, pdict: dict[str, Any]) -> None:
            for p in self.lr_productions:
                p.bind(pdict)

    return CachedTable


def read_tables(path: Path, productions: list[str]) -> tuple[dict, dict] | None:
    """The cached (action, goto) tables for ``productions``, or None when the file is not a sound cache."""
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_BYTES + 1)
        if len(data) > MAX_BYTES:
            return None
        stored = marshal.loads(data)
    except (OSError, EOFError, ValueError, TypeError):
        return None
    if not (isinstance(stored, tuple) and len(stored) == 4 and stored[0] == FORMAT and stored[1] == productions):
        return None
    action, goto = stored[2], stored[3]
    return (action, goto) if _table(action) and _table(goto) else None


def _table(table: object) -> bool:
    """{state: {symbol: int}}: the shape PLY's tables have. Checked with C loops (map, chain) over
    the ~7000 entries: a Python loop over them cost more than reading the file."""
    if type(table) is not dict:
        return False
    rows = list(table.values())
    return (set(map(type, table)) <= {int} and set(map(type, rows)) <= {dict}
            and set(map(type, chain.from_iterable(rows))) <= {str}
            and set(map(type, chain.from_iterable(map(dict.values, rows)))) <= {int})


def write_tables(path: Path, productions: list[str], action: dict, goto: dict) -> None:
    """Write the tables atomically (a reader sees the old file or the new one), and remove the tables
    of other bashlex versions: one file at most, whatever was installed before. Never raises."""
    try:
        data = marshal.dumps((FORMAT, productions, action, goto))
        if len(data) > MAX_BYTES:
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f"{PREFIX}{os.getpid()}.tmp")  # one writer per process: no clash
        try:
            with open(tmp, "wb") as f:
                f.write(data)
            os.replace(tmp, path)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
        for old in path.parent.glob(f"{PREFIX}*.marshal"):
            if old != path:
                old.unlink(missing_ok=True)
    except (OSError, ValueError):
        pass  # an unwritable cache folder: the next import computes the tables again
