"""click.echo's output without importing click, for the commands answered before click loads.

click.echo writes the text and a newline to the stream as it is, and flushes, when the stream
has an encoding other than ASCII and an error handler (degrade_to_ascii gives every narrow stream
both), and the text holds no escape code (which it strips when the stream is no terminal). In
every other case the text is handed to click.echo itself, so that the two never differ.
"""

from __future__ import annotations

import json
import sys


def report_lock_waits() -> list[str]:
    """A wait for the store's lock is said on stderr, as click's commands say it (the command's context
    carries whom the store tells). The list it returns fills with what was said: a path that said a wait
    does not hand the command to click, which would wait and say it again (read 125's F-0446)."""
    from harness import context

    said: list[str] = []

    def say(message: str) -> None:
        said.append(message)
        echo(message, err=True)

    context.current().on_lock_wait = say
    return said


def reader_gone() -> int:
    """The answer to a reader that went away (a pipe closed early: `harness status | head -1`), as click gives it
    in every command: exit 1, the streams' last flush at exit kept quiet (read 125's F-0447, F-0448)."""
    from click.utils import PacifyFlushWrapper  # click's own, on this failure's path alone

    sys.stdout, sys.stderr = PacifyFlushWrapper(sys.stdout), PacifyFlushWrapper(sys.stderr)  # type: ignore[operator]
    return 1


def json_text(obj: object) -> str:
    """A command's JSON output, as every `--json` prints it."""
    return json.dumps(obj, indent=2, ensure_ascii=False, sort_keys=False)


def _written_as_is(stream: object, text: str) -> bool:
    import codecs

    encoding, errors = getattr(stream, "encoding", None), getattr(stream, "errors", None)
    if sys.platform == "win32" or encoding is None or errors is None or "\x1b" in text:
        return False
    try:
        return codecs.lookup(encoding).name != "ascii"
    except LookupError:
        return True  # click takes an unknown encoding for no ASCII, and writes to the stream as is


def echo(text: str, err: bool = False) -> None:
    """``text`` and a newline on stdout (stderr with ``err``), exactly as click.echo writes them."""
    stream = sys.stderr if err else sys.stdout
    if stream is None:
        return  # no stream to write to: click writes nothing either
    if not _written_as_is(stream, text):
        import click

        click.echo(text, err=err)
        return
    stream.write(text + "\n")
    stream.flush()
