"""The hermetic environment every test runs in: HOME, git's config and identity, a tmpfs for the run."""

from __future__ import annotations

import os
import re
import shlex
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from support.paths import PY

GIT_ENV = {
    "GIT_AUTHOR_NAME": "Test", "GIT_AUTHOR_EMAIL": "test@example.com",
    "GIT_COMMITTER_NAME": "Test", "GIT_COMMITTER_EMAIL": "test@example.com",
    "GIT_CONFIG_NOSYSTEM": "1",
}


# No sample hooks copied into every repository and clone a test makes (a template of empty hooks/
# and info/ folders instead: one in seven of the files a run writes, copies and deletes), and no
# `git maintenance run --auto` process after every commit.
GITCONFIG = ("[init]\n\tdefaultBranch = main\n\ttemplateDir = {template}\n[commit]\n\tgpgsign = false\n"
             "[maintenance]\n\tauto = false\n[gc]\n\tauto = 0\n")


# Where a run's repositories go when the machine has memory to spare: /dev/shm, Linux's tmpfs, so
# that the ~55,000 files a run writes, and the fsyncs of every harness write and git ref update,
# never touch a disk (the inner loop took 16% less wall time, 62 s against 74 s back to back, on the
# 2-core machines this suite is timed on). HARNESS_TEST_TMPFS names another folder (the suite's own tests of this choice do).
RAM_TEMP = Path(os.environ.get("HARNESS_TEST_TMPFS", "/dev/shm"))


RAM_TEMP_MIN_FREE = 2 << 30  # a full run keeps ~0.3 GB there, and pytest keeps three runs


def ram_temp_root(candidate: Path | None = None, min_free: int = RAM_TEMP_MIN_FREE) -> Path | None:
    """``candidate`` (default RAM_TEMP) when it is a writable folder with ``min_free`` bytes free
    and the machine has as much memory available (a tmpfs's free space is only its cap), else
    None: no /dev/shm on macOS, 64 MB of it in a default Docker container."""
    candidate = RAM_TEMP if candidate is None else candidate
    try:
        stat = os.statvfs(candidate)
        with open("/proc/meminfo", "rb") as meminfo:
            available = next(int(line.split()[1]) * 1024 for line in meminfo if line.startswith(b"MemAvailable:"))
    except (OSError, StopIteration, ValueError):
        return None
    if not candidate.is_dir() or not os.access(candidate, os.W_OK | os.X_OK):
        return None
    return candidate if min(stat.f_bavail * stat.f_frsize, available) >= min_free else None


def hermetic_env(mp: pytest.MonkeyPatch, home: Path) -> None:
    """What every test runs under (the autouse fixture ``_git_identity``, and the builds of session
    templates): ``home`` as HOME holding a fixed .gitconfig, a fixed git identity, no system git
    config, and nothing that would point git at another repository or skip hooks."""
    home.mkdir(parents=True, exist_ok=True)
    mp.setenv("HOME", str(home))
    mp.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    for key, value in GIT_ENV.items():
        mp.setenv(key, value)
    template = home / ".git-template"
    for folder in ("hooks", "info"):
        (template / folder).mkdir(parents=True, exist_ok=True)
    (home / ".gitconfig").write_text(GITCONFIG.format(template=template))
    # `python3` in a command a test records is this suite's interpreter, found first on PATH: not a
    # version manager's shim (pyenv's costs a dozen processes a call) nor another Python. Only
    # python3: putting the venv's bin/ first would also put `harness` there, and hide a hook that
    # names a Python it cannot run behind the shim's `harness` fallback. A script, not a symlink:
    # a venv's interpreter started through a link elsewhere would not find its venv.
    # The host's version-manager shim folders are left off PATH: `audit --rerun` probes every Python a
    # script could start by name, and a host with pyenv has a dozen shims, each a script starting pyenv
    # processes (~0.5 s a probe) — the suite does not depend on the host's Pythons. (No `python` here:
    # a test's virtualenv put next on PATH provides it, as a script's `python` finds it.)
    bin_dir = home / "bin"
    bin_dir.mkdir(exist_ok=True)
    (bin_dir / "python3").write_text(f'#!/bin/sh\nexec {shlex.quote(PY)} "$@"\n')
    (bin_dir / "python3").chmod(0o755)
    kept = [f for f in os.environ.get("PATH", "").split(os.pathsep) if not _version_manager_shims(f)]
    mp.setenv("PATH", os.pathsep.join([str(bin_dir), *kept]))
    for var in ("GIT_INDEX_FILE", "GIT_DIR", "GIT_WORK_TREE", "PRE_COMMIT_FROM_REF", "PRE_COMMIT_TO_REF", "SKIP"):
        mp.delenv(var, raising=False)
    # The Python processes a test starts write no bytecode into its scratch repository, whatever the caller's
    # shell says: a __pycache__/ a recorded run leaves is a change of the measured source, and evidence of such a
    # run is stale (F-0054, F-0055). This project's CI and dev shells set it; a user's need not.
    mp.setenv("PYTHONDONTWRITEBYTECODE", "1")
    # The pytest runs tests record as evidence in scratch repositories need none of the plugins this
    # venv holds (xdist, hypothesis, ...); loading them costs ~0.6 s per start.
    mp.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
    # git logs every hook it starts (trace2) in HOME, for :func:`hooks_started`; nesting 1 writes a
    # third less and keeps the hook events.
    mp.setenv("GIT_TRACE2_EVENT", str(home / TRACE2_FILE))
    mp.setenv("GIT_TRACE2_EVENT_NESTING", "1")


def _version_manager_shims(folder: str) -> bool:
    """pyenv's shim folders (its own, and pyenv-virtualenv's)."""
    return os.path.basename(folder.rstrip(os.sep)) == "shims" and ".pyenv" in folder


HOOKS_KEY = "git hooks started"  # in a Template's data


TRACE2_FILE = "git-trace2.json"  # in the HOME of hermetic_env


def hooks_started(home: Path) -> list[str]:
    """The git hooks (by name, in order, once each) that git logged starting under the hermetic
    ``home`` (its GIT_TRACE2_EVENT file, see :func:`hermetic_env`)."""
    try:
        raw = (home / TRACE2_FILE).read_bytes()
    except FileNotFoundError:
        return []
    # A regular expression, not a JSON parse: concurrent git processes append to one file, and a
    # torn line must not hide the hook it names.
    names = re.findall(rb'"child_class":"hook"[^\n]*?"hook_name":"([^"]*)"', raw)
    return list(dict.fromkeys(name.decode("utf-8", "replace") for name in names))


@contextmanager
def hermetic(home: Path, **env: str) -> Iterator[None]:
    """The environment of a test (see ``hermetic_env``) for code running outside one."""
    with pytest.MonkeyPatch.context() as mp:
        hermetic_env(mp, home)
        for key, value in env.items():
            mp.setenv(key, value)
        yield
