"""A command line's path words spelled by their real paths, where a symlink leads them into the record.

The judge reads words: `echo x >> h/tasks/T/events.jsonl` names no guarded file when `h` is a symlink to
`.harness`, nor `g/hooks/pre-commit` when `g` is one to `.git` (#28's task F-0038, F-0040). Making such a
link is refused, but one may exist already (a human's, an older guard's). This adapter looks on disk: each
word (or the value glued to an option in it) whose real path lies in the repository's `.harness/` or
`.git/` while its written path does not is replaced by the real one, and the judge reads that line too.
Words the judge expands (`$(echo h)`) are not followed (#28's task F-0050). Only os and shlex: it runs for
every judged shell command.
"""

from __future__ import annotations

import os

from harness import paths

GUARDED = (paths.HARNESS, ".git")


def spelled_by_real_paths(command: str, cwd: str, root: str) -> str | None:
    """``command`` rebuilt from its words with each such word replaced by its real path (relative to ``cwd``),
    or None when no word leads into ``root``'s `.harness/` or `.git/` through a symlink (or the line cannot
    be split). A word without a `/` counts too: `cd h && echo x >> tasks/T/events.jsonl` goes through `h`.
    The rebuilt line is judged besides the line as written, never instead of it: it can only add a refusal."""
    import shlex

    lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    try:
        words = list(lexer)
    except ValueError:
        return None  # unbalanced quotes: the judge refuses to read the line anyway
    real_root = os.path.realpath(root)
    guarded = [os.path.join(real_root, name) for name in GUARDED]
    changed = False
    out = []
    for word in words:
        if word and set(word) <= OPERATORS:
            out.append(word)  # `>>`, `&&`, `|`, `;`: kept as operators
            continue
        real = _through_a_link(word, cwd, guarded)
        changed = changed or real is not None
        out.append(shlex.quote(real if real is not None else word))
    return " ".join(out) if changed else None


OPERATORS = frozenset("();<>|&")


def _through_a_link(word: str, cwd: str, guarded: list[str]) -> str | None:
    """``word``'s real path when a symlink leads it into a guarded folder its written path is not in; the
    word whole, or its value after an option glued to it (`--out=h/x`, `of=h/x`, `-oh/x`; #28's task F-0042)."""
    cuts = [0]
    if "=" in word:
        cuts.append(word.index("=") + 1)
    if word[:1] == "-" and word[1:2] != "-" and len(word) > 2:
        cuts.append(2)
    for cut in cuts:
        value = word[cut:]
        if not value or "\0" in value:
            continue
        written = os.path.normpath(os.path.join(cwd, value))
        real = os.path.realpath(written)
        if real != written and _inside(real, guarded) and not _inside(written, guarded):
            return word[:cut] + os.path.relpath(real, cwd)
    return None


def _inside(path: str, folders: list[str]) -> bool:
    return any(path == f or path.startswith(f + "/") for f in folders)
