"""Commits and refs: HEAD, revisions, parents, walks, and what refs and merges lead to."""

from __future__ import annotations

import os

from harness.errors import HarnessError
from harness.gitio import blob_memo
from harness.gitio.lazy_pygit2 import pygit2
from harness.gitio.repository import Repository


class History(Repository):
    def head(self) -> str | None:
        """HEAD's commit id, or None on an unborn branch."""
        try:
            return str(self.repo.head.target) if not self.repo.head_is_unborn else None
        except pygit2.GitError:
            return None

    def resolve(self, rev: str) -> str:
        try:
            return str(self.repo.revparse_single(rev).peel(pygit2.Commit).id)
        except (KeyError, ValueError, pygit2.GitError, pygit2.InvalidSpecError):
            raise HarnessError(f"unknown revision {rev!r}") from None

    def touches(self, commit: str, rel: str) -> bool:
        """Whether ``commit`` has another ``rel`` entry than one of its parents (a root: has one)."""
        def entry(rev: str) -> str | None:
            tree = self.repo[rev].peel(pygit2.Commit).tree
            try:
                return str(tree[rel].id)
            except KeyError:
                return None

        mine = entry(commit)
        parents = self.parents(commit)
        return any(entry(p) != mine for p in parents) if parents else mine is not None

    def commits_changing(self, rel: str) -> list[str]:
        """The commits of HEAD's history that change the file ``rel``, newest first ([] on an unborn branch)."""
        if self.head() is None:
            return []
        return self.run(["rev-list", "HEAD", "--", rel], check=False).split()

    def read_at(self, commit: str, rel: str) -> bytes | None:
        """The file ``rel`` as ``commit`` has it (None: absent, or not a file)."""
        try:
            obj = self.repo[commit].peel(pygit2.Commit).tree[rel]
        except (KeyError, ValueError):
            return None
        if not isinstance(obj, pygit2.Blob):
            return None
        data = blob_memo.kept(obj.id)  # a history walk reads the blobs its checks just read
        return data if data is not None else blob_memo.keep(obj.id, obj.data)

    def blob_bytes(self, oid: str) -> bytes | None:
        """The blob ``oid``'s bytes (None: no such object, or no blob): a file read by the id its tree lists, without
        the walk from a commit's root that :meth:`read_at` takes for each path (read 131's F-0467)."""
        try:
            obj = self.repo[oid]
        except (KeyError, ValueError):
            return None
        if not isinstance(obj, pygit2.Blob):
            return None
        data = blob_memo.kept(obj.id)
        return data if data is not None else blob_memo.keep(obj.id, obj.data)

    def parents(self, commit: str) -> list[str]:
        return [str(p) for p in self.repo[commit].parent_ids]

    def rev_list(self, tips: list[str], exclude: list[str]) -> list[str]:
        """Commits reachable from ``tips`` and not from ``exclude``, oldest first (topological). Listed by git in the
        harness's environment, which reads parents as stored (read 57's F-0124): libgit2's walk takes them from
        .git/objects/info/commit-graph, which nothing checks against the commits, and no setting turns that off."""
        if not tips:
            return []
        revs = [*tips, *(f"^{ex}" for ex in exclude if self.has_commit(ex))]  # one this clone lacks hides nothing
        return self.run(["rev-list", "--topo-order", "--reverse", "--stdin"], input="\n".join(revs) + "\n").split()

    def merge_bases(self, a: str, b: str) -> list[str]:
        """The best common ancestors of two commits ([] when their histories are unrelated)."""
        if not (self.has_commit(a) and self.has_commit(b)):
            return []
        return self.run(["merge-base", "--all", a, b], check=False).split()

    def is_ancestor(self, ancestor: str, commit: str) -> bool:
        """Whether ``ancestor`` is in ``commit``'s history (a commit is its own ancestor)."""
        return self.run_proc(["merge-base", "--is-ancestor", ancestor, commit]).returncode == 0

    def all_ref_tips(self) -> list[str]:
        """The commits every ref of this repository leads to (what it already holds)."""
        tips: list[str] = []
        for name in self.repo.references:
            try:
                tip = str(self.repo.references[name].peel(pygit2.Commit).id)
            except (pygit2.GitError, ValueError, KeyError, pygit2.InvalidSpecError):
                continue
            if tip not in tips:
                tips.append(tip)
        return tips

    def symref_target(self, ref: str) -> str | None:
        """The ref a symbolic ``ref`` finally points to (git updates that one when ``ref`` is pushed to),
        or None when ``ref`` is no symbolic ref here."""
        out = self.run_proc(["symbolic-ref", "-q", "--", ref])
        if out.returncode != 0:
            return None
        target, seen = out.stdout.strip(), {ref}
        while target not in seen:  # a chain of them: git follows it (up to its own limit of five)
            seen.add(target)
            nxt = self.run_proc(["symbolic-ref", "-q", "--", target])
            if nxt.returncode != 0:
                return target
            target = nxt.stdout.strip()
        return target

    def is_shallow(self) -> bool:
        """Whether this clone's history ends at a boundary (a `shallow` file in the common git folder).
        libgit2 looks in a linked worktree's own folder and answers no there (#27's task F-0006)."""
        return bool(self.shallow_boundary()) or bool(self.repo.is_shallow)

    def shallow_boundary(self) -> frozenset[str]:
        """The commits whose parents this shallow clone lacks (they read as roots), as git lists them."""
        try:
            return frozenset((self.common_dir / "shallow").read_text("ascii").split())
        except (OSError, UnicodeDecodeError):
            return frozenset()

    def graft_file(self) -> str | None:
        """The common git folder's `info/grafts` when it grafts anything (it is not empty): libgit2 reads
        every commit's parents through it, while a push sends the parents each commit stores."""
        path = self.common_dir / "info" / "grafts"
        try:
            return str(path) if path.stat().st_size > 0 else None
        except OSError:
            return None

    def remote_tips(self, remote: str | None = None) -> list[str]:
        """Tips of the remote-tracking refs (of one remote when named)."""
        prefix = f"refs/remotes/{remote}/" if remote else "refs/remotes/"
        tips = []
        for name in self.repo.references:
            if name.startswith(prefix) and not name.endswith("/HEAD"):
                try:
                    tips.append(str(self.repo.references[name].peel(pygit2.Commit).id))
                except (pygit2.GitError, ValueError, KeyError):
                    continue
        return tips

    def peel_commit(self, sha: str) -> str | None:
        """The commit a pushed object leads to (an annotated tag peels to its commit)."""
        try:
            return str(self.repo[sha].peel(pygit2.Commit).id)
        except (KeyError, ValueError, pygit2.GitError, pygit2.InvalidSpecError):
            return None

    def has_object(self, sha: str) -> bool:
        try:
            return self.repo.get(sha) is not None
        except (ValueError, pygit2.GitError):
            return False

    def has_commit(self, sha: str) -> bool:
        try:
            return isinstance(self.repo[sha], pygit2.Commit)
        except (KeyError, ValueError):
            return False

    def merge_heads(self) -> list[str]:
        """The commits being merged in, or [] when no merge is in progress.

        A conflicted merge finished with `git commit` has them in MERGE_HEAD; during
        `git merge` itself the pre-merge-commit hook runs before MERGE_HEAD is written, and
        git names them in GITHEAD_<sha> environment variables instead.
        """
        try:
            with open(os.path.join(self.repo.path, "MERGE_HEAD"), encoding="ascii") as fh:
                heads = [line.strip() for line in fh if line.strip()]
        except OSError:
            heads = []
        if not heads:
            heads = [key[len("GITHEAD_"):] for key in os.environ if key.startswith("GITHEAD_")]
        return [h for h in heads if self.has_commit(h)]

    def protected_tips(self, branch: str | None) -> list[str]:
        """The protected branch's tips, most trusted first: ``branch`` as a remote has it (`origin` first), then as this
        clone does (by default the remote's default branch, else its main or master, else this clone's). A remote's
        copy comes before any local branch: a clone made by `git remote add` and `git push` has `origin/main` and no
        `origin/HEAD`, and a local `main` is moved by a plain commit the agent makes (read 126's F-0449)."""
        return [tip for _, tip in self.protected_refs(branch)]

    def protected_refs(self, branch: str | None) -> list[tuple[str, str]]:
        """(ref, its tip) of each of :meth:`protected_tips`, in the same order: what names the line where it is told."""
        names = [branch] if branch else ["HEAD", "main", "master"]
        remotes = sorted(self._remotes(), key=lambda r: (r != "origin", r))
        refs = [f"refs/remotes/{r}/{n}" for r in remotes for n in names] + [f"refs/heads/{n}" for n in names if n != "HEAD"]
        found = []
        for ref in refs:
            try:
                found.append((ref, self.resolve(ref)))
            except HarnessError:
                continue
        return found

    def _remotes(self) -> set[str]:
        """The remotes this clone tracks branches of (`refs/remotes/NAME/...`)."""
        prefix = "refs/remotes/"
        return {name[len(prefix):].split("/", 1)[0] for name in self.repo.references if name.startswith(prefix)}

    def protected_base(self, head: str | None, branch: str | None) -> str | None:
        """Where a task started from begins its change: the merge base of ``head`` with the protected
        branch (see :meth:`protected_tips`), or ``head`` itself when none of them is known."""
        if head is None:
            return None
        for tip in self.protected_tips(branch):
            bases = self.merge_bases(head, tip)
            if bases:
                return bases[0]
        return head

    def repository_id(self, commit: str) -> str:
        """What names this repository in a signed approval: the first root commit of ``commit``'s
        history (every clone and fork of it shares it; an unrelated repository does not). A shallow
        clone's history that ends at its boundary cannot tell it: refused, never the boundary."""
        roots = self.roots(commit)
        cut = sorted(self.shallow_boundary() & set(roots))
        if cut:
            raise HarnessError(f"a shallow clone cannot name its repository (its first root commit): the history of "
                               f"{commit[:12]} ends at the clone's boundary {cut[0][:12]}",
                               hint="git fetch --unshallow, then run it again")
        return min(roots)

    def roots(self, commit: str) -> list[str]:
        """The commits of ``commit``'s history without parents (a shallow clone's boundary among them).
        Kept per commit id: they never change, and one check asks more than once."""
        commit = self.resolve(commit)
        known: dict[str, list[str]] = self.__dict__.setdefault("_roots", {})
        if commit not in known:
            known[commit] = self.run(["rev-list", "--max-parents=0", commit]).split()
        return known[commit]

    def oldest_ancestor(self, commits: list[str]) -> str:
        """The first of ``commits`` that is an ancestor of every other one; when histories diverge (an
        amended or rebased base), the first after ``commits[0]`` that exists: a base already recorded
        outranks the one asked for. Empty entries are skipped."""
        known = [c for c in commits if c and self.has_commit(c)]
        for candidate in known:
            if all(c == candidate or self.is_ancestor(candidate, c) for c in known):
                return candidate
        return next((c for c in known if c != commits[0]), commits[0])
