"""Git notes: the stamps the harness writes on commits, read from a ref or from a pushed notes commit."""

from __future__ import annotations

from typing import Any

from harness.errors import HarnessError
from harness.gitio.lazy_pygit2 import pygit2
from harness.gitio.repository import Repository


class Notes(Repository):
    def read_note(self, ref: str, commit: str) -> str | None:
        try:
            return self.repo.lookup_note(commit, ref).message
        except KeyError:
            return None

    def note_in(self, notes_commit: str, commit: str) -> str | None:
        """The note on ``commit`` inside a notes commit that no ref names yet (a pushed one)."""
        try:
            tree = self.repo[notes_commit].peel(pygit2.Commit).tree
        except (KeyError, ValueError, pygit2.GitError):
            return None
        rest = commit
        while rest:  # notes trees fan out as ab/cdef… once they grow; try each depth
            if rest in tree and isinstance(tree[rest], pygit2.Blob):
                return tree[rest].data.decode("utf-8", "replace")
            if len(rest) > 2 and rest[:2] in tree and isinstance(tree[rest[:2]], pygit2.Tree):
                tree, rest = tree[rest[:2]], rest[2:]
                continue
            return None
        return None

    def write_note(self, ref: str, commit: str, message: str) -> None:
        try:
            sig = self.repo.default_signature
        except (KeyError, pygit2.GitError):
            sig = pygit2.Signature("harness", "harness@localhost")
        self.repo.create_note(message, sig, sig, commit, ref, True)

    def notes_added(self, notes_commit: str) -> list[tuple[str, str]]:
        """(the name of the object it annotates, the note's blob id) of each note the notes commit ``notes_commit``
        adds or changes: a blob its tree holds where no parent's tree holds the same. A folder (`ab/`, as notes fan
        out) a parent holds as it is is not looked into, so a stamp's commit is read as the one note it adds."""
        commit = self.repo[notes_commit].peel(pygit2.Commit)
        parents = []
        for parent_id in commit.parent_ids:
            try:
                parents.append(self.repo[parent_id].peel(pygit2.Commit).tree)
            except (KeyError, ValueError):
                continue  # beyond a shallow boundary: its notes are read as added
        out: list[tuple[str, str]] = []
        _added(commit.tree, parents, "", out)
        return out

    def note_blob(self, oid: str, cap: int) -> bytes:
        """A note's text, refused past ``cap`` bytes (before its bytes are copied into Python)."""
        blob = self.repo[oid]
        if blob.size > cap:
            raise HarnessError(f"{blob.size} bytes, over the {cap // (1024 * 1024)} MiB a note is read up to")
        return bytes(blob.data)


def _added(tree: Any, olds: list[Any], prefix: str, out: list[tuple[str, str]]) -> None:
    for entry in tree:
        before = [old[entry.name] for old in olds if entry.name in old]
        if any(b.id == entry.id for b in before):
            continue
        if isinstance(entry, pygit2.Tree):
            _added(entry, [b for b in before if isinstance(b, pygit2.Tree)], prefix + entry.name, out)
        elif isinstance(entry, pygit2.Blob):
            out.append((prefix + entry.name, str(entry.id)))
