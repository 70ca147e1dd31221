"""Codex's `apply_patch` run through a shell tool: the files a patch writes, as the session sees them. Pure.

Codex intercepts a shell call of the form `apply_patch <<'EOF' … EOF` (or `apply_patch 'PATCH'`), optionally
after `cd DIR &&`, and applies the patch itself, its paths taken in DIR (#27's task F-0019). Any other line
that runs its `apply_patch` (or `applypatch`) program is the shell judge's, which refuses a patch the line
does not spell (F-0020, F-0022: harness/agent/judge/bypass.py).
"""

from __future__ import annotations

import posixpath
import re

from harness.agent.judge.patch_text import DELETE_HEADER, PATCH_HEADERS, patch_paths

# The forms Codex applies itself: its patch is the heredoc's body or the quoted argument, literally.
_CANONICAL = re.compile(
    r"\A\s*(?:cd\s+(?P<dir>'[^']*'|\"[^\"$`\\]*\"|[^\s;&|'\"$`\\*?\[\]{}~]+)\s*&&\s*)?(?:apply_patch|applypatch)\s+"
    r"(?:<<-?\s*(?P<q>['\"]?)(?P<tag>\w+)(?P=q)[ \t]*\n(?P<body>.*?)\n[ \t]*(?P=tag)[ \t]*\n?"
    r"|'(?P<single>[^']*)'|\"(?P<double>[^\"$`\\]*)\")\s*\Z", re.S)


def patch_of(script: str) -> tuple[str | None, str] | None:
    """(the folder `cd` went to or None, the patch text) of a line Codex applies itself, or None."""
    m = _CANONICAL.match(script)
    if m is None:
        return None
    if m.group("body") is not None and not m.group("q") and any(c in m.group("body") for c in "$`\\"):
        return None  # an unquoted tag: the shell expands `$(…)`, `${…}`, backquotes, `\` first (#27's task F-0027)
    folder = m.group("dir")
    if folder is not None and folder[:1] in "'\"":
        folder = folder[1:-1]
    text = next(t for t in (m.group("body"), m.group("single"), m.group("double")) if t is not None)
    return folder, text


def written(script: str, workdir: str | None) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """(files written, files deleted) by a ``script`` Codex applies itself, paths as the session sees them (the
    tool's workdir, then `cd`'s folder); None for any other line."""
    found = patch_of(script)
    if found is None:
        return None
    folder, text = found
    return paths_in(text, posixpath.join(workdir or "", folder or ""))


def paths_in(patch: str, base: str | None) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(files written, files deleted) by ``patch`` applied in the folder ``base`` (None or "": the session's)."""
    def here(path: str) -> str:
        return posixpath.join(base, path) if base else path

    return (tuple(here(p) for p in patch_paths(text=patch, headers=PATCH_HEADERS)),
            tuple(here(p) for p in patch_paths(text=patch, headers=DELETE_HEADER)))
