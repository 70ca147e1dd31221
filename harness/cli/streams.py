"""Output any locale can carry: what stdout or stderr's encoding cannot hold degrades to ASCII.

The harness writes em dashes, arrows and ellipses, and repeats what users wrote in any script.
Under a Latin-1 (or other narrow) locale a plain write of them raises UnicodeEncodeError, so
`harness status` would crash on the `—` of its own `Next:` line. Here, once per process and in
one place, each stream whose encoding cannot carry that text is told to replace what it cannot
encode: a known symbol by its ASCII look-alike (`—` → `--`), an accented letter by its base letter,
anything else by `?`. A UTF-8 stream writes every character as before. An ASCII stream is reopened under
an alias of ASCII (click would otherwise write UTF-8 to it, taking "ascii" for a misconfiguration).
"""

from __future__ import annotations

import codecs
import sys

ERRORS = "harness-ascii"      # the error handler every narrow stream is given
_ASCII_ALIAS = "harness_ascii"  # ASCII under a name click does not take for a misconfiguration
# What the harness itself writes, in ASCII; checked against every stream before anything is changed.
FALLBACKS = {"—": "--", "–": "-", "→": "->", "←": "<-", "⇄": "<->", "…": "...", "·": "-", "✓": "ok", "✗": "x",
             "“": '"', "”": '"', "‘": "'", "’": "'", "≥": ">=", "≤": "<=", "×": "x"}
_PROBE = "".join(FALLBACKS)


def ascii_fallback(char: str) -> str:
    """``char`` in ASCII: its look-alike, else its letters without their accents, else `?`."""
    if char in FALLBACKS:
        return FALLBACKS[char]
    import unicodedata

    plain = unicodedata.normalize("NFKD", char).encode("ascii", "ignore").decode("ascii")
    return plain if plain.isprintable() and plain else "?"


def _replace(exc: UnicodeError) -> tuple[str, int]:
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    text = exc.object[exc.start:exc.end]
    # A lone surrogate (a byte no decoding could read, kept by surrogateescape) is no character: `?`.
    return "".join("?" if "\ud800" <= c <= "\udfff" else ascii_fallback(c) for c in text), exc.end


def _search(name: str) -> codecs.CodecInfo | None:
    if name.replace("-", "_") != _ASCII_ALIAS:
        return None
    ascii_codec = codecs.lookup("ascii")
    return codecs.CodecInfo(name=_ASCII_ALIAS, encode=ascii_codec.encode, decode=ascii_codec.decode,
                            incrementalencoder=ascii_codec.incrementalencoder,
                            incrementaldecoder=ascii_codec.incrementaldecoder,
                            streamreader=ascii_codec.streamreader, streamwriter=ascii_codec.streamwriter)


def _register() -> None:
    from harness import context

    memo = context.process()  # codecs are registered for the process, once
    if not memo.codecs_registered:
        codecs.register_error(ERRORS, _replace)
        codecs.register(_search)
        memo.codecs_registered = True


def carries(encoding: str | None) -> bool:
    """Whether text in ``encoding`` holds every symbol the harness writes."""
    try:
        _PROBE.encode(encoding or "ascii")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def degrade_to_ascii() -> None:
    """Make stdout and stderr replace what their encoding cannot carry (idempotent). A stream that
    carries every symbol still gets the handler when it is strict: a lone surrogate (a byte of a
    name that is not UTF-8, kept by surrogateescape) then prints as `?` rather than crashing the
    command. One that cannot be reconfigured, or is lenient already, is left alone."""
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        encoding, errors = getattr(stream, "encoding", None), getattr(stream, "errors", None)
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is None or errors == ERRORS or (carries(encoding) and errors != "strict"):
            continue
        _register()
        try:
            if not carries(encoding) and codecs.lookup(encoding or "ascii").name == "ascii":
                reconfigure(encoding=_ASCII_ALIAS, errors=ERRORS)
            else:
                reconfigure(errors=ERRORS)
        except (LookupError, ValueError, OSError):
            continue  # a stream that will not change: output stays as it was
