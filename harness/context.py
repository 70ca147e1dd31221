"""One command's context, built at the edge and read below it — the package's only state between calls.

A command's own: who hears that the command waits for the store's lock, where the digests of
schema-valid files are kept for the next command. The edge (``harness.cli.main``, the hook answers
in ``harness.cli.launch``) opens a context per command with :func:`command` and passes it down: the
task store it builds holds it, and a lock's reporter is a parameter of the lock. Whose signatures
count is built at the edge too and passed down as a value of its own
(:class:`harness.signatures.trust.Signers`). One reader below the edge still asks for the context
with :func:`current`: the valid-digest cache's (every schema check); tests/test_explicit_context.py
holds the list. So a process that runs many commands (the test suite runs the CLI in-process; so
can any embedding program) never carries one command's lock reporter or cache into the next.

The process's own (:class:`Process`), shared by every command it runs: what is true of exact bytes
stays true (a YAML text's parse, a ledger's validation, a schema-valid digest), so those memos
outlive a command, bounded by the modules that fill them; and what the operating system holds for
the process (the store locks it holds, the codecs it registered, the installer steps it took).
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing's own costs a hook more than this module: its names are for mypy only
if TYPE_CHECKING:
    from collections import OrderedDict
    from collections.abc import Callable
    from pathlib import Path
    from typing import Any

# Plain classes and no imports: this module is on the hooks' fast paths, where
# `dataclasses` (it imports `inspect`), `pathlib` or `contextlib` would cost more than the answer.


class Process:
    """What the process holds, shared by every command it runs."""

    def __init__(self) -> None:
        from collections import OrderedDict

        self.yaml_parsed: OrderedDict[Any, bytes] = OrderedDict()  # harness.store.yamlio
        self.yaml_bytes = 0
        self.ledgers: dict[str, list[Any]] = {}  # harness.store.ledger_memo
        self.blobs: OrderedDict[Any, bytes] = OrderedDict()  # harness.gitio.blob_memo
        self.blob_bytes = 0
        self.valid_digests: set[str] = set()  # harness.store.validate
        self.locks_held: dict[str, bool] = {}  # lock file -> held exclusively (harness.store.fsio)
        self.codecs_registered = False  # harness.cli.streams
        self.installer_steps = 0  # harness.store.crashpoint


class Context:
    """One command's own."""

    def __init__(self, on_lock_wait: Callable[[str], None] | None = None) -> None:
        self.on_lock_wait = on_lock_wait
        self.valid_cache: Path | None = None  # where schema-valid digests are appended for later commands

    @property
    def process(self) -> Process:
        return process()


# One slot for the process, not a ContextVar: a thread the command starts sees the command (a new
# thread starts with an empty ContextVar, so it would write valid digests to no cache).
# The CLI runs one command at a time; a program that runs commands on threads at once shares this.
_PROCESS: Process | None = None
_NOW: Context | None = None


def process() -> Process:
    """The process's own, made when first asked for (a hook that needs none of it pays nothing)."""
    global _PROCESS
    if _PROCESS is None:
        _PROCESS = Process()
    return _PROCESS


def current() -> Context:
    """The context of the command running now; outside any, one for the process (a library caller)."""
    global _NOW
    if _NOW is None:
        _NOW = Context()
    return _NOW


class command:  # lower case: used as `with context.command(...)`, as contextlib's helpers are
    """A fresh context for one command (nothing of the previous command's), current inside the block."""

    def __init__(self, on_lock_wait: Callable[[str], None] | None = None) -> None:
        self.ctx = Context(on_lock_wait=on_lock_wait)
        self._before: Context | None = None

    def __enter__(self) -> Context:
        global _NOW
        self._before, _NOW = _NOW, self.ctx
        return self.ctx

    def __exit__(self, *exc: object) -> None:
        global _NOW
        _NOW = self._before
