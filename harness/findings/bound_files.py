"""The files a reviewer's reproducer names, measured on disk: bound by their digests when it is proposed,
checked against them when it runs (the rule is :mod:`harness.core.finding_binding`'s).

A file is bound when an argument of the command (the program included) names a regular file reached through
no symlink: a path from the repository's root (where reproducers run), `.harness/local/` and the rest of
`.harness/` included (the review skill has reviewers write there, F-0344) but not the task folders under
`.harness/tasks/`, which the harness itself rewrites with every event; or an absolute path outside the
repository (a reviewer's `/tmp/review/x.sh`), kept as that path. A pytest node id (`tests/test_x.py::test_y`)
names its file, and the test it names is bound besides, by the digest of its own source (`FILE::TEST`): a
rejection's re-check reads it, so a case added to the file later is no rewrite of the reviewer's test (F-0346).
Words that name no such file (options, code given to `-c`, a file that does not exist yet) bind nothing. A
file a secret is found in is not bound: its digest would be a digest of the secret, and no secret reaches the
ledger in any form.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Mapping
from pathlib import Path

from harness import paths
from harness.core.redact import Redactor
from harness.core.sha256 import sha256
from harness.core.test_source import test_source

MAX_BYTES = 4 * 1024 * 1024  # a larger file is no reproducer's script: not bound (and not read whole)


def argv_of(command: list[str] | str | None) -> list[str]:
    if isinstance(command, list):
        return command
    try:
        return shlex.split(command) if command else []
    except ValueError:
        return []


def named_files(root: Path, argv: list[str]) -> list[str]:
    """The paths of the regular files ``argv``'s words name, and the tests its node ids name as
    ``FILE::TEST`` after their file (see the module's note)."""
    found: list[str] = []
    for word in argv:
        file, sep, test = word.partition("::")
        rel = _relative(root, file)
        for key in ([rel, f"{rel}::{test}"] if sep and test and rel is not None else [rel]):
            if key is not None and key not in found:
                found.append(key)
    return found


def _relative(root: Path, word: str) -> str | None:
    """``word`` as the binding keeps it: relative to the root inside the repository, absolute outside it
    (None: no regular file, reached through a symlink, or one of the harness's own task records)."""
    if not word or word.startswith("-") or "\0" in word:
        return None
    outside = os.path.isabs(word) and not _under(os.path.normpath(word), os.path.normpath(root))
    rel = os.path.normpath(word) if outside else os.path.relpath(os.path.normpath(os.path.join(root, word)), root)
    if rel == "." or (not outside and rel.startswith("..")) or _harness_record(Path(rel).as_posix()):
        return None
    try:
        target = Path(rel) if outside else root / rel
        # No symlink on the way: a link can point elsewhere between two runs while its own path stays.
        if target.resolve() != (target if outside else root.resolve() / rel) or not target.is_file():
            return None
    except (OSError, ValueError):
        return None
    return Path(rel).as_posix()


def _under(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def _harness_record(rel: str) -> bool:
    """A file the harness rewrites itself (a task's ledger, its rendered files, its evidence): never the
    reviewer's, and it changes with every event."""
    return rel == paths.TASKS or rel.startswith(paths.TASKS + "/")


def _digest(root: Path, key: str) -> bytes | None:
    """The bytes the binding digests for ``key`` (None: gone, not regular, too large, or the test not found):
    a file's, or for ``FILE::TEST`` the source of that test in the file."""
    rel, sep, test = key.partition("::")
    if _relative(root, rel) != rel:
        return None
    try:
        target = Path(rel) if os.path.isabs(rel) else root / rel
        if target.stat().st_size > MAX_BYTES:
            return None
        data = target.read_bytes()
    except OSError:
        return None
    return test_source(data, test) if sep else data


def at_proposal(root: Path, command: list[str] | str | None, redactor: Redactor) -> dict[str, str]:
    """path -> sha256 of every file the reviewer's ``command`` names, as it is now (see the module's note)."""
    out: dict[str, str] = {}
    for rel in named_files(root, argv_of(command)):
        data = _digest(root, rel)
        whole = _digest(root, rel.partition("::")[0]) if "::" in rel else data
        if data is not None and whole is not None and not redactor.secret_spans(whole.decode("utf-8", "surrogateescape")):
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
