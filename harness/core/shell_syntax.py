"""Whether a command written as one string means something only a shell gives it.

Split into arguments without a shell, `pytest -q && echo ok` runs pytest with the arguments
`&&`, `echo` and `ok`; `pytest tests/*.py` hands pytest a literal star; a second line becomes
more arguments of the first. Such a string must run in a shell (and be recorded so) or be
refused, never quietly run as something else.
"""

from __future__ import annotations

import re

OPERATORS = frozenset(";&|<>()\n")
GLOBS = frozenset("*?[")


def shell_syntax(text: str) -> str | None:
    """The first thing in ``text`` a POSIX shell would treat otherwise than splitting it into words
    does (an operator, a line break, a redirection, an expansion, a glob, a comment, a leading
    tilde), or None when splitting it like a shell changes nothing."""
    found = _first_special(text)
    return None if found is None else _piece(text, found[0])


# A redirection's operator, with the descriptor before it (`2>`, bash's `{fd}>`); its target is the next word.
_REDIRECTION = re.compile(r"(?:\d+|\{[A-Za-z_]\w*\})?(?:<<<|<<-|<<|<>|<&|>&|>>|>\||<|>)|&>>?")
# Reserved words that may stand before the first command of a pipeline and run no program themselves.
_OPENING_WORDS = frozenset({"!", "{"})


def first_command(text: str) -> str | None:
    """The words a POSIX shell takes as written at the start of the first simple command of ``text``: past blank
    and comment lines, an opening `(`, `{` or `!`, and redirections (`</dev/null`, `2>&1`, `>out`, `<<<word`),
    wherever they stand in it; up to the control operator that ends it, or up to the word holding what
    :func:`shell_syntax` finds (an expansion or a glob makes that word what the shell decides). None when the
    first command cannot be read so: the line starts with another operator, a redirection's target is not a
    word written out, or the command defines a function. Split like a shell splits, the words are the first
    the shell runs."""
    words: list[str] = []
    i = 0
    while True:
        i = _past_blanks(text, i, lines=not words)
        if i == len(text):
            return " ".join(words)
        redirection = _REDIRECTION.match(text, i)
        if redirection:
            after = _past_redirection(text, redirection)
            if after is None:
                return None
            i = after
        elif text[i] in OPERATORS:
            if text[i] == "(" and words:
                return None  # `name()`: a function's body is what runs, when it is called
            if text[i] != "(":
                return " ".join(words) if words else None
            i += 1
        else:
            end = _word_end(text, i)
            if end is None:
                return " ".join(words)  # the word the shell decides, and what follows it, are not known
            if words or text[i:end] not in _OPENING_WORDS:
                words.append(text[i:end])
            i = end


def _past_blanks(text: str, i: int, lines: bool) -> int:
    """Past blanks at ``i``; before the first word (``lines``) past line breaks and comments too."""
    while i < len(text):
        if text[i] in " \t" or (lines and text[i] == "\n"):
            i += 1
        elif lines and text[i] == "#":
            end = text.find("\n", i)
            i = len(text) if end == -1 else end
        else:
            break
    return i


def _past_redirection(text: str, operator: re.Match[str]) -> int | None:
    """Past the redirection ``operator`` begins and its target, or None when the target is no word written out
    (a substitution in it runs a command)."""
    start = _past_blanks(text, operator.end(), lines=False)
    end = _word_end(text, start)
    return None if end is None or end == start else end


def _word_end(text: str, i: int) -> int | None:
    """Where the word at ``i`` ends (an unquoted blank or operator), or None when it holds something a shell
    gives a meaning (:func:`_special`) or a quote it never closes."""
    quote: str | None = None
    start = i
    while i < len(text):
        char = text[i]
        if quote == "'":
            quote = None if char == "'" else quote
        elif char == "\\":
            i += 1  # the next character is literal, inside double quotes or out
        elif quote == '"':
            if char == "`" or _expansion(text, i):
                return None
            quote = None if char == '"' else quote
        elif char in "'\"":
            quote = char
        elif char in " \t" or char in OPERATORS:
            break
        elif _special(text, i, i == start):
            return None
        i += 1
    return None if quote else min(i, len(text))


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
