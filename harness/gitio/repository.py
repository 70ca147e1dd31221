"""An opened repository: where it is, its config, and the one path to `git` processes.

:class:`~harness.gitio.git.Git` is this plus one class per concern (history, notes, trees,
the working directory, remotes); each of those builds on what is here and on nothing else.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

from harness.errors import HarnessError
from harness.gitio.environment import git_env
from harness.gitio.lazy_pygit2 import pygit2

TYPE_CHECKING = False  # typing's, without importing typing on a hot path (tests/test_layering.py)
if TYPE_CHECKING:
    from typing import Any


class Repository:
    def __init__(self, root: Path) -> None:
        try:
            # Any: pygit2 types ``repo[oid]`` as a bare Object; we index by ids whose kind we know.
            self.repo: Any = pygit2.Repository(str(root))
        except pygit2.GitError as exc:
            unsupported = _unsupported_object_format(Path(root))
            if unsupported:
                raise HarnessError(
                    f"{root}: a {unsupported} git repository (`git init --object-format={unsupported}`): the libgit2 "
                    f"the harness reads git with (pygit2 {pygit2.__version__}, libgit2 {pygit2.LIBGIT2_VERSION}) does not "
                    f"support {unsupported} repositories ({exc})",
                    hint="use the harness in a sha1 repository (git's default object format)") from None
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

    # -- git processes ---------------------------------------------------------
    def run_proc(self, args: list[str], env: dict[str, str] | None = None, *, input: str | None = None,
                 timeout: float | None = None) -> subprocess.CompletedProcess[str]:
        """The one subprocess path to `git`: the repository root, ``env`` (default :func:`git_env`)."""
        return subprocess.run(["git", *args], cwd=self.root, env=git_env() if env is None else env, input=input,
                              capture_output=True, text=True, timeout=timeout)

    def run_bytes(self, args: list[str], env: dict[str, str] | None = None, *, input: bytes | None = None,
                  check: bool = True) -> bytes:
        """:meth:`run` for output read as git wrote it: path names need not be UTF-8 (b"" when it
        fails unchecked)."""
        proc = subprocess.run(["git", *args], cwd=self.root, env=git_env() if env is None else env, input=input,
                              capture_output=True)
        if proc.returncode != 0:
            if check:
                raise HarnessError(f"git {' '.join(args[:2])} failed: {proc.stderr.decode('utf-8', 'replace').strip()}")
            return b""
        return proc.stdout

    @contextlib.contextmanager
    def started(self, args: list[str], env: dict[str, str] | None = None) -> Iterator[Callable[[], bytes]]:
        """``output()``: :meth:`run_bytes` of ``args``, its git process started now, so that it runs beside
        what the caller does meanwhile; ended, when its output was not asked for, as the block ends."""
        proc = subprocess.Popen(["git", *args], cwd=self.root, env=git_env() if env is None else env,
                                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)

        def output() -> bytes:
            out, err = proc.communicate()
            if proc.returncode != 0:
                raise HarnessError(f"git {' '.join(args[:2])} failed: {err.decode('utf-8', 'replace').strip()}")
            return out

        try:
            yield output
        finally:
            if proc.returncode is None:  # not asked for: the caller failed first
                proc.kill()
                proc.communicate()

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

    # -- config ----------------------------------------------------------------
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

    # -- where things are ------------------------------------------------------
    @property
    def is_bare(self) -> bool:
        return bool(self.repo.is_bare)

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
        gd = self.git_dir
        common = gd / "commondir"
        if common.exists():
            return (gd / common.read_text().strip()).resolve()
        return gd


def _unsupported_object_format(root: Path) -> str | None:
    """The object format of the repository at ``root`` when git reads it and it is not sha1 (a
    sha256 repository, which this libgit2 refuses as "unknown object format"); else None."""
    try:
        proc = subprocess.run(["git", "rev-parse", "--show-object-format"], cwd=root, env=git_env(),
                              capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    fmt = proc.stdout.strip()
    return fmt if proc.returncode == 0 and fmt and fmt != "sha1" else None
