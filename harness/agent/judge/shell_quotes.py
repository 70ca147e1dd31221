"""Where bash reads a line's characters as code, and where as quoted text, an escape or a comment.

Pure. One walk of the text as bash tracks its quotes (`'…'`, `"…"`, `$'…'`), its escapes, the substitutions and
groups inside which it reads code again, even within double quotes (`$(…)`, backticks, `<(…)`, `>(…)`, `(…)`), and
its comments (a `#` that starts a word, to the end of the line: after code that ends a word, not after an escaped
blank or operator, `\\ #`, `a\\;#`; F-0272), and its arithmetic (`$((…))`, `((…))`, where `<<` is a shift, no
here-document; F-0273). The fallback reader sets the substitutions of a line aside and drops its comments by it
(F-0250, F-0251); the here-document reader takes only a `<<` it reads as code for one (F-0252). One scanner for
both, so the two never disagree on what is quoted.
"""

from __future__ import annotations

from collections.abc import Iterator

# What opens a context, longest first: a quote, or a substitution or group whose text bash reads as code.
OPENERS = ("$((", "$'", "$(", "<(", ">(", "((", "'", '"', "`", "(")
CLOSES_WITH_PAREN = frozenset({"$(", "<(", ">(", "("})
# Arithmetic, closed by `))`: its `<<` is a shift and its `#` a base (`16#ff`), neither a here-document nor a comment.
ARITHMETIC = frozenset({"$((", "(("})
# The characters after which a `#` starts a word, and so a comment (`a#b` and `${#x}` hold no comment).
WORD_START = frozenset(" \t\n;&|(")


def scan(text: str, stack: tuple[str, ...] = ()) -> Iterator[tuple[int, int, str, tuple[str, ...]]]:
    """Each piece of ``text``, read in the contexts ``stack`` (the openers still open where it starts), as
    (start, end, kind, the contexts open after it). kind: "code"; "quoted" (a character inside quotes); "escape"
    (a backslash and what it escapes); "joined" (a backslash-newline, which bash drops); "comment" (from its `#` to
    the end of the line, the newline left out); "open" (text[start:end] is an opener); "close"."""
    i, previous = 0, ""
    while i < len(text):
        kind, end = _piece(text, i, stack[-1] if stack else "", previous)
        if kind == "open":
            stack = (*stack, text[i:end])
        elif kind == "close":
            stack = stack[:-1]
        yield i, end, kind, stack
        i, previous = end, kind


def code_positions(text: str, stack: tuple[str, ...] = ()) -> tuple[frozenset[int], tuple[str, ...]]:
    """The indices of ``text`` bash reads as code (not quoted, escaped nor commented, nor arithmetic), and the
    contexts still open at its end (a quote the next line goes on in)."""
    code, after = set(), stack
    for start, _, kind, after in scan(text, stack):  # (the last piece's after is the stack at the end)
        if kind == "code" and not ARITHMETIC & set(after):
            code.add(start)
    return frozenset(code), after


def _piece(text: str, i: int, top: str, previous: str = "") -> tuple[str, int]:
    """The kind of the piece at ``i`` in the context ``top`` ("" at the line's top level), and where it ends;
    ``previous`` is the kind of the piece before it ("" at the start of the text)."""
    c = text[i]
    if top == "'":  # nothing is special in single quotes but the closing one
        return ("close" if c == "'" else "quoted"), i + 1
    if c == "\\" and i + 1 < len(text):
        return ("joined" if text[i + 1] == "\n" and top != "$'" else "escape"), i + 2
    if top in ("$'", '"'):
        if c == top[-1]:
            return "close", i + 1
        # `$((` before `$(`: arithmetic in double quotes too, where `<<` is a shift (read 80's F-0280)
        opener = next((o for o in ("$((", "$(", "`") if top == '"' and text.startswith(o, i)), None)
        return ("open", i + len(opener)) if opener else ("quoted", i + 1)
    if (c == "`" and top == "`") or (c == ")" and top in CLOSES_WITH_PAREN):
        return "close", i + 1
    if top in ARITHMETIC and text.startswith("))", i):
        return "close", i + 2
    if c == "#" and top not in ARITHMETIC and _starts_a_word(text, i, previous):
        end = text.find("\n", i)
        return "comment", end if end >= 0 else len(text)
    opener = next((o for o in OPENERS if text.startswith(o, i)), None)
    return ("open", i + len(opener)) if opener else ("code", i + 1)


def _starts_a_word(text: str, i: int, previous: str) -> bool:
    """Whether the character at ``i`` starts a word: at the start of the text, or after a blank, operator or opening
    parenthesis read as code. After an escape it goes on the escaped character's word (`\\ #`, `a\\;#`; F-0272)."""
    return not previous or (previous in ("code", "open") and text[i - 1] in WORD_START)
