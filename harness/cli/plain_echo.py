"""click.echo's output without importing click, for the commands answered before click loads.

click.echo writes the text and a newline to the stream as it is, and flushes, when the stream
has an encoding other than ASCII and an error handler (degrade_to_ascii gives every narrow stream
both), and the text holds no escape code (which it strips when the stream is no terminal). In
every other case the text is handed to click.echo itself, so that the two never differ.
"""

from __future__ import annotations

import json
import sys


def report_lock_waits() -> None:
    """A wait for the store's lock is said on stderr, as click's commands say it (the command's context
    carries whom the store tells)."""
    from harness import context

    context.current().on_lock_wait = lambda message: echo(message, err=True)


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
