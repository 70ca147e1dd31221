"""A command line's path words spelled by their real paths, where a symlink leads them into the record.

The judge reads words: `echo x >> h/tasks/T/events.jsonl` names no guarded file when `h` is a symlink to
`.harness`, nor `g/hooks/pre-commit` when `g` is one to `.git` (#28's task F-0038, F-0040). Making such a
link is refused, but one may exist already (a human's, an older guard's). This adapter looks on disk: each
word holding a `/` whose real path lies in the repository's `.harness/` or `.git/` while its written path
does not is replaced by the real one, and the judge reads that line too. Only os and shlex: it runs for
every judged shell command.
"""

from __future__ import annotations

import os

from harness import paths

GUARDED = (paths.HARNESS, ".git")


def spelled_by_real_paths(command: str, cwd: str, root: str) -> str | None:
    """``command`` with each such word replaced by its real path (relative to ``cwd``), or None when no word
    leads into ``root``'s `.harness/` or `.git/` through a symlink (or the line cannot be split)."""
    if "/" not in command:
        return None
    import shlex

    lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    try:
        words = list(lexer)
    except ValueError:
        return None  # unbalanced quotes: the judge refuses to read the line anyway
    real_root = os.path.realpath(root)
    guarded = [os.path.join(real_root, name) for name in GUARDED]
    out = command
    for word in dict.fromkeys(w for w in words if "/" in w and "\0" not in w):
        value = word.partition("=")[2] if word.startswith("--") and "=" in word else word
        written = os.path.normpath(os.path.join(cwd, value))
        real = os.path.realpath(written)
        if real != written and any(real == g or real.startswith(g + "/") for g in guarded) \
                and not any(written == g or written.startswith(g + "/") for g in guarded):
            out = out.replace(value, shlex.quote(os.path.relpath(real, cwd)))
    return out if out != command else None
