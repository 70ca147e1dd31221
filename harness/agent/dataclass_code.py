"""The functions dataclasses writes for the guard's rules, compiled once and kept beside the bytecode.

@dataclass writes each class's __init__, __repr__, __eq__, __hash__ and __setattr__ as source text
and compiles it with exec() at every import: for the rules the agent's guard loads (Where, Denial,
SimpleCommand, GitSetup, ...) that compiling cost a judged shell command more than a tenth of its
answer. While the rules are imported (:func:`install` .. :func:`finish`), dataclasses' exec() is
handed the code object compiled from that very text, kept from an earlier run: exactly what exec()
would compile (the same text, the same "<string>" file name), only not compiled again. The cache is
a dict from source text to code: a text never seen is compiled as before, and a text is never given
another's code. It sits beside the guard's own bytecode (guard_caches.folder: trusted as the code
is, never in the user's cache folder), is named after the interpreter's bytecode magic number (code
objects are the interpreter's own format), is checked by a CRC-32 and by the type of every entry, and
holds at most MAX_ENTRIES texts. A missing, corrupt or unwritable cache costs the compiling, no more.
"""

from __future__ import annotations

import marshal
import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

PREFIX = "dataclass-code-2-"  # 2: compiled without this module's future flags
MAX_BYTES = 1024 * 1024   # the rules' ~40 functions take ~40 kB
MAX_ENTRIES = 400


class CompiledOnce:
    """dataclasses' exec() while the rules are imported: code from the cache, else compiled (and remembered)."""

    def __init__(self, path: str | None) -> None:
        self.path = path
        self.stored = read(path) if path is not None else {}
        self.used: dict[str, Any] = {}
        self.compiled = False

    def exec(self, source: Any, globals: Any = None, locals: Any = None) -> None:
        if type(source) is not str:
            exec(source, globals, locals)  # what dataclasses asked for, unchanged
            return
        code = self.stored.get(source)
        if code is None:
            # dont_inherit: this module's own `from __future__ import annotations` must not reach the
            # code (dataclasses.py has none; with it, __init__'s annotations would be strings).
            code = compile(source, "<string>", "exec", dont_inherit=True)
            self.compiled = True
        self.used[source] = code
        exec(code, globals, locals)  # the code of exactly this text


def cache_file(folder: str) -> str:
    from _frozen_importlib_external import MAGIC_NUMBER

    return os.path.join(folder, f"{PREFIX}{MAGIC_NUMBER.hex()}.marshal")


def install(folder: str | None = None) -> CompiledOnce:
    """Hand dataclasses the cached code until :func:`finish`; ``folder``: bashlex_tables' cache folder."""
    import dataclasses

    from harness.agent import guard_caches

    compiled = CompiledOnce(cache_file(guard_caches.folder() if folder is None else folder))
    dataclasses.exec = compiled.exec  # type: ignore[attr-defined]  # found before the builtin by _create_fn
    return compiled


def finish(compiled: CompiledOnce) -> None:
    """dataclasses' own exec() back; the cache rewritten when something had to be compiled."""
    import dataclasses

    if getattr(dataclasses, "exec", None) == compiled.exec:
        del dataclasses.exec  # type: ignore[attr-defined]
    if compiled.compiled and compiled.path is not None:
        merged = {**compiled.stored, **compiled.used}
        write(compiled.path, merged if len(merged) <= MAX_ENTRIES else compiled.used)


def read(path: str) -> dict[str, Any]:
    """The cached {source text: code}, or {} when the file is missing, oversized, corrupt or not of this layout."""
    from types import CodeType
    from zlib import crc32

    try:
        with open(path, "rb") as f:
            data = f.read(MAX_BYTES + 1)
    except OSError:
        return {}
    if not 4 < len(data) <= MAX_BYTES or crc32(data[:-4]) != int.from_bytes(data[-4:], "big"):
        return {}
    try:
        stored = marshal.loads(data[:-4])
    except (EOFError, ValueError, TypeError):
        return {}
    if type(stored) is not dict or len(stored) > MAX_ENTRIES \
            or not all(type(k) is str and type(v) is CodeType for k, v in stored.items()):
        return {}
    return stored


def write(path: str, codes: dict[str, Any]) -> None:
    """Write ``codes`` atomically (a reader sees the old file or the new one). Never raises."""
    from zlib import crc32

    try:
        data = marshal.dumps(codes)
        data += crc32(data).to_bytes(4, "big")
        if len(data) > MAX_BYTES:
            return
        os.makedirs(os.path.dirname(path), exist_ok=True)
        tmp = f"{path}.{os.getpid()}.tmp"  # one writer per process: no clash
        try:
            with open(tmp, "wb") as f:
                f.write(data)
            os.replace(tmp, path)
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise
    except (OSError, ValueError):
        pass  # an unwritable cache folder: the next import compiles again
