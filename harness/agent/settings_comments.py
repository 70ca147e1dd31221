"""Comments in a settings file whose host reads them, kept where they stand when the harness's entries change.

Gemini CLI loads its settings through strip-json-comments: `//` to the end of the line and `/* … */`, anywhere
outside a string, are not part of the JSON (a trailing comma still is an error). Here a file's comments are
taken out, with the blank line or the spaces each leaves, to read what is left as the strict JSON settings_text
writes back exactly; the harness's change to that text is then made to the file itself, between its comments.
A change that would have to cross one (a note written inside the harness's own entry) is refused, naming it.
"""

from __future__ import annotations

import bisect
import difflib
from dataclasses import dataclass

CHAR_DIFF_LIMIT = 4_000  # matching characters costs about the product of the lengths: beyond, lines only


class CrossesComment(ValueError):
    """The change cannot be made without removing or splitting one of the user's comments."""


@dataclass(frozen=True)
class Commented:
    text: str                          # the file as it is
    plain: str                         # the file without its comments
    kept: tuple[tuple[int, int], ...]  # the spans of text outside the comments, in order
    starts: tuple[int, ...]            # where each kept span begins in ``plain``

    def at(self, index: int) -> int:
        """Where the character ``index`` of the text without comments stands in the file."""
        span = bisect.bisect_right(self.starts, index) - 1
        return self.kept[span][0] + index - self.starts[span]


def strip(text: str) -> Commented | None:
    """The file's comments taken out (None when it has none); ValueError for a `/*` never closed."""
    comments = _comments(text)
    if not comments:
        return None
    cut = [_widened(text, a, b) for a, b in comments]
    kept, at = [], 0
    for a, b in cut:
        if a > at:
            kept.append((at, a))
        at = max(at, b)
    if at < len(text):
        kept.append((at, len(text)))
    starts, total = [], 0
    for a, b in kept:
        starts.append(total)
        total += b - a
    return Commented(text, "".join(text[a:b] for a, b in kept), tuple(kept), tuple(starts))


def splice(source: Commented, new_plain: str) -> str:
    """The file with its text outside the comments made ``new_plain``, every comment where it was."""
    out, at = [], 0  # the file copied up to ``at``
    for i1, i2, new_text in _edits(source, new_plain):
        # An insertion goes right after the character before it: never into the comment that ends its line.
        start = source.at(i1) if i2 > i1 else (source.at(i1 - 1) + 1 if i1 else 0)
        out.append(source.text[at:start] + new_text)
        at = source.at(i2 - 1) + 1 if i2 > i1 else start
    result = "".join(out) + source.text[at:]
    check = strip(result)
    if check is None or check.plain != new_plain or _comment_texts(check) != _comment_texts(source):
        raise CrossesComment("the change could not be placed between its comments")  # never written so
    return result


def _edits(source: Commented, new: str) -> list[tuple[int, int, str]]:
    """(start, end, replacement) in the text without comments, none of them across a comment: the one stretch
    that differs, else each run of lines that differs, each cut to what differs in it; a line's trailing
    comment stays on its line (see _around_line_comment)."""
    old = source.plain
    out = _placed(source, *_trimmed(old, new, 0, len(old), 0, len(new)))
    if any(_crossed(source, a, b) for a, b, _ in out):
        out = [e for a, b, t in _opcodes(old, new, "line", 0) for e in _placed(source, a, b, t)]
    crossed = next((a for a, b, _ in out if _crossed(source, a, b)), None)
    if crossed is not None:
        raise CrossesComment(_naming(source, crossed))
    return out


def _placed(source: Commented, i1: int, i2: int, text: str) -> list[tuple[int, int, str]]:
    """One change as edits beside the comments, matched again by characters when it is short enough."""
    out = _around_line_comment(source, i1, i2, text)
    if any(_crossed(source, a, b) for a, b, _ in out) and max(i2 - i1, len(text)) <= CHAR_DIFF_LIMIT:
        out = [e for a, b, t in _opcodes(source.plain[i1:i2], text, "char", i1)
               for e in _around_line_comment(source, a, b, t)]
    return out


def _opcodes(old: str, new: str, unit: str, base: int) -> list[tuple[int, int, str]]:
    """Where ``old`` (at ``base``) and ``new`` differ, matched by characters or by lines."""
    a, b = (old, new) if unit == "char" else (old.splitlines(keepends=True), new.splitlines(keepends=True))
    at_a, at_b = _offsets(a), _offsets(b)
    return [(base + at_a[x1], base + at_a[x2], new[at_b[y1]:at_b[y2]]) for tag, x1, x2, y1, y2 in
            difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes() if tag != "equal"]


