"""The files a reviewer's reproducer names, measured on disk: bound by their digests when it is proposed,
checked against them when it runs (the rule is :mod:`harness.core.finding_binding`'s).

A file is bound when an argument of the command (the program included) names a regular file inside the
repository, outside `.harness/`, reached through no symlink, as a path from the repository's root (where
reproducers run); a pytest node id (`tests/test_x.py::test_y`) names its file. Words that name no such file
(options, code given to `-c`, a file that does not exist yet) bind nothing. A file a secret is found in is not
bound: its digest would be a digest of the secret, and no secret reaches the ledger in any form.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Mapping
from pathlib import Path

from harness import paths
from harness.core.redact import Redactor
from harness.core.sha256 import sha256

MAX_BYTES = 4 * 1024 * 1024  # a larger file is no reproducer's script: not bound (and not read whole)


def argv_of(command: list[str] | str | None) -> list[str]:
    if isinstance(command, list):
        return command
    try:
        return shlex.split(command) if command else []
    except ValueError:
        return []


def named_files(root: Path, argv: list[str]) -> list[str]:
    """The repository-relative paths of the regular files ``argv``'s words name (see the module's note)."""
    found: list[str] = []
    for word in argv:
        rel = _relative(root, word.split("::", 1)[0])
        if rel is not None and rel not in found:
            found.append(rel)
    return found


def _relative(root: Path, word: str) -> str | None:
    if not word or word.startswith("-") or "\0" in word:
        return None
    rel = os.path.relpath(os.path.normpath(os.path.join(root, word)), root)
    if rel == "." or rel.startswith("..") or paths.inside(Path(rel).as_posix()):
        return None
    try:
        target = root / rel
        # No symlink on the way: a link can point elsewhere between two runs while its own path stays.
        if target.resolve() != root.resolve() / rel or not target.is_file():
            return None
    except (OSError, ValueError):
        return None
    return Path(rel).as_posix()


def _digest(root: Path, rel: str) -> bytes | None:
    """The file's bytes when it is one the binding may read (None: gone, not regular, or too large)."""
    if _relative(root, rel) != rel:
        return None
    try:
        if (root / rel).stat().st_size > MAX_BYTES:
            return None
        return (root / rel).read_bytes()
    except OSError:
        return None


def at_proposal(root: Path, command: list[str] | str | None, redactor: Redactor) -> dict[str, str]:
    """path -> sha256 of every file the reviewer's ``command`` names, as it is now (see the module's note)."""
    out: dict[str, str] = {}
    for rel in named_files(root, argv_of(command)):
        data = _digest(root, rel)
        if data is not None and not redactor.secret_spans(data.decode("utf-8", "surrogateescape")):
            out[rel] = sha256(data).hexdigest()
    return out


def now(root: Path, bound: Mapping[str, str]) -> dict[str, str | None]:
    """Each bound file: its digest when it is as proposed, else None (what it holds now is not recorded:
    it may hold a secret)."""
    out: dict[str, str | None] = {}
    for rel, digest in bound.items():
        data = _digest(root, rel)
        out[rel] = digest if data is not None and sha256(data).hexdigest() == digest else None
    return out
