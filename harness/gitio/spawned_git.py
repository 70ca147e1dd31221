"""`git` processes the agent's tool guard starts, without the subprocess module.

The guard runs before every tool call, and a command line that names git reads the repository's
configuration (and, for a commit, its framework config as HEAD and the index hold it) from git.
Importing subprocess cost such a call more than the git processes it ran; os.posix_spawnp starts
them as harness.gitio.push_fast_path does, and all of a call's processes are started before the
first is read, so they run side by side. Each answers what `subprocess.run(..., cwd=root,
capture_output=True, timeout=TIMEOUT)` answered: (exit code, standard output), or None when git
could not be started or outran its time (then it is killed).
"""

from __future__ import annotations

import os

from harness.gitio.environment import git_env

TIMEOUT = 10.0  # seconds a git process may take (as subprocess.run(timeout=10) allowed each)


class SpawnedGit:
    """One `git -C ROOT ARGS...` started: its output is read by :meth:`result`."""

    def __init__(self, root: str, args: list[str]) -> None:
        self.pid: int | None = None
        self.fd: int | None = None
        try:
            out_r, out_w = os.pipe()
        except OSError:
            return  # out of descriptors: result() answers None, as subprocess.run's OSError did
        # `-C ROOT`: posix_spawn has no working folder of its own; git goes to ROOT before anything else.
        argv = ["git", "-C", root, *args]
        actions = [(os.POSIX_SPAWN_DUP2, out_w, 1), (os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0),
                   (os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0)]
        try:
            self.pid = os.posix_spawnp("git", argv, git_env(), file_actions=actions)
        except OSError:
            os.close(out_r)  # no git to run: result() answers None, as subprocess.run's OSError did
        else:
            self.fd = out_r
        finally:
            os.close(out_w)

    def result(self, timeout: float = TIMEOUT) -> tuple[int, bytes] | None:
        """(exit code, standard output), or None when git did not start or ran past ``timeout``."""
        if self.pid is None or self.fd is None:
            return None
        import select
        import time

        chunks: list[bytes] = []
        deadline = time.monotonic() + timeout
        poller = select.poll()
        poller.register(self.fd, select.POLLIN | select.POLLHUP | select.POLLERR)
        try:
            while True:
                left = deadline - time.monotonic()
                if left <= 0 or not poller.poll(max(1, int(left * 1000))):
                    self._kill()
                    return None
                chunk = os.read(self.fd, 1 << 16)
                if not chunk:
                    break
                chunks.append(chunk)
        finally:
            os.close(self.fd)
            self.fd = None
        return os.waitstatus_to_exitcode(os.waitpid(self.pid, 0)[1]), b"".join(chunks)

    def _kill(self) -> None:
        assert self.pid is not None
        try:
            os.kill(self.pid, 9)
        except OSError:
            pass  # already gone
        os.waitpid(self.pid, 0)


def start(root: str, *args: str) -> SpawnedGit:
    return SpawnedGit(root, list(args))
