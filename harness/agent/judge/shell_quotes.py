"""Where bash reads a line's characters as code, and where as quoted text, an escape or a comment.

Pure. One walk of the text as bash tracks its quotes (`'…'`, `"…"`, `$'…'`), its escapes, the substitutions and
groups inside which it reads code again, even within double quotes (`$(…)`, backticks, `<(…)`, `>(…)`, `(…)`), and
its comments (a `#` that starts a word, to the end of the line). The fallback reader sets the substitutions of a
line aside and drops its comments by it (F-0250, F-0251); the here-document reader takes only a `<<` it reads as
code for one (F-0252). One scanner for both, so the two never disagree on what is quoted.
"""

from __future__ import annotations

from collections.abc import Iterator

# What opens a context, longest first: a quote, or a substitution or group whose text bash reads as code.
OPENERS = ("$'", "$(", "<(", ">(", "'", '"', "`", "(")
CLOSES_WITH_PAREN = frozenset({"$(", "<(", ">(", "("})
# The characters after which a `#` starts a word, and so a comment (`a#b` and `${#x}` hold no comment).
WORD_START = frozenset(" \t\n;&|(")


def scan(text: str, stack: tuple[str, ...] = ()) -> Iterator[tuple[int, int, str, tuple[str, ...]]]:
    """Each piece of ``text``, read in the contexts ``stack`` (the openers still open where it starts), as
    (start, end, kind, the contexts open after it). kind: "code"; "quoted" (a character inside quotes); "escape"
    (a backslash and what it escapes); "joined" (a backslash-newline, which bash drops); "comment" (from its `#` to
    the end of the line, the newline left out); "open" (text[start:end] is an opener); "close"."""
    i = 0
    while i < len(text):
        kind, end = _piece(text, i, stack[-1] if stack else "")
        if kind == "open":
            stack = (*stack, text[i:end])
        elif kind == "close":
            stack = stack[:-1]
        yield i, end, kind, stack
        i = end


def code_positions(text: str, stack: tuple[str, ...] = ()) -> tuple[frozenset[int], tuple[str, ...]]:
    """The indices of ``text`` bash reads as code (not quoted, escaped nor commented), and the contexts still open
    at its end (a quote the next line goes on in)."""
    code, after = set(), stack
    for start, _, kind, after in scan(text, stack):  # noqa: B007 (the last piece's is the stack at the end)
        if kind == "code":
            code.add(start)
    return frozenset(code), after


def _piece(text: str, i: int, top: str) -> tuple[str, int]:
    """The kind of the piece at ``i`` in the context ``top`` ("" at the line's top level), and where it ends."""
    c = text[i]
    if top == "'":  # nothing is special in single quotes but the closing one
        return ("close" if c == "'" else "quoted"), i + 1
    if c == "\\" and i + 1 < len(text):
        return ("joined" if text[i + 1] == "\n" and top != "$'" else "escape"), i + 2
    if top in ("$'", '"'):
        if c == top[-1]:
            return "close", i + 1
        opener = next((o for o in ("$(", "`") if top == '"' and text.startswith(o, i)), None)
        return ("open", i + len(opener)) if opener else ("quoted", i + 1)
    if (c == "`" and top == "`") or (c == ")" and top in CLOSES_WITH_PAREN):
        return "close", i + 1
    if c == "#" and (i == 0 or text[i - 1] in WORD_START):
        end = text.find("\n", i)
        return "comment", end if end >= 0 else len(text)
    opener = next((o for o in OPENERS if text.startswith(o, i)), None)
    return ("open", i + len(opener)) if opener else ("code", i + 1)
