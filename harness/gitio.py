"""The git adapter: the only module that imports pygit2.

A "source tree" is a git tree id of the code with the top-level ``.harness`` entry
removed, so that recording evidence, ledger events and notes never changes what the
evidence is about. For a commit it is one tree edit on the root tree, whatever the size
of the repository; for the working directory it is the tree ``git add -A`` would write,
computed in a throw-away index so the user's staging area is never touched.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

from harness.errors import HarnessError

HARNESS_DIR = ".harness"
# Set by git for a hook, or by a user's shell: each would point our own git calls at another
# repository, index or work tree. The one index we mean is always passed explicitly.
BENDING_ENV = ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_PREFIX", "GIT_EXTERNAL_DIFF", "GIT_DIFF_OPTS")


def git_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    """The environment every `git` subprocess of the harness runs in."""
    env = {k: v for k, v in os.environ.items() if k not in BENDING_ENV}
    env.update(extra or {})
    return env

# What the harness keeps of the caller's GIT_* variables when it runs git itself: who is
# committing and which config files exist. Nothing that says where the repository, its
# working tree, its index or its objects are — those come from the directory alone.
_KEPT_GIT_VARS = frozenset({
    "GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_AUTHOR_DATE", "GIT_COMMITTER_NAME",
    "GIT_COMMITTER_EMAIL", "GIT_COMMITTER_DATE", "GIT_CONFIG_NOSYSTEM", "GIT_CONFIG_GLOBAL",
    "GIT_CONFIG_SYSTEM",
})
# Variables that make git (and so a test command) see another repository, tree or index.
LOCATION_VARS = ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR", "GIT_OBJECT_DIRECTORY",
                 "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_NAMESPACE", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT")


def own_env(environ: dict[str, str] | None = None) -> dict[str, str]:
    """``environ`` (default ours) without the GIT_* variables the caller could use to point
    git at another tree: the environment the harness measures source trees in."""
    src = os.environ if environ is None else environ
    return {k: v for k, v in src.items() if not k.startswith("GIT_") or k in _KEPT_GIT_VARS}


def _lazy_pygit2() -> ModuleType:
    """pygit2, loaded on first use: its import (30–50 ms) is most of what a hook pays for a
    code-only commit, and :func:`staged_nothing_to_judge` answers that case without it."""
    import importlib.util
    import sys

    if "pygit2" in sys.modules:
        return sys.modules["pygit2"]
    spec = importlib.util.find_spec("pygit2")
    if spec is None or spec.loader is None:
        import pygit2 as real  # let the real import report what is missing

        return real
    spec.loader = importlib.util.LazyLoader(spec.loader)
    module = importlib.util.module_from_spec(spec)
    sys.modules["pygit2"] = module
    spec.loader.exec_module(module)
    return module


pygit2 = _lazy_pygit2()


def staged_nothing_to_judge(env: dict[str, str] | None = None) -> bool:
    """True when the commit being made stages no ``.harness/`` change and concludes no merge:
    then no commit-time rule has anything to judge. Asked of git alone (no pygit2), in the
    current directory, with $GIT_INDEX_FILE as git set it (so `commit -a` and `commit PATH`
    are judged on the index they commit). Any doubt (an error) answers False."""
    env = dict(os.environ if env is None else env)
    if any(key.startswith("GITHEAD_") for key in env):
        return False  # `git merge` names the commits being merged this way in pre-merge-commit
    merging = subprocess.run(["git", "rev-parse", "-q", "--verify", "MERGE_HEAD"], env=env,
                             capture_output=True, check=False).returncode
    if merging != 1:
        return False  # 0: a merge is being concluded; anything else: cannot tell
    # --ignore-submodules=none: a config hiding submodule changes must not hide one in .harness/
    staged = subprocess.run(["git", "diff", "--cached", "--quiet", "--no-ext-diff", "--ignore-submodules=none",
                             "--", f":(top){HARNESS_DIR}"], env=env, capture_output=True, check=False).returncode
    return staged == 0


def head_facts() -> tuple[Path, str, list[str], list[tuple[bytes, str]], str] | None:
    """(common git dir, HEAD, its parents, its root tree's entries as (ls-tree line, name), the
    first parent's ``.harness`` id) from two git processes and no pygit2 — what the stamp of a
    code-only commit needs. None when any of it is missing (no HEAD, a root commit, no .harness)."""
    rev = subprocess.run(["git", "rev-parse", "--git-common-dir", "HEAD", f"HEAD^:{HARNESS_DIR}", "HEAD^@"],
                         capture_output=True, text=True, check=False)
    listing = subprocess.run(["git", "ls-tree", "-z", "--full-tree", "HEAD"], capture_output=True, check=False)
    if rev.returncode != 0 or listing.returncode != 0:
        return None
    common, head, parent_harness, *parents = rev.stdout.split("\n")[:-1]
    entries = [(line, line.split(b"\t", 1)[1].decode("utf-8", "surrogateescape"))
               for line in listing.stdout.split(b"\0") if b"\t" in line]
    return Path(common).resolve(), head, parents, entries, parent_harness


def entry_id(entries: list[tuple[bytes, str]], name: str) -> str | None:
    for line, entry_name in entries:
        if entry_name == name:
            return line.split(b"\t", 1)[0].split()[2].decode("ascii")
    return None


def tree_without(entries: list[tuple[bytes, str]], name: str) -> str:
    """The id of the tree made of ``entries`` (from :func:`head_facts`) minus ``name``."""
    kept = b"".join(line + b"\0" for line, entry_name in entries if entry_name != name)
    proc = subprocess.run(["git", "mktree", "-z"], input=kept, capture_output=True, check=False)
    if proc.returncode != 0:
        raise HarnessError(f"git mktree failed: {proc.stderr.decode(errors='replace').strip()}")
    return proc.stdout.decode("ascii").strip()


def add_note(ref: str, commit: str, message: str) -> None:
    """Write (replace) the note on ``commit`` with git itself (no pygit2)."""
    proc = subprocess.run(["git", "notes", "--ref", ref, "add", "-f", "-F", "-", commit], input=message,
                          capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise HarnessError(f"git notes add failed: {proc.stderr.strip()}")


class Git:
    def __init__(self, root: Path) -> None:
        try:
            # Any: pygit2 types ``repo[oid]`` as a bare Object; we index by ids whose kind we know.
            self.repo: Any = pygit2.Repository(str(root))
        except pygit2.GitError as exc:
            raise HarnessError(f"{root}: not a git repository ({exc})") from None
        self.root = Path(root)
        self._honour_quarantine()

    def _honour_quarantine(self) -> None:
        """Inside a receive hook the pushed objects sit in git's quarantine directory, named
        only by the environment; libgit2 does not read it, so add it as an alternate."""
        dirs = [os.environ.get("GIT_QUARANTINE_PATH"), os.environ.get("GIT_OBJECT_DIRECTORY"),
                *os.environ.get("GIT_ALTERNATE_OBJECT_DIRECTORIES", "").split(os.pathsep)]
        own = os.path.realpath(os.path.join(self.repo.path, "objects"))
        for folder in dict.fromkeys(d for d in dirs if d):
            path = folder if os.path.isabs(folder) else os.path.join(os.getcwd(), folder)
            if os.path.isdir(path) and os.path.realpath(path) != own:
                self.repo.odb.add_disk_alternate(path)

    # -- commits ---------------------------------------------------------------
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

    def commit_tree(self, rev: str) -> str:
        return str(self.repo.revparse_single(rev).peel(pygit2.Commit).tree_id)

    # -- source trees ----------------------------------------------------------
    def strip_harness(self, tree_id: str) -> str:
        tree = self.repo[tree_id]
        if HARNESS_DIR not in tree:
            return str(tree.id)
        builder = self.repo.TreeBuilder(tree)
        builder.remove(HARNESS_DIR)
        return str(builder.write())

    def source_tree(self, rev: str) -> str:
        return self.strip_harness(self.commit_tree(rev))

    def empty_tree(self) -> str:
        return str(self.repo.TreeBuilder().write())

    @contextlib.contextmanager
    def temp_index(self) -> Iterator[dict[str, str]]:
        """An environment for :meth:`run` — the harness's own (:func:`own_env`) — whose GIT_INDEX_FILE
        is a throw-away copy of the real index."""
        import shutil  # lazy, like tempfile: ~10 ms a stamp after a commit never needs
        import tempfile

        fd, tmp = tempfile.mkstemp(prefix="harness-index.", dir=self.repo.path)
        os.close(fd)
        try:
            real = os.path.join(self.repo.path, "index")
            if os.path.exists(real):
                # copy2 keeps the index mtime: git's "racy entry" check (an edit in the same
                # second as the index write) depends on it; the stat cache spares rehashing.
                shutil.copy2(real, tmp)
            else:
                os.unlink(tmp)
            yield {**own_env(), "GIT_INDEX_FILE": tmp}
        finally:
            for leftover in (tmp, tmp + ".lock"):
                if os.path.exists(leftover):
                    os.unlink(leftover)

    def worktree_source_tree(self) -> str:
        """The tree of the working directory's source: tracked and untracked-not-ignored files."""
        with self.temp_index() as env:
            self._unhide(env)
            self.run(["add", "-A", "--sparse", "--", ".", f":(exclude){HARNESS_DIR}"], env)
            tree = self.run(["write-tree"], env).strip()
        return self.strip_harness(tree)

    def foreign_location(self) -> str | None:
        """Why git, run by the caller's environment in :attr:`root`, would see another
        repository, working tree or index than the harness measures (None when it would not).

        A command run under such an environment tests tree B while the record says tree A,
        so evidence is refused rather than recorded.
        """
        defaults = {"GIT_DIR": self.git_dir, "GIT_WORK_TREE": self.root, "GIT_INDEX_FILE": self.git_dir / "index",
                    "GIT_COMMON_DIR": self.common_dir, "GIT_OBJECT_DIRECTORY": self.common_dir / "objects"}
        for var in LOCATION_VARS:
            value = os.environ.get(var)
            if value is None:
                continue
            default = defaults.get(var)
            if default is None or _resolved(self.root, value) != _resolved(self.root, str(default)):
                return f"{var}={value} is set in the environment"
        top = self._toplevel(own_env())
        if top is None or top != _resolved(self.root, str(self.root)):
            where = self.config_get("core.worktree")
            return (f"core.worktree={where} in the repository's config" if where
                    else f"git sees the working tree at {top}, not {self.root}")
        return None

    def _toplevel(self, env: dict[str, str]) -> str | None:
        top = self.run(["rev-parse", "--show-toplevel"], env, check=False).strip()
        return _resolved(self.root, top) if top else None

    def _unhide(self, env: dict[str, str]) -> None:
        """Clear, in the throw-away index, the flags that make `git add` skip a file on disk.

        An assume-unchanged or skip-worktree entry would keep its staged content in the tree
        while the tests ran against different bytes. (Skip-worktree entries whose file is
        absent — a sparse checkout — keep the staged content, as git would commit it.)
        """
        listing = self.run(["ls-files", "-v", "-z"], env)
        hidden = [entry[2:] for entry in listing.split("\0")
                  if entry[:1].islower() or (entry[:1] == "S" and os.path.lexists(self.root / entry[2:]))]
        if hidden:
            self.run(["update-index", "--no-assume-unchanged", "--no-skip-worktree", "-z", "--stdin"], env,
                     input="\0".join(hidden) + "\0", check=False)

    def run_proc(self, args: list[str], env: dict[str, str] | None = None, *, input: str | None = None,
                 timeout: float | None = None) -> subprocess.CompletedProcess[str]:
        """The one subprocess path to `git`: the repository root, ``env`` (default :func:`git_env`)."""
        return subprocess.run(["git", *args], cwd=self.root, env=git_env() if env is None else env, input=input,
                              capture_output=True, text=True, timeout=timeout)

    def run(self, args: list[str], env: dict[str, str] | None = None, *, input: str | None = None,
            check: bool = True) -> str:
        """Run `git` through :meth:`run_proc`: stdout, or HarnessError when ``check`` and git
        fails ("" when it fails unchecked)."""
        proc = self.run_proc(args, env, input=input)
        if proc.returncode != 0:
            if check:
                raise HarnessError(f"git {' '.join(args[:2])} failed: {proc.stderr.strip()}")
            return ""
        return proc.stdout

    def ident(self) -> str | None:
        """Who git says is committing ("Name <email>"), from env and config alike."""
        try:
            line = self.run(["var", "GIT_COMMITTER_IDENT"]).strip()
        except HarnessError:
            return None
        return line.rsplit(" ", 2)[0] if line.count(" ") >= 2 else line

    def is_ignored(self, rel: str) -> bool:
        return self.repo.path_is_ignored(rel)

    def changed_paths(self, old_tree: str, new_tree: str, limit: int = 10) -> tuple[list[str], int]:
        """Up to ``limit`` paths that differ between two trees, and how many differ in all."""
        return _changed_paths(self.repo, old_tree, new_tree, limit)

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

    # -- history ---------------------------------------------------------------
    def parents(self, commit: str) -> list[str]:
        return [str(p) for p in self.repo[commit].parent_ids]

    def rev_list(self, tips: list[str], exclude: list[str]) -> list[str]:
        """Commits reachable from ``tips`` and not from ``exclude``, oldest first (topological)."""
        walker = self.repo.walk(None, pygit2.enums.SortMode.TOPOLOGICAL | pygit2.enums.SortMode.REVERSE)
        for tip in tips:
            walker.push(tip)
        for ex in exclude:
            walker.hide(ex)
        return [str(c.id) for c in walker]

    def merge_bases(self, a: str, b: str) -> list[str]:
        """The best common ancestors of two commits ([] when their histories are unrelated)."""
        if not (self.has_commit(a) and self.has_commit(b)):
            return []
        return self.run(["merge-base", "--all", a, b], check=False).split()

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

    def is_shallow(self) -> bool:
        return bool(self.repo.is_shallow)

    def is_partial(self) -> bool:
        """A `--filter` clone: git fetches missing trees and blobs on demand, libgit2 does not."""
        if self.config_get("extensions.partialClone"):
            return True
        return any(self.config_get(f"remote.{name}.promisor") in ("true", "1", "yes", "on")
                   for name in self.remote_names())

    def remote_names(self) -> list[str]:
        return [r.name for r in self.repo.remotes]

    def has_remote(self, name: str) -> bool:
        return name in self.remote_names()

    def fetch(self, remote: str, refspecs: list[str], timeout: float = 300) -> tuple[bool, str]:
        """`git fetch REMOTE REFSPEC...` without tags; (succeeded, git's message)."""
        try:
            proc = self.run_proc(["fetch", "--quiet", "--no-tags", "--no-write-fetch-head", remote, *refspecs],
                                 git_env({"GIT_TERMINAL_PROMPT": "0"}), timeout=timeout)
        except subprocess.TimeoutExpired:
            return False, f"git fetch timed out after {timeout:g}s"
        return proc.returncode == 0, proc.stderr.strip()

    def unshallow(self, remote: str, timeout: float = 600) -> tuple[bool, str]:
        try:
            proc = self.run_proc(["fetch", "--quiet", "--unshallow", "--no-tags", remote],
                                 git_env({"GIT_TERMINAL_PROMPT": "0"}), timeout=timeout)
        except subprocess.TimeoutExpired:
            return False, f"git fetch --unshallow timed out after {timeout:g}s"
        # libgit2 caches the shallow boundary: reopen so the walk sees the whole history.
        self.repo = pygit2.Repository(self.repo.path)
        self._honour_quarantine()
        return proc.returncode == 0 and not self.repo.is_shallow, proc.stderr.strip()

    @contextlib.contextmanager
    def temp_worktree(self, commit: str) -> Iterator[Path]:
        """A detached worktree at ``commit`` in a temporary folder, removed afterwards."""
        import tempfile  # lazy: see temp_index

        with tempfile.TemporaryDirectory(prefix="harness-rerun-") as tmp:
            path = Path(tmp) / "tree"
            self.run(["worktree", "add", "--detach", "--quiet", str(path), commit])
            try:
                yield path
            finally:
                self.run(["worktree", "remove", "--force", str(path)], check=False)
                self.run(["worktree", "prune"], check=False)

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

    # -- notes -----------------------------------------------------------------
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

    @property
    def is_bare(self) -> bool:
        return bool(self.repo.is_bare)

    def write_note(self, ref: str, commit: str, message: str) -> None:
        try:
            sig = self.repo.default_signature
        except (KeyError, pygit2.GitError):
            sig = pygit2.Signature("harness", "harness@localhost")
        self.repo.create_note(message, sig, sig, commit, ref, True)

    def config_get(self, key: str) -> str | None:
        try:
            return self.repo.config[key]
        except KeyError:
            return None

    def config_get_all(self, key: str) -> list[str]:
        return self.run(["config", "--local", "--get-all", key], check=False).splitlines()

    def config_set(self, key: str, value: str, add: bool = False) -> None:
        """Set (or with ``add``, append to a multi-valued) repository config key."""
        self.run(["config", "--local", *(["--add"] if add else []), key, value])

    def config_unset(self, key: str, value: str | None = None) -> None:
        """Remove ``key`` (only the entries equal to ``value`` when given); absent is fine."""
        import re

        args = ["config", "--local", "--unset-all", key, *([f"^{re.escape(value)}$"] if value else [])]
        self.run(args, check=False)

    def cache_file(self, name: str) -> Path | None:
        """Where the harness keeps a cache of derived facts (keyed by object ids, so shared by
        all worktrees): ``<common git dir>/harness/<name>``; None when it cannot be made."""
        folder = self.common_dir / "harness"
        try:
            folder.mkdir(exist_ok=True)
        except OSError:
            return None
        return folder / name

    @property
    def git_dir(self) -> Path:
        return Path(self.repo.path)

    @property
    def common_dir(self) -> Path:
        """Where hooks live: shared by all worktrees of a repository."""
        gd = Path(self.repo.path)
        common = gd / "commondir"
        if common.exists():
            return (gd / common.read_text().strip()).resolve()
        return gd


def recording_git(root: Path) -> Git:
    """The repository at ``root``, for a run whose source tree is recorded (see :func:`ensure_recordable`)."""
    return ensure_recordable(Git(root))


def ensure_recordable(git: Git) -> Git:
    """``git``, refused when the caller's environment or config would make git (and the
    command) see another tree than the one the harness records."""
    from harness.errors import Refused

    root = git.root
    why = git.foreign_location()
    if why:
        raise Refused(f"not recording: {why}, so the command would not see the source tree the harness "
                      f"measures at {root}",
                      hint="unset the GIT_* variable (or core.worktree) and run again from the repository itself")
    return git


def _resolved(base: Path, path: str) -> str:
    return os.path.realpath(os.path.join(base, path))


def _changed_paths(repo: Any, old_tree: str, new_tree: str, limit: int) -> tuple[list[str], int]:
    try:
        old, new = repo[old_tree], repo[new_tree]
    except (KeyError, ValueError):
        return [], -1  # a tree from another clone: we know it differs, not how
    paths = [d.new_file.path or d.old_file.path for d in old.diff_to_tree(new).deltas]
    return paths[:limit], len(paths)


class TreeSource:
    """Read `.harness/` files from a git tree (a commit's, or the index's)."""

    def __init__(self, git: Git, tree_id: str, label: str, rev: str | None = None) -> None:
        self.repo = git.repo
        self.tree = git.repo[tree_id]
        self.label = label
        self.rev = rev  # the commit this tree is from, for hints ("git checkout REV -- PATH")
        # Folder objects by path: a lookup by full path makes libgit2 re-parse every folder on
        # the way (the tasks folder has one entry per task), so N lookups would cost N².
        self._objects: dict[str, Any] = {}

    def changed_paths(self, old_tree: str, new_tree: str, limit: int = 10) -> tuple[list[str], int]:
        return _changed_paths(self.repo, old_tree, new_tree, limit)

    def special_entries(self, rel: str, known: Callable[[str, str], bool] | None = None) -> list[str]:
        """Paths under ``rel`` that are symlinks or submodules: the harness reads neither.

        ``known(path, tree id)`` says a folder was already judged (a parent holds the very same
        tree): it is not walked again, so the cost follows what changed, not the store's size.
        """
        top = self._entry(rel)
        out, stack = [], [(rel, top)] if isinstance(top, pygit2.Tree) else []
        while stack:
            base, tree = stack.pop()
            for entry in tree:
                path = f"{base}/{entry.name}"
                if entry.filemode in (pygit2.enums.FileMode.LINK, pygit2.enums.FileMode.COMMIT):
                    out.append(path)
                elif isinstance(entry, pygit2.Tree) and not (known and known(path, str(entry.id))):
                    stack.append((path, entry))
        return sorted(out)

    def changes_since(self, old: TreeSource, rel: str) -> list[tuple[str, int]]:
        """(path under ``rel``, mode in this tree, 0 if deleted) of every file that differs from
        ``old``'s ``rel``: libgit2 walks both trees and skips folders whose ids are equal, so the
        cost follows the change, not the number of folders."""
        ours, theirs = self._entry(rel), old._entry(rel)
        if not isinstance(ours, pygit2.Tree) or not isinstance(theirs, pygit2.Tree):
            empty = self.repo[self.repo.TreeBuilder().write()]
            ours, theirs = ours if isinstance(ours, pygit2.Tree) else empty, \
                theirs if isinstance(theirs, pygit2.Tree) else empty
        before, after = theirs, ours
        out = []
        for delta in before.diff_to_tree(after).deltas:
            deleted = delta.status == pygit2.enums.DeltaStatus.DELETED
            out.append((delta.old_file.path if deleted else delta.new_file.path, 0 if deleted else delta.new_file.mode))
        return out

    @staticmethod
    def is_special(mode: int) -> bool:
        """A symlink or a submodule: what the harness never reads."""
        return mode in (pygit2.enums.FileMode.LINK, pygit2.enums.FileMode.COMMIT)

    def entries(self, rel: str) -> dict[str, str]:
        """name -> object id of every entry of the folder ``rel``, in one listing (empty if absent)."""
        obj = self._entry(rel)
        return {e.name: str(e.id) for e in obj} if isinstance(obj, pygit2.Tree) else {}

    def _entry(self, rel: str) -> Any:  # a pygit2 object or None
        if not rel:
            return self.tree
        if rel in self._objects:
            return self._objects[rel]
        parent, _, name = rel.rpartition("/")
        folder = self._entry(parent)
        obj = None
        if isinstance(folder, pygit2.Tree) and name:
            try:
                obj = folder[name]
            except KeyError:
                obj = None
        self._objects[rel] = obj
        return obj

    def read(self, rel: str) -> bytes | None:
        obj = self._entry(rel)
        if not isinstance(obj, pygit2.Blob) or obj.filemode == pygit2.enums.FileMode.LINK:
            return None  # a symlink's blob is its target's name, not the file's content
        from harness.store import bounded

        kind = bounded.kind_of(rel)
        if obj.size > bounded.CAPS[kind]:  # checked before git inflates the blob into memory
            raise HarnessError(f"{rel}: {obj.size} bytes in {self.label}, over the "
                               f"{bounded.CAPS[kind] // bounded.MiB} MiB limit for a {kind} file (refused)")
        return obj.data

    def listdir(self, rel: str) -> list[str]:
        obj = self._entry(rel)
        return sorted(str(e.name) for e in obj) if isinstance(obj, pygit2.Tree) else []

    def oid(self, rel: str) -> str | None:
        obj = self._entry(rel)
        return str(obj.id) if obj is not None else None


def index_tree(git: Git, index_file: str | None = None) -> str:
    """The full tree (``.harness`` included) of the index git is committing.

    `git write-tree` reuses the index's cached trees, so only changed folders are hashed.
    """
    path = index_file or os.environ.get("GIT_INDEX_FILE") or os.path.join(git.repo.path, "index")
    if not os.path.isabs(path):
        path = str(git.root / path)
    if not os.path.exists(path):
        return git.empty_tree()
    return git.run(["write-tree"], git_env({"GIT_INDEX_FILE": path})).strip()


def diff_since(git: Git, base: str) -> tuple[str, list[tuple[str, str]]]:
    """(unified diff, [(status, path)]) of the working tree's source against ``base``, .harness excluded."""
    spec = ["--", ".", f":(exclude){HARNESS_DIR}"]
    with git.temp_index() as env:
        # Untracked files belong to the change too: an intent-to-add entry shows them as added.
        git.run(["add", "-A", "-N", *spec], env)
        text = git.run(["diff", "--no-color", "--no-ext-diff", base, *spec], env)
        names = git.run(["diff", "--name-status", "--no-renames", base, *spec], env)
    pairs = [line.split("\t", 1) for line in names.splitlines() if "\t" in line]
    return text, [(a, b) for a, b in pairs]
