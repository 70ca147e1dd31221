"""What text a regex needs before it can match at all (pure): a cheap, exact pre-check.

Python's regex engine tries a pattern that begins with ``\\b`` or ``(?i)`` at every
position of the text; two dozen redaction rules over megabytes of output cost seconds
even when nothing matches. Most rules contain a literal every match must include
(``sk-ant-``, ``://``, one of ``password|token|...``): when none is in the text, a C
substring search proves the rule cannot match and it is skipped. The analysis is
conservative: anything it does not understand adds no requirement, so a rule it cannot
read simply always runs. Results never change, only the time.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

from harness.core.value_class import dataclass

try:  # the parser re compiles with (private, but stable since 3.11)
    from re import _constants as C  # type: ignore[attr-defined]
    from re import _parser  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - another Python: no pre-check, same results
    _parser = None


# The only non-ASCII characters that (?i) matches to an ASCII letter, and which str.lower()
# does not turn into that letter (İ lowers to two characters); a test checks every code point.
FOLD_FIXES = (("\u0130", "i"), ("\u0131", "i"), ("\u017f", "s"), ("\u212a", "k"))


def folded(text: str) -> str:
    """``text`` lower-cased so that an ASCII literal a (?i) regex matches is a substring of it."""
    if not text.isascii():
        for char, letter in FOLD_FIXES:
            if char in text:
                text = text.replace(char, letter)
    return text.lower()


@dataclass(frozen=True)
class Needs:
    """Every set in ``all_of`` must have one member in the text (lower-cased when ``fold``)."""

    fold: bool
    all_of: tuple[frozenset[str], ...]

    def may_match(self, text: str, lowered: Callable[[], str] | None = None) -> bool:
        if not self.all_of:
            return True
        if self.fold:
            hay = lowered() if lowered is not None else folded(text)
        else:
            hay = text
        # Loops, not all(any(...)): a writer asks each of a hundred rules this of every text it redacts.
        for alternatives in self.all_of:
            for s in alternatives:
                if s in hay:
                    break
            else:
                return False
        return True


def _runs(seq: object) -> list[frozenset[str]]:
    """Requirements of a parsed sequence: each a set of strings, one of which every match holds."""
    out: list[frozenset[str]] = []
    cur = {""}  # the literal strings a match may have just spelled, one of which it did

    def flush() -> None:
        nonlocal cur
        if all(cur):
            out.append(frozenset(cur))
        cur = {""}

    for op, av in seq:  # type: ignore[attr-defined]
        if op is C.LITERAL:
            cur = {s + chr(av) for s in cur}
            continue
        chars = _small_set(av) if op is C.IN else None
        if chars and len(cur) * len(chars) <= _MAX_SPELLINGS:
            cur = {s + c for s in cur for c in chars}  # [pousr]: one of five letters
            continue
        if op is C.BRANCH and all(cur):
            # The parser factors a shared prefix out of an alternation ("AKIA|ASIA" becomes
            # "A" then "KIA|SIA"): put it back, or the requirement would be just "A".
            leads = [_lead(alt) for alt in av[1]]
            if all(leads) and len(cur) * len(leads) <= _MAX_SPELLINGS:
                out.append(frozenset(s + lead for s in cur for lead in leads))
        flush()
        if op is C.SUBPATTERN and not av[1] and not av[2]:  # a group without scoped flags
            out.extend(_runs(av[3]))
        elif op is C.BRANCH:
            alternatives: set[str] = set()
            for alt in av[1]:
                best = _strongest(_runs(alt))
                if best is None:
                    break  # one alternative needs nothing: the branch needs nothing
                alternatives |= best
            else:
                out.append(frozenset(alternatives))
        elif op in (C.MAX_REPEAT, C.MIN_REPEAT) and av[0] >= 1:
            out.extend(_runs(av[2]))
        elif op is C.ATOMIC_GROUP:
            out.extend(_runs(av))
    flush()
    return out


_MAX_SPELLINGS = 64


def _small_set(items: object) -> list[str] | None:
    """The characters of a class like ``[pousr]`` (plain characters only, at most 8)."""
    chars = []
    for op, av in items:  # type: ignore[attr-defined]
        if op is not C.LITERAL:
            return None  # a range, a category, a negation: not worth spelling out
        chars.append(chr(av))
    return chars if 0 < len(chars) <= 8 else None


def _lead(seq: object) -> str:
    """The literal characters every match of ``seq`` starts with."""
    chars = []
    for op, av in seq:  # type: ignore[attr-defined]
        if op is not C.LITERAL:
            break
        chars.append(chr(av))
    return "".join(chars)


def _strongest(reqs: list[frozenset[str]]) -> frozenset[str] | None:
    # The requirement whose shortest member is longest: the rarest to find by chance.
    return max(reqs, key=lambda r: min(map(len, r)), default=None)


@functools.lru_cache(maxsize=512)
def needs(pattern: str, flags: int) -> Needs:
    """What ``re.compile(pattern, flags)`` needs in a text to match (nothing, if unsure): from the
    table made with the harness (harness.redaction_needs) when it holds exactly this pattern."""
    from harness.core.regex_needs_data import KNOWN

    known = KNOWN.get((pattern, flags))
    if known is not None:
        return Needs(known[0], tuple(frozenset(alternatives) for alternatives in known[1]))
    return analysed(pattern, flags)


def analysed(pattern: str, flags: int) -> Needs:
    """:func:`needs` worked out from the pattern itself (what the table holds for its patterns)."""
    if _parser is None:
        return Needs(False, ())
    try:
        parsed = _parser.parse(pattern, flags)
        fold = bool(parsed.state.flags & re.IGNORECASE)
        reqs = _runs(parsed)
    except Exception:
        return Needs(False, ())
    if fold:  # only ASCII literals are compared lower-cased; others add no requirement
        reqs = [frozenset(s.lower() for s in r) for r in reqs if all(s.isascii() for s in r)]
    return Needs(fold, tuple(r for r in reqs if all(r)))


def of(regex: re.Pattern[str]) -> Needs:
    return needs(regex.pattern, regex.flags)
