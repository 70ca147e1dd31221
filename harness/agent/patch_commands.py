"""Codex's `apply_patch` run through a shell tool: which files the patch writes, or why the guard cannot say.

Codex intercepts a shell call of the form `apply_patch <<'EOF' … EOF` (or `apply_patch 'PATCH'`), optionally
after `cd DIR &&`, and applies the patch itself, its paths taken in DIR (#27's task F-0019). Anything else
that runs its `apply_patch` (or `applypatch`) program hands it a patch from stdin, a file, `$(…)` or an
escaped string: text the line does not spell, so the guard refuses it rather than guess (F-0020). Pure.
"""

from __future__ import annotations

import posixpath
import re

from harness.agent.judge.patch_text import DELETE_HEADER, PATCH_HEADERS, PROGRAMS, UNREADABLE, patch_paths

# The program at a command's position: a line's start, after an operator, a subshell, a quote (a script
# given to `bash -lc`), or after the words that run the rest of a line (`env`, `xargs`, `exec`, …).
_RUN = re.compile(r"(?:^|[;&|(\n`\"']|\$\()\s*(?:[A-Za-z_]\w*=\S*\s+)*"
                  r"(?:(?:exec|command|sudo|nohup|env|time|xargs|nice|timeout)\s+(?:-\S+\s+|[A-Za-z_]\w*=\S*\s+|\d\S*\s+)*)*"
                  r"(?:\S*/)?(?:apply_patch|applypatch)(?![\w.-])", re.M)
# The forms Codex applies itself: its patch is the heredoc's body or the quoted argument, literally.
_CANONICAL = re.compile(
    r"\A\s*(?:cd\s+(?P<dir>'[^']*'|\"[^\"$`\\]*\"|[^\s;&|'\"$`\\*?\[\]{}~]+)\s*&&\s*)?(?:apply_patch|applypatch)\s+"
    r"(?:<<-?\s*(?P<q>['\"]?)(?P<tag>\w+)(?P=q)[ \t]*\n(?P<body>.*?)\n[ \t]*(?P=tag)[ \t]*\n?"
    r"|'(?P<single>[^']*)'|\"(?P<double>[^\"$`\\]*)\")\s*\Z", re.S)
def runs_apply_patch(script: str) -> bool:
    return any(p in script for p in PROGRAMS) and _RUN.search(script) is not None


def patch_of(script: str) -> tuple[str | None, str] | None:
    """(the folder `cd` went to or None, the patch text) of a line Codex applies itself, or None."""
    m = _CANONICAL.match(script)
    if m is None:
        return None
    folder = m.group("dir")
    if folder is not None and folder[:1] in "'\"":
        folder = folder[1:-1]
    text = next(t for t in (m.group("body"), m.group("single"), m.group("double")) if t is not None)
    return folder, text


def written(script: str, workdir: str | None) -> tuple[tuple[str, ...], tuple[str, ...], str | None]:
    """(files written, files deleted, a refusal) by the `apply_patch` ``script`` runs, paths as the session
    sees them (the tool's workdir, then `cd`'s folder)."""
    found = patch_of(script)
    if found is None:
        return (), (), UNREADABLE
    folder, text = found
    base = posixpath.join(workdir or "", folder or "")

    def here(path: str) -> str:
        return posixpath.join(base, path) if base else path

    return (tuple(here(p) for p in patch_paths(text, PATCH_HEADERS)),
            tuple(here(p) for p in patch_paths(text, DELETE_HEADER)), None)
