"""A plainly written command line split into its pipelines' words without bashlex.

Pure. Most command lines an agent's guard judges are plain (`git add -A && git commit -m 'fix it'`,
`rm -rf build`), and importing bashlex cost such a call more than all the rest of its judging. A line
of plain words alone is read here: words of letters, digits and `_./=,:+@%-`, each possibly ending in
one quoted part (`'…'` or `"…"` holding no quote, backslash, `$`, backtick or line break), separated
by spaces and joined by `&&`, `||`, `;` and `|`. Anything else (another character, an empty command, a
reserved word, an assignment before the command) gives None, and the caller parses the line with
bashlex as before. Within those bounds the words are the ones bashlex gives, in its order (quirks
included: bashlex keeps a quote inside another kind of quote, or reads `$(…)` inside single quotes
after a word's plain start, so none of those is taken here); tests/test_guard_reads_plain_lines_without_bashlex.py
holds the two equal by example and by fuzzing.
"""

from __future__ import annotations

WORD = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./=,:+@%-")
# Inside quotes, besides WORD and the space: what both kinds of quote keep as it is (`!` is history
# expansion inside double quotes).
QUOTED = {"'": WORD | frozenset(" \t()#!?*[]{}<>&|;~^"), '"': WORD | frozenset(" \t()#?*[]{}<>&|;~^")}
# Words bash reads as the start or part of a compound command (and the shell_commands.RESERVED ones).
RESERVED = frozenset({"case", "coproc", "do", "done", "elif", "else", "esac", "fi", "for", "function", "if", "in",
                      "select", "then", "time", "until", "while", "{", "}", "!", "[[", "]]"})
ENDS_A_WORD = " &|;"

Pipeline = list[tuple[str, ...]]  # the words of each command a pipeline runs, in order


def pipelines(text: str) -> list[Pipeline] | None:
    """The pipelines ``text`` runs, each the words of its commands; None when the line is not plain."""
    tokens = _tokens(text)
    if not tokens:
        return None
    found: list[Pipeline] = []
    pipeline: Pipeline = []
    words: list[str] = []
    for token, is_operator in [*tokens, (";", True)]:
        if not is_operator:
            if token in RESERVED:
                return None
            words.append(token)
            continue
        if not words or "=" in words[0]:  # an empty command, or an assignment bashlex reads as one
            return None
        pipeline.append(tuple(words))
        words = []
        if token != "|":
            found.append(pipeline)
            pipeline = []
    return found


def operators(text: str) -> list[str] | None:
    """The operators joining a plain line's commands (`&&`, `||`, `;`, `|`), in order; None when not plain."""
    tokens = _tokens(text) if pipelines(text) is not None else None
    return None if tokens is None else [token for token, is_operator in tokens if is_operator]


def _tokens(text: str) -> list[tuple[str, bool]] | None:
    """(word after quote removal, False) and (operator, True) in order, or None."""
    out: list[tuple[str, bool]] = []
    i, end = 0, len(text)
    while i < end:
        c = text[i]
        if c == " ":
            i += 1
        elif c in "&|;":
            op = text[i:i + 2] if text[i:i + 2] in ("&&", "||") else c
            if op == "&":
                return None  # a command sent to the background: bashlex's to read
            out.append((op, True))
            i += len(op)
        else:
            word, i = _word(text, i)
            if word is None:
                return None
            out.append((word, False))
    return out


def _word(text: str, start: int) -> tuple[str | None, int]:
    """The word at ``start`` with its quotes removed and where it ends, or (None, start)."""
    j, end = start, len(text)
    while j < end and text[j] in WORD:
        j += 1
    word = text[start:j]
    if j < end and text[j] in QUOTED:
        quote = text[j]
        close = text.find(quote, j + 1)
        if close < 0 or not QUOTED[quote].issuperset(text[j + 1:close]):
            return None, start
        word += text[j + 1:close]
        j = close + 1
    elif j == start:
        return None, start
    if j < end and text[j] not in ENDS_A_WORD:
        return None, start
    return word, j
