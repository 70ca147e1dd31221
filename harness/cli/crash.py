"""The hooks' last line of defence: an unexpected error becomes a crash log and an answer that
fails closed, never a traceback and an exit code the caller reads as "go ahead".

An agent host takes exit 1 (a crash) as an allow, so a hook that crashed let through the very
command it guards; git takes any non-zero as a refusal, but a traceback is no reason. So every
hook entry point runs inside :func:`guard`, whose ``answer`` says "no" in the caller's own terms
(a deny, a block once, a one-line refusal) with the crash log's path, as pre-commit's error
handler does.
"""

from __future__ import annotations

import sys

from harness.errors import EXIT_INVALID

TYPE_CHECKING = False  # typing itself is not imported: the agent's guard answers a `Read` through here
if TYPE_CHECKING:
    from collections.abc import Callable
    from types import TracebackType

# What an answer that could not even be given exits with: git refuses on any non-zero, and
# exit 2 is the one code every agent host takes as a block.
LAST_RESORT = EXIT_INVALID


def guard(answer: Callable[[str], int], expected: tuple[type[BaseException], ...] = (),
          stdin: Callable[[], str | None] = lambda: None) -> Guard:
    """Run the block; an exception not ``expected`` (those the caller reports itself) is written
    to a crash log and answered by ``answer(reason)``, whose exit code ends the process
    (SystemExit, as pre-commit's handler exits). KeyboardInterrupt and SystemExit pass."""
    return Guard(answer, expected, stdin)


class Guard:
    """:func:`guard`'s context manager: a class, not contextlib's decorator, whose import the
    agent's guard would pay for on every tool call."""

    def __init__(self, answer: Callable[[str], int], expected: tuple[type[BaseException], ...],
                 stdin: Callable[[], str | None]) -> None:
        self.answer, self.expected, self.stdin = answer, expected, stdin

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if exc is None or isinstance(exc, self.expected) or not isinstance(exc, Exception):
            return  # no error, one the caller reports, or an interrupt or exit: it goes on as raised
        if from_interrupt(exc):
            return  # Ctrl-C during a lazy import: the entry point reports an interrupt
        raise SystemExit(_answer_crash(exc, self.answer, self.stdin)) from None


def from_interrupt(exc: BaseException) -> bool:
    """Whether ``exc`` came of a Ctrl-C: one during a lazy import (pygit2 on first use) leaves the
    module half made, and the `except pygit2.GitError` that then reads it raises AttributeError."""
    seen: set[int] = set()
    cause: BaseException | None = exc
    while cause is not None and id(cause) not in seen:
        if isinstance(cause, KeyboardInterrupt):
            return True
        seen.add(id(cause))
        cause = cause.__cause__ or cause.__context__
    return False


def _answer_crash(exc: Exception, answer: Callable[[str], int], stdin: Callable[[], str | None]) -> int:
    from harness import crashlog

    # In the current directory's git dir: where git runs its hooks, and an agent host its own.
    try:
        log = crashlog.write(exc, stdin=stdin())
    except Exception:  # stdin() failing must not cost the answer
        log = crashlog.write(exc)
    reason = f"internal error ({crashlog.describe(exc)})" + (f", crash log: {log}" if log else "")
    try:
        return answer(reason)
    except Exception:  # even the answer failed (a closed stdout): still refuse, on stderr if it takes it
        try:
            print(f"harness: {reason}", file=sys.stderr)
        except Exception:
            pass
        return LAST_RESORT


def refuse(reason: str) -> int:
    """A git hook's answer: one line on stderr, non-zero (a refusal where git can refuse)."""
    print(f"harness: {reason}", file=sys.stderr)
    return LAST_RESORT
