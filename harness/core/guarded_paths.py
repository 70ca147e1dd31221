"""Which paths in a repository the agent hooks guard, by what the harness keeps there.

Pure string arithmetic on POSIX paths: no file is touched. A path is judged relative to
the repository root; `.harness/local/` is per-clone scratch (lock, caches) and free.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass

HARNESS = ".harness"
PROTECTED_NAMES = {
    "events.jsonl": ("the task ledger", "the ledger changes only through harness commands "
                     "(`harness transition`, `harness evidence`, `harness requirement set`, …)"),
    "approvals.jsonl": ("the human approvals", "approvals are a human's act: ask them to run `harness approve …` "
                        "in their own terminal"),
    "allowed_signers": ("the approval trust root", "the trust root is a human's to change, by hand, outside the agent"),
}
EVIDENCE = ("evidence", "evidence is recorded only by running the command: `harness evidence TYPE`")


@dataclass(frozen=True)
class Where:
    root: str   # absolute repository root
    cwd: str    # absolute directory the command runs in

    def resolve(self, path: str) -> str | None:
        """``path`` relative to the repository root, or None when it lies outside."""
        full = posixpath.normpath(posixpath.join(self.cwd, path))
        root = posixpath.normpath(self.root)
        if full == root:
            return "."
        if not full.startswith(root.rstrip("/") + "/"):
            return None
        return full[len(root.rstrip("/")) + 1:]

    def cd(self, path: str) -> Where:
        return Where(self.root, posixpath.normpath(posixpath.join(self.cwd, path)))


def protected(rel: str | None) -> tuple[str, str] | None:
    """(what it is, the legitimate way to change it) for a guarded file, else None."""
    if rel is None:
        return None
    parts = rel.split("/")
    if parts[0] != HARNESS or (len(parts) > 1 and parts[1] == "local"):
        return None
    if parts[-1] in PROTECTED_NAMES:
        return PROTECTED_NAMES[parts[-1]]
    if "evidence" in parts[1:-1] or (len(parts) > 3 and parts[-1] == "evidence"):
        return EVIDENCE
    return None


def harness_state(rel: str | None) -> bool:
    """True for `.harness/` itself or anything in it but the per-clone scratch folder."""
    if rel is None:
        return False
    parts = rel.split("/")
    return parts[0] == HARNESS and not (len(parts) > 1 and parts[1] == "local")


def unresolved_protected(word: str) -> tuple[str, str] | None:
    """A path built from variables (`$DIR/events.jsonl`) is judged by its name alone."""
    if "$" not in word and "`" not in word:
        return None
    name = posixpath.basename(word)
    return PROTECTED_NAMES.get(name)
