"""Path words spelled by their real paths, where a symlink leads them into the record.

The judge reads words: `echo x >> h/tasks/T/events.jsonl` names no guarded file when `h` is a symlink to
`.harness`, nor `g/hooks/pre-commit` when `g` is one to `.git` (#28's task F-0038, F-0040). Making such a
link is refused, but one may exist already (a human's, an older guard's). This adapter looks on disk for
the judge (harness/agent/judge/bypass.py, whose rules stay pure): a word, or the value glued to an option
in it, whose real path lies in the repository's `.harness/` or `.git/` and is not its written path, is
spelled by the real one: written inside `.git/` too (`.git/x -> ../.harness`; read 42's F-0047). The judge asks it of each command's words as it expanded them, so `$(echo h)/x`
and `d=h; $d/x` are followed as `h/x` is (#28's task F-0050). Only os: it runs for every judged shell command.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from harness import paths

GUARDED = (paths.HARNESS, ".git")


def follower(root: str) -> Callable[[str, str], str | None]:
    """The judge's ``real_name(word, cwd)`` for the repository at ``root``: the word with its path spelled
    by its real one relative to ``cwd`` when a symlink leads it into ``root``'s `.harness/` or `.git/`, else
    None. A word without a `/` counts too: `cd h && echo x >> tasks/T/events.jsonl` goes through `h`."""
    real_root = os.path.realpath(root)
    guarded = [os.path.join(real_root, name) for name in GUARDED]

    def real_name(word: str, cwd: str) -> str | None:
        return _through_a_link(word, cwd, guarded)

    return real_name


def _through_a_link(word: str, cwd: str, guarded: list[str]) -> str | None:
    """``word``'s real path when a symlink leads it into a guarded folder by another path: from outside, from
    inside `.git/` or the record (read 42's F-0047: the judge reads a word by its text alone), or from the
    clone's untracked state (`.harness/local/`, which the judge leaves alone but for its cache of valid documents)
    into the rest of it (#27's task F-0038) or to that cache (`.harness/local/v -> valid`: F-0045); the word
    whole, or its value after an option glued to it (`--out=h/x`, `of=h/x`, `-oh/x`; #28's task F-0042)."""
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
        real = os.path.realpath(os.path.join(cwd, value))  # `l/..` physically: the parent of l's target
        if real != written and _inside(real, guarded):
            return word[:cut] + os.path.relpath(real, cwd)
    return None


def _inside(path: str, folders: list[str]) -> bool:
    return any(path == f or path.startswith(f + "/") for f in folders)
