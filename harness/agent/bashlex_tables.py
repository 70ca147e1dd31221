"""bashlex, imported with its LR parser tables read from a file beside the guard's own bytecode.

bashlex 0.18 runs its parser generator (PLY's LRTable) at every import and never reads the
tables it ships: most of what the agent's guard paid for a `Bash` call. The generator is
deterministic, so its output (the action and goto tables) is kept in one file and handed back
on the next import instead of being computed again.

Trust: the file sits in this package's `__pycache__` (:func:`cache_dir`), trusted as the code
beside it is — never in the user's cache folder, which the agent's own tools can write. It is
named after a digest of bashlex's own source files (each by inode, size and modification and change
times: :func:`source_key`), its distribution's name and version and the Python version (marshal's
format is Python's), so a different bashlex or a changed source never reads it. A file that is missing, oversized, unreadable, of the wrong shape or made for other
productions is ignored and the tables are computed (and the file rewritten atomically).
The file also keeps the grammar's productions as bashlex made them (name, symbols, precedence, the
function each runs): with them the import skips PLY's grammar building and checking too (yacc()
reads bashlex's parser module's source and docstrings, ~a third of the import), and builds the
parser object (bashlex's LRParser, of bashlex's Production objects bound to bashlex's own parse
functions) from the file. A file without them (tables only), or whose productions do not name
functions of the parser module that is importing, takes the full path: bashlex's yacc() with
only the table computation replaced. Either replacement lasts only for the duration of the import.
"""

from __future__ import annotations

import marshal
import os
import sys
from itertools import chain

from harness.agent.digest import sha256

TYPE_CHECKING = False  # typing and pathlib cost a guarded shell command more than reading the tables
if TYPE_CHECKING:
    from importlib.machinery import ModuleSpec
    from pathlib import Path
    from types import ModuleType
    from typing import Any

FORMAT = 2                      # of the cached file: bump when its layout changes (2: productions kept)
MAX_BYTES = 4 * 1024 * 1024     # bashlex 0.18's tables take ~90 kB; anything far larger is not ours
PREFIX = "bashlex-tables-"
TRAILER = 8                     # bytes giving the length of the productions' details at the file's end


def cache_dir() -> Path | None:
    """Where the tables live: beside this module's own bytecode (its `__pycache__`), or the folder
    ``HARNESS_PARSER_TABLES`` names (set by whoever starts the guard: tests, benchmarks).

    Not the user's cache folder: the agent's own tools write there, and a table planted under the name
    anyone can compute would decide how every later command is parsed. Whoever can write this folder
    can rewrite the guard's code beside it: the tables are trusted exactly as the code is. A folder
    that cannot be written (a system-wide install) leaves the tables computed at each import."""
    from pathlib import Path

    return Path(_cache_folder())


def _cache_folder() -> str:
    from harness.agent.guard_caches import folder

    return folder()


def source_key(package_dir: str | os.PathLike[str]) -> str:
    """A digest of everything the tables depend on: bashlex's source files, its version, Python's.

    A source file stands in by its identity and change stamps (inode, size, modification and change times
    in nanoseconds), not its bytes: reading and hashing bashlex's ~300 kB cost a judged command more than
    the rest of bashlex's import. No file's content changes without its change time (ctime, which no call
    sets back) changing too, and a reinstalled bashlex is new files: either names another cache file."""
    package = os.fspath(package_dir)
    digest = sha256(f"format {FORMAT} python {sys.version_info[:2]}".encode())
    site = os.path.dirname(package)
    for dist in sorted(n for n in os.listdir(site) if n.startswith("bashlex-") and n.endswith(".dist-info")):
        digest.update(dist.encode())
    for name in sorted(n for n in os.listdir(package) if n.endswith(".py")):
        st = os.stat(os.path.join(package, name))
        digest.update(f"{name}\0{st.st_ino} {st.st_size} {st.st_mtime_ns} {st.st_ctime_ns}\0".encode())
    return digest.hexdigest()[:32]


def load(folder: str | os.PathLike[str] | None = None) -> ModuleType:
    """``bashlex``, imported (once per process) with its tables from the cache in ``folder``
    (default :func:`cache_dir`); without a usable folder it is imported as bashlex does."""
    if "bashlex" in sys.modules:
        return sys.modules["bashlex"]
    finder = TableFinder(_cache_folder() if folder is None else os.fspath(folder))
    sys.meta_path.insert(0, finder)
    try:
        import bashlex
    finally:
        sys.meta_path.remove(finder)
        finder.restore()
    return bashlex


