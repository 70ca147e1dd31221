"""Whether a command written as one string means something only a shell gives it.

Split into arguments without a shell, `pytest -q && echo ok` runs pytest with the arguments
`&&`, `echo` and `ok`; `pytest tests/*.py` hands pytest a literal star; a second line becomes
more arguments of the first. Such a string must run in a shell (and be recorded so) or be
refused, never quietly run as something else.
"""

from __future__ import annotations

OPERATORS = frozenset(";&|<>()\n")
GLOBS = frozenset("*?[")


def shell_syntax(text: str) -> str | None:
    """The first thing in ``text`` a POSIX shell would treat otherwise than splitting it into words
    does (an operator, a line break, a redirection, an expansion, a glob, a comment, a leading
    tilde), or None when splitting it like a shell changes nothing."""
    found = _first_special(text)
    return None if found is None else _piece(text, found[0])


def plain_head(text: str) -> str:
    """The words at the start of ``text`` that a POSIX shell takes as written: ``text`` up to the first operator,
    or up to the word holding the first other thing :func:`shell_syntax` finds (an expansion or a glob makes that
    word what the shell decides); all of it when it finds none. Split like a shell splits, they are the first words
    the shell runs."""
    found = _first_special(text)
    if found is None:
        return text
    at, begin = found
    return text[:at] if text[at] in OPERATORS else text[:begin]  # an operator ends the word before it


def _first_special(text: str) -> tuple[int, int] | None:
    """(where the first special thing is, where the word holding it starts), or None."""
    quote: str | None = None
    word_start = True
    begin = 0
    i = 0
    while i < len(text):
        char = text[i]
        if word_start and quote is None and char not in " \t":
            begin = i
        if quote == "'":
            quote = None if char == "'" else quote
        elif char == "\\":
            i += 1  # the next character is literal, inside double quotes or out
            word_start = False
        elif quote == '"':
            if char == '"':
                quote = None
            elif char == "`" or _expansion(text, i):
                return i, begin
        elif char in "'\"":
            quote, word_start = char, False
        elif char in " \t":
            word_start = True
            i += 1
            continue
        elif _special(text, i, word_start):
            return i, begin
        else:
            word_start = False
        i += 1
    return None


def _special(text: str, i: int, word_start: bool) -> bool:
    """Whether the unquoted character at ``i`` means something to a shell."""
    char = text[i]
    return (char in OPERATORS or char in GLOBS or char == "`" or _expansion(text, i)
            or (word_start and char in "#~") or (char == "{" and _brace_list(text, i)))


def _expansion(text: str, i: int) -> bool:
    """`$NAME`, `${…}`, `$(…)`, `$1`, `$?` … at ``i``."""
    nxt = text[i + 1:i + 2]
    return text[i] == "$" and bool(nxt) and (nxt.isalnum() or nxt in "_{(?!#@*$-")


def _brace_list(text: str, i: int) -> bool:
    """`{a,b}` or `{1..3}` at ``i``: a brace expansion (a lone `{` is literal)."""
    end = text.find("}", i)
    inner = text[i + 1:end] if end != -1 else ""
    return bool(inner) and ("," in inner or ".." in inner) and not any(c in inner for c in " \t'\"")


def _piece(text: str, i: int) -> str:
    word = text[i:].split(None, 1)
    return "line break" if text[i] == "\n" else (word[0] if word else text[i])
