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

    def __init__(self, root: str, args: list[str], stdin: bytes | None = None) -> None:
        self.pid: int | None = None
        self.fd: int | None = None
        pipes: list[int] = []
        try:
            pipes += os.pipe()  # git's standard output
            if stdin is not None:
                pipes += os.pipe()  # and its standard input, when it is given one
        except OSError:
            for fd in pipes:
                os.close(fd)
            return  # out of descriptors: result() answers None, as subprocess.run's OSError did
        out_r, out_w, *fed = pipes
        # `-C ROOT`: posix_spawn has no working folder of its own; git goes to ROOT before anything else.
        argv = ["git", "-C", root, *args]
        given = (os.POSIX_SPAWN_DUP2, fed[0], 0) if fed else (os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0)
        actions = [(os.POSIX_SPAWN_DUP2, out_w, 1), (os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0), given]
        try:
            self.pid = os.posix_spawnp("git", argv, git_env(), file_actions=actions)
        except OSError:
            os.close(out_r)  # no git to run: result() answers None, as subprocess.run's OSError did
        else:
            self.fd = out_r
        finally:
            for fd in (out_w, *fed[:1]):
                os.close(fd)
        if fed:
            _feed(fed[1], (stdin or b"") if self.pid is not None else b"")

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


def _feed(fd: int, data: bytes) -> None:
    """Write ``data`` to a git's standard input and close it. Only a few lines are ever given (far less
    than a pipe holds), so the write never waits for git to read them."""
    try:
        while data:
            data = data[os.write(fd, data):]
    except OSError:
        pass  # git exited without reading (it could not start in ROOT): result() answers its exit code
    finally:
        os.close(fd)


def start(root: str, *args: str, stdin: bytes | None = None) -> SpawnedGit:
    """`git -C ROOT ARGS...` started, given ``stdin`` (None: /dev/null) as its standard input."""
    return SpawnedGit(root, list(args), stdin)