class TableFinder:  # a sys.meta_path finder (importlib.abc would cost its own imports)
    """Finds ``bashlex.yacc`` as the path finder does, and swaps its yacc() for :func:`_cached_yacc`'s
    and its LRTable for :func:`_table_class`'s until :meth:`restore` (right after bashlex's import,
    which is when the parser is built). The cache file is named after the package being imported."""

    def __init__(self, folder: str) -> None:
        self.folder = folder
        self.yacc: ModuleType | None = None
        self.original: tuple[Any, Any] | None = None

    def find_spec(self, name: str, import_path: Any, target: Any = None) -> ModuleSpec | None:
        if name != "bashlex.yacc" or not import_path:
            return None
        from _frozen_importlib_external import PathFinder  # importlib.machinery's, without importing importlib

        spec = PathFinder.find_spec(name, import_path)
        if spec is None or spec.loader is None:
            return None
        try:
            path: str | None = os.path.join(self.folder, f"{PREFIX}{source_key(next(iter(import_path)))}.marshal")
        except OSError:
            return None  # bashlex's own files unreadable: its import will say so
        loader, finder = spec.loader, self

        class Patching:
            def create_module(self, spec: ModuleSpec) -> ModuleType | None:
                return loader.create_module(spec)

            def exec_module(self, module: ModuleType) -> None:
                loader.exec_module(module)
                finder.yacc, finder.original = module, (module.yacc, module.LRTable)
                module.LRTable = _table_class(module.LRTable, path)  # type: ignore[attr-defined]
                module.yacc = _cached_yacc(module, path)  # type: ignore[attr-defined]

        spec.loader = Patching()  # type: ignore[assignment]
        return spec

    def restore(self) -> None:
        if self.yacc is not None and self.original is not None:
            self.yacc.yacc, self.yacc.LRTable = self.original  # type: ignore[attr-defined]


def _cached_yacc(yacc: ModuleType, path: str | None) -> Any:
    """A stand-in for PLY's yacc(): the parser made from the cached productions and tables, when the file
    holds both and its productions name the caller's parse functions; else bashlex's own yacc()."""
    original = yacc.yacc

    def cached(*args: Any, **kwargs: Any) -> Any:
        caller = sys._getframe(1)  # PLY's get_caller_module_dict(2), from yacc(): the parser module's names
        pdict = caller.f_globals.copy()
        if caller.f_globals != caller.f_locals:
            pdict.update(caller.f_locals)
        cached = read_cache(path) if path is not None and not args and "module" not in kwargs else None
        stored, details = cached if cached is not None else (None, None)
        productions = _productions(yacc, details, stored[1], pdict) if stored and details is not None else None
        if stored is None or productions is None:
            return _full(yacc, original, pdict, args, kwargs)

        action, goto = stored[2], stored[3]

        class Table:
            lr_productions, lr_action, lr_goto = productions, action, goto

        parser = yacc.LRParser(Table, pdict.get("p_error"))
        yacc.parse = parser.parse  # type: ignore[attr-defined]  # as yacc() leaves it
        return parser

    return cached


def _full(yacc: ModuleType, original: Any, pdict: dict[str, Any], args: tuple, kwargs: dict[str, Any]) -> Any:
    """bashlex's own yacc(), reading the names of the module that called the stand-in (as it would have
    read them, had it been called from there)."""
    own = yacc.get_caller_module_dict
    yacc.get_caller_module_dict = lambda levels: pdict  # type: ignore[attr-defined]
    try:
        return original(*args, **kwargs)
    finally:
        yacc.get_caller_module_dict = own  # type: ignore[attr-defined]


def _productions(yacc: ModuleType, details: object, names: list[str], pdict: dict[str, Any]) -> list | None:
    """bashlex's Production objects made and bound from the cached ``details``, or None when they are not
    of the right shape, not the productions ``names`` lists, or name what the parser module does not hold."""
    if type(details) is not list or len(details) != len(names):
        return None
    made = []
    for number, (entry, name) in enumerate(zip(details, names)):
        if not (type(entry) is tuple and len(entry) == 6 and type(entry[0]) is str and type(entry[1]) is tuple
                and type(entry[2]) is tuple and (entry[3] is None or type(entry[3]) is str)
                and entry[4] in ("", pdict.get("__file__")) and type(entry[5]) is int):
            return None
        if entry[3] is not None and not callable(pdict.get(entry[3])):
            return None
        production = yacc.Production(number, *entry)
        if str(production) != name:
            return None
        production.bind(pdict)
        made.append(production)
    return made


