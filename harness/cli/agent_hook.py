"""`harness hook agent HOST EVENT` without click: it runs before every tool call an agent makes.

:mod:`harness.cli.launch` calls :func:`answer` before click is imported, and the click command
(:func:`harness.cli.hooks.agent_hook`) calls it too: one implementation, so the fast path and
the full path give the same answer by construction. This module imports neither click nor
anything the guard does not need; `tests/test_layering.py` pins what it may load.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # neither typing nor json is imported: a `Read` is answered without them
if TYPE_CHECKING:
    from typing import TextIO

    from harness.agent.hosts import Reply

from harness.agent.hosts import HOSTS as KNOWN  # noqa: E402 - after TYPE_CHECKING, as the guard needs it anyway

HOSTS = (*KNOWN, "auto")  # "auto": the plugin hooks file all hosts share (harness.agent.hosts.detect_host)
EVENTS = ("session-start", "pre-tool-use", "stop")


def answer(host: str, event: str) -> int:
    """Read the host's JSON on stdin, print the answer in its shape; the exit code."""
    from harness.cli import crash

    raw: list[str] = []  # stdin once read: the crash log keeps its head, the failsafe reads its host

    def failsafe(reason: str) -> int:
        try:
            from harness.agent.run import failsafe

            return give(failsafe(host, event, raw[0] if raw else "", reason, _said))
        except Exception:
            if event != "stop":
                raise  # the guard's last resort: exit 2, which every host takes as a deny
            # A stop block nothing remembers could loop forever: let the agent stop, saying why.
            import json

            _echo(json.dumps({"systemMessage": f"harness: the stop check failed ({reason}); not blocking"}))
            return 0

    # Whatever goes wrong (the input, the harness, even its imports) answers in the host's terms.
    with crash.guard(failsafe, stdin=lambda: raw[0] if raw else None):
        from harness.agent.run import run

        data = b"" if sys.stdin is None or sys.stdin.isatty() else sys.stdin.buffer.read()
        raw.append(data.decode("utf-8", "replace"))
        return give(run(host, event, raw[0], _said))


def _said(message: str) -> None:
    """A wait for a lock, said on stderr (the host shows it; stdout is the answer)."""
    _echo(message, sys.stderr)


def give(reply: Reply) -> int:
    """Print an agent hook's answer; its exit code."""
    if reply.stdout:
        _echo(reply.stdout)
    if reply.stderr:
        _echo(reply.stderr, sys.stderr)
    return reply.code


def _echo(text: str, stream: TextIO | None = None) -> None:
    out = sys.stdout if stream is None else stream
    out.write(text + "\n")
    out.flush()
