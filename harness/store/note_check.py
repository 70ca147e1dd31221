"""The notes a push sends, read for secrets as a committed `.harness/` file is (F-0355).

Every note lives on one ref, so a push of a clean branch sends the notes of commits it never sends: a note the
stamp wrote about a commit no check ever read (--no-verify, a cherry-pick, a rebase), or one written by hand with
`git notes add`. The push guard (its code-only fast path too) and the server's hook read each note a push adds with
the rules the commit check uses: the own rules, detect-secrets' plugins and the project's `redaction.patterns`, of
the commits the notes are on and of the repository's config.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from harness.core.file_caps import CAPS
from harness.store import settings

TYPE_CHECKING = False  # typing's, without importing typing on a hot path (tests/test_layering.py)
if TYPE_CHECKING:
    from pathlib import Path

NOTE_CAP = CAPS["note"]


def patterns_of(configs: Iterable[bytes | None], root: Path | None = None) -> tuple[str, ...]:
    """The `redaction.patterns` of each config.yaml text in ``configs`` (the commits the notes are on) and of the work
    tree's under ``root`` (None: no work tree, a server's bare repository), together."""
    found: dict[str, None] = {}
    for raw in dict.fromkeys(configs):
        found.update(dict.fromkeys(settings.patterns_in(raw)))
    if root is not None:
        found.update(dict.fromkeys(settings.worktree_patterns(root)))
    return tuple(found)


def flagged(notes: Sequence[tuple[str, bytes]], patterns: Sequence[str]) -> list[tuple[str, int, str]]:
    """(the object a note is on, line, rule) of each secret in ``notes`` (that object, the note's text)."""
    from harness.store.secrets_check import note_secrets, stored_redactor

    red = stored_redactor(patterns)  # a note was written in another shell: its `env:` markers may be the harness's
    return [(name, line, rule) for name, raw in notes for line, rule in note_secrets(raw, red)]