def _table_class(generator: type, path: str | None) -> type:
    """A stand-in for PLY's LRTable: the same three attributes the parser reads, from the cache when it
    holds tables for these very productions, else from ``generator``; then cached, with the productions'
    details when the file lacked them."""

    class CachedTable:
        def __init__(self, grammar: Any, log: Any = None) -> None:
            self.lr_productions = grammar.Productions
            names = [str(p) for p in grammar.Productions]
            cached = read_cache(path) if path is not None else None
            stored, details = cached if cached is not None else (None, None)
            sound = stored is not None and stored[1] == names
            tables = (stored[2], stored[3]) if stored is not None and sound else None
            if tables is None:
                built = generator(grammar, log)
                tables = (built.lr_action, built.lr_goto)
            made = [(p.name, p.prod, p.prec, p.func, p.file, p.line) for p in grammar.Productions]
            if path is not None and not (sound and details == made):
                write_tables(path, names, *tables, made)  # before bashlex's own edits of the tables
            self.lr_action, self.lr_goto = tables
            self.sr_conflicts: list[Any] = []
            self.rr_conflicts: list[Any] = []

        def bind_callables(self, pdict: dict[str, Any]) -> None:
            for p in self.lr_productions:
                p.bind(pdict)

    return CachedTable


def read_cache(path: str | os.PathLike[str]) -> tuple[tuple, list | None] | None:
    """((FORMAT, productions, action, goto), production details or None) as the file holds them, the
    tables' shape checked; None when the file is missing, unreadable, oversized or not of this layout.

    The details, when present, follow the tables: (FORMAT, details) marshalled, a CRC-32 of all before it
    (4 bytes) and the details' length (TRAILER bytes), so a reader of the tables alone stops before them.
    A file whose checksum holds is the one :func:`write_tables` wrote, whole: the tables' shape, which it
    checked before writing, is not walked again (a tenth of bashlex's import)."""
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_BYTES + 1)
        if len(data) > MAX_BYTES:
            return None
        stored = marshal.loads(data)
    except (OSError, EOFError, ValueError, TypeError):
        return None
    if not (isinstance(stored, tuple) and len(stored) == 4 and stored[0] == FORMAT
            and type(stored[1]) is list and set(map(type, stored[1])) <= {str}):
        return None
    details = _details(data)
    if details is None and not (_table(stored[2]) and _table(stored[3])):
        return None
    return stored, details


def _details(data: bytes) -> list | None:
    """The productions' details after the tables in ``data``, when its checksum holds."""
    from zlib import crc32

    size = int.from_bytes(data[-TRAILER:], "big") if len(data) > TRAILER + 4 else 0
    if not 0 < size < len(data) - TRAILER - 4:
        return None
    end = len(data) - TRAILER - 4
    if crc32(data[:end]) != int.from_bytes(data[end:end + 4], "big"):
        return None
    try:
        more = marshal.loads(data[end - size:end])
    except (EOFError, ValueError, TypeError):
        return None
    details = more[1] if type(more) is tuple and len(more) == 2 and more[0] == FORMAT else None
    return details if type(details) is list else None


def _table(table: object) -> bool:
    """{state: {symbol: int}}: the shape PLY's tables have. Checked with C loops (map, chain) over
    the ~7000 entries: a Python loop over them cost more than reading the file."""
    if type(table) is not dict:
        return False
    rows = list(table.values())
    return (set(map(type, table)) <= {int} and set(map(type, rows)) <= {dict}
            and set(map(type, chain.from_iterable(rows))) <= {str}
            and set(map(type, chain.from_iterable(map(dict.values, rows)))) <= {int})


def write_tables(path: str | os.PathLike[str], productions: list[str], action: dict, goto: dict,
                 details: list[tuple] | None = None) -> None:
    """Write the tables (and the productions' ``details``, when given) atomically (a reader sees the old
    file or the new one), and remove the tables of other bashlex versions: one file at most, whatever was
    installed before. Never raises."""
    from pathlib import Path

    path = Path(path)
    try:
        data = marshal.dumps((FORMAT, productions, action, goto))
        if details is not None and _table(action) and _table(goto):
            from zlib import crc32

            more = marshal.dumps((FORMAT, details))
            data += more
            data += crc32(data).to_bytes(4, "big") + len(more).to_bytes(TRAILER, "big")
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
