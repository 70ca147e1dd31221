"""Git notes: the stamps the harness writes on commits, read from a ref or from a pushed notes commit."""

from __future__ import annotations

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
