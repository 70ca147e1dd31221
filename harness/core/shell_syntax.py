"""Whether a command written as one string means something only a shell gives it.

Split into arguments without a shell, `pytest -q && echo ok` runs pytest with the arguments
`&&`, `echo` and `ok`; `pytest | tee log` hands pytest a `|`. Such a string must run in a
shell (and be recorded so) or be refused, never quietly run as something else.
"""

from __future__ import annotations

import shlex

OPERATORS = frozenset("();<>|&")


def shell_syntax(text: str) -> str | None:
    """The first piece of shell syntax outside quotes in ``text`` (an operator, a redirection, a
    command substitution or a variable), or None when splitting it like a shell changes nothing."""
    lexer = shlex.shlex(text, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    try:
        tokens = list(lexer)
    except ValueError:
        return None  # unbalanced quotes: the splitter refuses it with its own message
    for token in tokens:
        if token and set(token) <= OPERATORS:
            return token
    unquoted = _unquoted(text)
    for mark in ("$(", "`", "${"):
        if mark in unquoted:
            return mark
    at = unquoted.find("$")
    if at != -1 and at + 1 < len(unquoted) and (unquoted[at + 1].isalpha() or unquoted[at + 1] == "_"):
        return unquoted[at:].split()[0]
    return None


def _unquoted(text: str) -> str:
    """``text`` with single-quoted parts removed (a shell expands nothing there)."""
    out, quoted = [], False
    for char in text:
        if char == "'":
            quoted = not quoted
        elif not quoted:
            out.append(char)
    return "".join(out)
