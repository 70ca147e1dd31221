"""Working trees: the user's source tree and diff, whether git would see that tree at all,
and a throw-away checkout of a commit (to rerun evidence on).

The user's tree is measured in a throw-away copy of the index, so the staging area is never
touched, and in the harness's own environment (:func:`own_env`), so a caller's GIT_*
variables cannot make it measure another tree.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

from harness.gitio.environment import HARNESS_DIR, LOCATION_VARS, measuring, own_env
from harness.gitio.trees import Trees

TYPE_CHECKING = False  # typing's, without importing typing on a hot path (tests/test_layering.py)
if TYPE_CHECKING:
    from typing import TypeVar

    from harness.gitio.source_stat import Snapshot

    W = TypeVar("W", bound="Worktree")


class Worktree(Trees):
    @contextlib.contextmanager
    def temp_index(self) -> Iterator[dict[str, str]]:
        """An environment for :meth:`run` — the harness's own (:func:`own_env`) — whose GIT_INDEX_FILE
        is a throw-away copy of the real index."""
        from harness import scratch_files

        fd, tmp = scratch_files.create(self.git_dir, "harness-index.")
        try:
            real = os.path.join(self.git_dir, "index")
            try:
                if os.path.exists(real):
                    # The index mtime comes along: git's "racy entry" check (an edit in the same
                    # second as the index write) depends on it; the stat cache spares rehashing.
                    scratch_files.copy_with_times(real, fd)
            finally:
                os.close(fd)
            if not os.path.exists(real):
                os.unlink(tmp)  # git writes a new index
            yield {**measuring(own_env()), "GIT_INDEX_FILE": tmp}
        finally:
            for leftover in (tmp, tmp + ".lock"):
                if os.path.exists(leftover):
                    os.unlink(leftover)

    def worktree_source_tree(self) -> str:
        """The tree of the working directory's source: tracked and untracked-not-ignored files, without
        the top-level ``.harness``. It is taken out of the throw-away index before the tree is written
        (one git process, where reading and rewriting the written tree took two), so its entries a merge
        left unmerged stop no measurement: they are no source. A file whose stat matches its index entry is
        taken as that entry's blob (git's stat cache): the gate's and status's measure, cheap on a large tree."""
        return self._measured(rehash=False)

    def hashed_source_tree(self) -> str:
        """:meth:`worktree_source_tree` with every file hashed afresh: the stat data of the copied index is trusted
        for nothing. An entry written (into .git/index, by anyone who can write the folder) with the disk file's stat
        and another blob would otherwise put that blob in the tree while a command ran on the disk's bytes (read
        95's F-0333): what evidence is bound to is the bytes themselves."""
        return self._measured(rehash=True)

    def source_stat(self) -> Snapshot:
        """Each source file's and folder's stat (:mod:`.source_stat`): kept before and after a run, no file was
        written and no folder on a file's path renamed."""
        from harness.gitio.source_stat import source_stat

        return source_stat(self)

    def _measured(self, rehash: bool) -> str:
        """The source tree, measured in a throw-away copy of the real index (``rehash``: its stat data dropped)."""
        add = ["add", "-A", "--sparse", "--", ".", f":(exclude){HARNESS_DIR}"]
        with self.temp_index() as env:
            # The listing is read while .harness is taken out (it may list the copy before or after: the two differ
            # in .harness alone, which _unhide and _unstat leave be); its flags are cleared after.
            listed = ["ls-files", "-v", "-z", *(["-s"] if rehash else [])]
            with self.started(listed, env) as listing:  # bytes: a name need not be UTF-8
                # -f: the copy's staged .harness files may differ from HEAD and the disk, which plain rm refuses.
                self.run(["rm", "--cached", "-r", "-f", "-q", "--sparse", "--ignore-unmatch", "--", HARNESS_DIR], env)
                (self._unstat if rehash else self._unhide)(env, listing())
            self.run(add, env)
            return self.run(["write-tree"], env).strip()

    def differs_from_commit(self, tree: str, head: str | None) -> bool:
        """Whether source tree ``tree`` is not ``head``'s source tree (the empty tree's, unborn)."""
        return tree != (self.source_tree(head) if head else self.empty_tree())

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

    def _unhide(self, env: dict[str, str], listing: bytes) -> None:
        """Clear, in the throw-away index, the flags that make `git add` skip a file on disk (``listing``:
        `git ls-files -v -z` of it; its ``.harness`` entries, taken out, are left be).

        An assume-unchanged or skip-worktree entry would keep its staged content in the tree
        while the tests ran against different bytes. (Skip-worktree entries whose file is
        absent — a sparse checkout — keep the staged content, as git would commit it.)
        """
        root, harness = os.fsencode(self.root), HARNESS_DIR.encode()
        entries = [entry for entry in listing.split(b"\0")
                   if entry[2:] != harness and not entry[2:].startswith(harness + b"/")]
        hidden = [entry[2:] for entry in entries
                  if entry[:1].islower() or (entry[:1] == b"S" and os.path.lexists(os.path.join(root, entry[2:])))]
        # One flag per call: given both, `git update-index` applies only the first to the paths it reads (F-0059).
        for flag in ("--no-assume-unchanged", "--no-skip-worktree") if hidden else ():
            self.run_bytes(["update-index", flag, "-z", "--stdin"], env, input=b"\0".join(hidden) + b"\0", check=False)

    def _unstat(self, env: dict[str, str], listing: bytes) -> None:
        """Put every stage-0 entry of the throw-away index back without its stat data or flags (``listing``: `git
        ls-files -s -v -z` of it), so that `git add` hashes each file it finds: what :meth:`_unhide` clears goes with
        the flags. Left as they are: ``.harness`` (taken out), submodules (git reads their HEAD, never a stat), and a
        skip-worktree entry whose file is absent (a sparse checkout: its staged content stays, as git would commit it).
        """
        root, harness = os.fsencode(self.root), HARNESS_DIR.encode()
        feed = []
        for entry in listing.split(b"\0"):
            meta, _, name = entry[2:].partition(b"\t")
            fields = meta.split(b" ")
            if (len(fields) != 3 or fields[2] != b"0" or fields[0] == b"160000" or name == harness
                    or name.startswith(harness + b"/")
                    or (entry[:1] == b"S" and not os.path.lexists(os.path.join(root, name)))):
                continue
            feed.append(entry[2:])
        if feed:
            self.run_bytes(["update-index", "-z", "--index-info"], env, input=b"\0".join(feed) + b"\0")

    def verify_checkout(self, worktree: Path) -> None:
        """HarnessError unless ``worktree`` holds exactly its commit's tree (see :mod:`.checkout_check`)."""
        from harness.gitio.checkout_check import verify_checkout

        verify_checkout(self, worktree)

    @contextlib.contextmanager
    def temp_worktree(self, commit: str) -> Iterator[Path]:
        """A detached worktree at ``commit`` in a temporary folder, its submodules checked out at the
        commits it records (HarnessError when a local copy lacks one), removed afterwards. The folder is made fresh
        for this worktree (mkdtemp), so nothing an earlier run wrote is in the worktree's parent; what one wrote in the
        folders above it is the re-run's fingerprint's to find (read 86's F-0298)."""
        import tempfile  # lazy: a rerun alone makes a folder

        from harness.gitio import submodules

        with tempfile.TemporaryDirectory(prefix="harness-rerun-") as tmp:
            path = Path(tmp) / "tree"
            self.run(["worktree", "add", "--detach", "--quiet", str(path), commit])
            try:
                submodules.check_out(self, path, self.root)
                _end_pytest_search(path)
                yield path
            finally:
                self.run(["worktree", "remove", "--force", str(path)], check=False)
                self.run(["worktree", "prune"], check=False)


