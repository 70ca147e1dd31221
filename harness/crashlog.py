"""Crash logs: what an unexpected error leaves for whoever debugs it, as pre-commit's error
handler does. A hook answers such an error with one line naming the log (a deny, a block or a
refusal) instead of a traceback its host may drop or, worse, take for an allow.

A log holds the harness, git and Python versions, argv, the input's head when there is one,
and the traceback, all redacted; it goes under ``<common git dir>/harness/`` (else a private
temp folder). Writing one never raises: a log that cannot be written leaves the answer
without a path, not without an answer.
"""

from __future__ import annotations

import os
import stat
import sys
import tempfile
import traceback
from datetime import UTC, datetime
from pathlib import Path

KEEP = 20  # a hook failing on every call must not fill the git dir; the newest tell the story
INPUT_HEAD = 2000  # characters of a hook's stdin kept: enough to see a host's format drift


def describe(exc: BaseException) -> str:
    """``Type: message`` on one line, short enough for a hook's answer."""
    try:
        text = str(exc)
    except Exception:  # an exception whose __str__ fails is still named
        text = ""
    line = f"{type(exc).__name__}: {text}" if text else type(exc).__name__
    return " ".join(line.split())[:200]


def folder(near: Path | None = None) -> Path | None:
    """Where crash logs go: the common git dir's ``harness/`` of the repository at ``near`` (else
    of the current directory, as a git hook runs), else a temp folder only this user can use."""
    from harness.gitio.fast_path import common_git_dir

    common = common_git_dir(near)
    if common is None and near is not None:
        common = common_git_dir()
    if common is not None:
        try:
            (common / "harness").mkdir(exist_ok=True)
            return common / "harness"
        except OSError:
            pass
    private = Path(tempfile.gettempdir()) / f"harness-crash-{os.getuid()}"
    try:
        private.mkdir(mode=0o700, exist_ok=True)
        st = os.lstat(private)
    except OSError:
        return None
    # A shared temp dir: a folder someone else made (or a link they planted) is not ours to write.
    return private if stat.S_ISDIR(st.st_mode) and st.st_uid == os.getuid() else None


def write(exc: BaseException, near: Path | None = None, stdin: str | None = None) -> Path | None:
    """Write the crash log of ``exc``; its path, or None when nothing could be written."""
    try:
        where = folder(near)
        if where is None:
            return None
        now = datetime.now(UTC)
        path = where / f"crash-{now.strftime('%Y%m%dT%H%M%S.%fZ')}-{os.getpid()}.log"
        from harness.store import fsio

        fsio.atomic_write(path, _text(exc, now, stdin).encode("utf-8", "backslashreplace"))
        _prune(where)
        return path
    except Exception:  # the answer matters more than its log
        return None


def _text(exc: BaseException, now: datetime, stdin: str | None) -> str:
    from harness import __version__
    from harness.core.redact import compile_patterns, redact_argv, secret_env
    from harness.gitio.fast_path import git_version

    redactor = compile_patterns(literals=secret_env(os.environ))
    trace = "".join(traceback.format_exception(exc))
    lines = [
        "### version information", "",
        f"harness version: {__version__}",
        f"git --version: {git_version() or 'unknown (git did not answer)'}",
        f"sys.version: {' '.join(sys.version.split())}",
        f"sys.executable: {sys.executable}",
        f"platform: {sys.platform}",
        f"time: {now.isoformat(timespec='seconds')}",
        f"cwd: {_cwd()}", "",
        "### error information", "",
        f"argv: {redact_argv(list(sys.argv), redactor)!r}", "",
    ]
    if stdin is not None:
        head = stdin[:INPUT_HEAD] + (f"… ({len(stdin)} characters in all)" if len(stdin) > INPUT_HEAD else "")
        lines += ["stdin:", "```", redactor.redact(head), "```", ""]
    lines += ["```", redactor.redact(trace).rstrip("\n"), "```", ""]
    return "\n".join(lines)


def _cwd() -> str:
    try:
        return os.getcwd()
    except OSError as exc:  # a deleted working directory is a clue, not a second crash
        return f"unknown ({describe(exc)})"


def _prune(where: Path) -> None:
    logs = sorted(where.glob("crash-*.log"))  # names sort by time
    for old in logs[:-KEEP]:
        try:
            old.unlink()
        except OSError:
            pass