def _trimmed(old: str, new: str, i1: int, i2: int, j1: int, j2: int) -> tuple[int, int, str]:
    """old[i1:i2] -> new[j1:j2] without what they begin with alike, then without what they end with alike."""
    while i1 < i2 and j1 < j2 and old[i1] == new[j1]:
        i1, j1 = i1 + 1, j1 + 1
    while i1 < i2 and j1 < j2 and old[i2 - 1] == new[j2 - 1]:
        i2, j2 = i2 - 1, j2 - 1
    return i1, i2, new[j1:j2]


def _around_line_comment(source: Commented, i1: int, i2: int, text: str) -> list[tuple[int, int, str]]:
    """The edit as edits that keep each comment before its line's end: a newline of the old text next to a
    comment stays, and the new text is cut at one of its own newlines around it (what went before a comment that
    ends a line, `,` after the last value, stays before it; the lines added or taken out go after it)."""
    old, out = source.plain, []
    while True:
        head, newline, tail = text.partition("\n")
        if i1 and i1 < len(old) and old[i1] == "\n" and _gap_before(source, i1) and _comma(head) and newline:
            out.append((i1, i1, head))  # before the comment; the old newline after it stays
            i1, text = i1 + 1, tail if i2 > i1 else tail + "\n"
            i2 = max(i2, i1)
            continue
        gap = next((k for k in range(i1 + 1, i2) if _gap_before(source, k) and old[k] == "\n"), None)
        if gap is not None and _comma(old[i1:gap]) and _comma(head) and newline:
            out.append((i1, gap, head))
            i1, text = gap + 1, tail
            continue
        if gap is not None and _comma(old[i1:gap]) and _comma(text) and i2 < len(old) and old[i2] == "\n":
            out.append((i1, gap, text))
            i1, i2, text = gap + 1, i2 + 1, ""
            continue
        out.append((i1, i2, text))
        return out


def _comma(text: str) -> bool:
    """All that may change before a comment that ends its line: the `,` after a value, added or taken out (any
    more would leave the comment beside other words than its own)."""
    return text in ("", ",")


def _gap_before(source: Commented, index: int) -> bool:
    return source.at(index) != source.at(index - 1) + 1


def _crossed(source: Commented, i1: int, i2: int) -> bool:
    return i2 > i1 and source.at(i2 - 1) - source.at(i1) != i2 - 1 - i1


def _offsets(parts: str | list[str]) -> list[int]:
    out = [0]
    for part in parts:
        out.append(out[-1] + len(part))
    return out


def _naming(source: Commented, index: int) -> str:
    """The first comment after the character ``index`` of the text without comments, by its line and words."""
    span = bisect.bisect_right(source.starts, index) - 1
    gap_start, gap_end = source.kept[span][1], source.kept[span + 1][0]
    gap = source.text[gap_start:gap_end]
    first = gap_start + len(gap) - len(gap.lstrip())
    line = source.text.count("\n", 0, first) + 1
    return f"your comment on line {line} ({gap.strip()[:60]!r}) lies inside what the harness would change"


def _comment_texts(source: Commented) -> list[str]:
    return [source.text[a:b] for a, b in _comments(source.text)]


def _comments(text: str) -> list[tuple[int, int]]:
    """The comments' spans, read as strip-json-comments reads them: a `"` not escaped opens or closes a string."""
    spans, i, n, in_string = [], 0, len(text), False
    while i < n:
        c = text[i]
        if in_string:
            if c == "\\":
                i += 1
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            spans.append((i, end))
            i = end
            continue
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            if end < 0:
                raise ValueError(f"a /* comment on line {text.count(chr(10), 0, i) + 1} is never closed")
            spans.append((i, end + 2))
            i = end + 2
            continue
        i += 1
    return spans


def _widened(text: str, a: int, b: int) -> tuple[int, int]:
    """A comment's span with what it leaves behind: its whole line when nothing else is on it, else the spaces
    on the side away from the JSON (before a trailing comment, after a leading one)."""
    line_start = text.rfind("\n", 0, a) + 1
    line_end = text.find("\n", b)
    line_end = len(text) if line_end < 0 else line_end
    before, after = text[line_start:a], text[b:line_end]
    if not before.strip(" \t") and not after.strip(" \t"):
        return line_start, min(line_end + 1, len(text))
    if not before.strip(" \t"):
        return a, b + len(after) - len(after.lstrip(" \t"))
    return a - (len(before) - len(before.rstrip(" \t"))), b
