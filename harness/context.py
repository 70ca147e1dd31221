"""One command's context, built at the edge and read below it — the package's only state between calls.

A command's own: who hears that the command waits for a lock (or that an interrupted write was not
applied), and how long it may wait for one. The edge (``harness.cli.main``, the
hook answers in ``harness.cli.launch``) opens a context per command with :func:`command` and passes
it down: the task store it builds holds it, and a lock's reporter is a parameter of the lock. What
else a command is built from is passed down as values of their own: whose signatures count
(:class:`harness.signatures.trust.Signers`), and where the digests of schema-valid files are kept
(named by the source a file is read from: the task store's working tree, the hooks' repository).
Only the edge asks for the command running now (:func:`current`; tests/test_explicit_context.py
holds it). So a process that runs many commands (the test suite runs the CLI in-process; so can
any embedding program) never carries one command's lock reporter into the next.

The process's own (:class:`Process`), shared by every command it runs: what is true of exact bytes
stays true (a YAML text's parse, a ledger's validation, a schema-valid digest, what a cache file of
such digests lists), so those memos
outlive a command, bounded by the modules that fill them; and what the operating system holds for
the process (the store locks it holds, the codecs it registered, the installer steps it took).
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing's own costs a hook more than this module: its names are for mypy only
if TYPE_CHECKING:
    from collections import OrderedDict
    from collections.abc import Callable
    from typing import Any

# Plain classes and no imports: this module is on the hooks' fast paths, where
# `dataclasses` (it imports `inspect`), `pathlib` or `contextlib` would cost more than the answer.


class Process:
    """What the process holds, shared by every command it runs."""

    def __init__(self) -> None:
        from collections import OrderedDict

        self.yaml_parsed: OrderedDict[Any, bytes] = OrderedDict()  # harness.store.yamlio
        self.yaml_bytes = 0
        self.agreed: dict[Any, Any] = {}  # harness.store.commit_docs: finding files that agree, by their blob's id
        self.agreed_bytes = 0
        self.ledgers: dict[str, list[Any]] = {}  # harness.store.ledger_memo
        self.blobs: OrderedDict[Any, bytes] = OrderedDict()  # harness.gitio.blob_memo
        self.blob_bytes = 0
        self.listings: dict[str, Any] = {}  # harness.gitio.tree_source: a folder's parsed listing, by its id
        self.listed_entries = 0
        self.valid_digests: set[str] = set()  # harness.store.validate: checked by this process
        self.valid_listed: dict[str, set[str]] = {}  # harness.store.validate: cache file -> the digests it lists
        self.locks_held: dict[str, bool] = {}  # lock file -> held exclusively (harness.store.fsio)
        self.codecs_registered = False  # harness.cli.streams
        self.installer_steps = 0  # harness.store.crashpoint
        # What reaping runs killed that had left their command's process group (harness.runner, F-0296): taken by
        # the re-run guard (harness.history.rerun.isolation), which does not see every such run's result.
        self.left_running: list[str] = []


class Context:
    """One command's own."""

    def __init__(self, on_lock_wait: Callable[[str], None] | None = None, lock_deadline: float | None = None) -> None:
        # Whom the store tells what the command must hear on stderr: that it waits for a lock, that an
        # interrupted write was not applied.
        self.on_lock_wait = on_lock_wait
        # A time.monotonic() reading past which no lock is waited for (an agent hook's: its host cancels it
        # later); None: as long as HARNESS_LOCK_TIMEOUT allows.
        self.lock_deadline = lock_deadline

    @property
    def process(self) -> Process:
        return process()


# One slot for the process, not a ContextVar: a thread the command starts sees the command (a new
# thread starts with an empty ContextVar, so its waits for a lock would go unsaid).
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
