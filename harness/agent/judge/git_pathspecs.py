"""Whether a git pathspec can name something of `.harness/`, read as git reads it (not as the shell does).

Pure. `git checkout REV -- '*.jsonl'` names the ledger: git's `*` crosses `/` and matches a leading dot,
where the shell's does neither; `:/` is the whole tree, `:(top).harness` the record from any folder,
`:(icase).HARNESS` it again (#28's task F-0067). A pattern is matched against the language of `.harness`
and every path under it, so no task id or file name has to be guessed.
"""

from __future__ import annotations

from harness.agent.judge import guarded_paths

SHORT_MAGIC = {"/": "top", "!": "exclude", "^": "exclude"}
KNOWN_MAGIC = frozenset({"top", "exclude", "literal", "glob", "icase"})
TARGET = guarded_paths.HARNESS  # the states 0..len(TARGET) read it; one more is "inside it" (any character after `/`)
INSIDE = len(TARGET) + 1


def may_name_harness(spec: str, where: guarded_paths.Where) -> bool:
    """Whether git could match `.harness` or a path of the record with ``spec``, given in ``where``.
    Magic the guard does not know (`:(attr:…)`) counts as naming it; `:(exclude)` names nothing."""
    magic, pattern = _magic(spec)
    if magic is None:
        return True
    if "exclude" in magic:
        return False
    base = guarded_paths.Where(where.root, where.root if "top" in magic else where.cwd)
    rel = base.resolve(pattern or ".")
    if rel is None:
        return False
    rel = rel.lower() if "icase" in magic else rel
    if rel == "." or guarded_paths.harness_state(rel) or _may_name_the_valid_cache(rel, "literal" in magic):
        return True
    if "literal" in magic or not guarded_paths.GLOB_CHARS & set(rel):
        return False
    head = rel[:min(rel.index(c) for c in guarded_paths.GLOB_CHARS if c in rel)]
    return not (head.startswith(f"{guarded_paths.LOCAL}/") and _outside_harness(base)) and _glob_may_match(rel)


def _may_name_the_valid_cache(rel: str, literal: bool) -> bool:
    """Whether ``rel`` may name `.harness/local/valid`, guarded in the clone's state (F-0149): as git matches a
    pathspec, where `*` and `?` cross `/` (fnmatch's own reading), or literally (#27's task F-0044)."""
    from fnmatch import fnmatchcase

    cache = f"{guarded_paths.LOCAL}/valid"
    return rel == cache or (not literal and bool(guarded_paths.GLOB_CHARS & set(rel)) and fnmatchcase(cache, rel))


def _outside_harness(base: guarded_paths.Where) -> bool:
    """Whether the folder a pathspec is read from is outside `.harness/` as written. Only then does a head
    under `.harness/local/` (the clone's untracked state) keep a glob off the record: git works in the
    real folder, and one inside `.harness/` may be a link to anywhere in it (#27's task F-0036)."""
    at = (base.resolve(".") or "").lower()
    return at != guarded_paths.HARNESS and not at.startswith(guarded_paths.HARNESS + "/")


def _magic(spec: str) -> tuple[frozenset[str] | None, str]:
    """(the magic words, the path) of a pathspec: `:(top,icase)x`, `:/x`, `:!x`; None for magic unknown."""
    if not spec.startswith(":"):
        return frozenset(), spec
    if spec.startswith(":("):
        words, closed, rest = spec[2:].partition(")")
        names = frozenset(w.strip() for w in words.split(",") if w.strip())
        return (names, rest) if closed and names <= KNOWN_MAGIC else (None, rest)
    i, found = 1, set()
    while i < len(spec) and spec[i] in SHORT_MAGIC:
        found.add(SHORT_MAGIC[spec[i]])
        i += 1
    return frozenset(found), spec[i + 1:] if spec[i:i + 1] == ":" else spec[i:]


def _glob_may_match(pattern: str) -> bool:
    """Whether some path in `.harness` or under it matches ``pattern`` by git's default wildmatch, where
    `*` and `?` match `/` too (conservative for `:(glob)`, whose `*` matches less)."""
    states = {0}
    for token in _tokens(pattern):
        states = {t for s in states for t in _step(s, token)}
        if not states:
            return False
    return bool(states & {len(TARGET), INSIDE})


def _tokens(pattern: str) -> list[str]:
    """A pattern as its matching units: `*`, `?` (any one character), `[` (a class: taken as any one
    character, which can only match more), or one literal character (`\\x` is x)."""
    out, i = [], 0
    while i < len(pattern):
        c = pattern[i]
        if c == "\\" and i + 1 < len(pattern):
            out.append(pattern[i + 1])
            i += 2
            continue
        if c == "[" and "]" in pattern[i + 2:]:
            out.append("?")
            i = pattern.index("]", i + 2) + 1
            continue
        out.append(c)
        i += 1
    return out


def _step(state: int, token: str) -> range | tuple[int, ...]:
    """The states one token leads to from ``state`` (reading `.harness`, then anything after its `/`)."""
    if token == "*":
        return range(state, INSIDE + 1)  # any run of characters: the rest of `.harness`, then past its `/`
    if state == INSIDE:
        return (INSIDE,)
    if state == len(TARGET):
        return (INSIDE,) if token in ("/", "?") else ()
    return (state + 1,) if token in (TARGET[state], "?") else ()