_CONFIG_READ = 8 << 20  # bytes of a root configuration file read: pytest's own is no bigger


def _end_pytest_search(path: Path) -> None:
    """Make pytest, run in the worktree ``path``, read no configuration (nor the conftest.py beside it) from the
    folders above it — tempfile's, which the caller's TMPDIR chooses (read 81's F-0294): the rule is
    :mod:`harness.core.pytest_search`."""
    from harness.core.pytest_search import STOP_TEXTS, stop_file
    from harness.paths import PYTEST_CONFIGS

    root = {}
    for name in PYTEST_CONFIGS:
        if os.path.isfile(path / name):  # as pytest looks: a symlink to a file is the file
            with open(path / name, "rb") as f:
                root[name] = f.read(_CONFIG_READ).decode("utf-8", errors="replace")
    stop = stop_file(root)
    if stop is None:
        return
    try:
        with open(path / stop, "x", encoding="utf-8") as f:
            f.write(STOP_TEXTS[stop])
    except OSError as exc:  # a folder or a dangling link of that name: pytest would look above it
        from harness.errors import HarnessError

        raise HarnessError(f"the tree's {stop} is no file ({exc.strerror}): pytest run in its worktree would read "
                           "its configuration from the folders above it", hint=f"make {stop} a file, or remove it") from None


def ensure_recordable(git: W) -> W:
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


def diff_since(git: Worktree, base: str) -> tuple[str, list[tuple[str, str]]]:
    """(unified diff, [(status, path)]) of the working tree's source against ``base``, .harness excluded."""
    spec = ["--", ".", f":(exclude){HARNESS_DIR}"]
    with git.temp_index() as env:
        # Untracked files belong to the change too: an intent-to-add entry shows them as added.
        git.run(["add", "-A", "-N", *spec], env)
        text = git.run(["diff", "--no-color", "--no-ext-diff", base, *spec], env)
        names = git.run(["diff", "--name-status", "--no-renames", base, *spec], env)
    pairs = [line.split("\t", 1) for line in names.splitlines() if "\t" in line]
    return text, [(a, b) for a, b in pairs]


def _resolved(base: Path, path: str) -> str:
    return os.path.realpath(os.path.join(base, path))
