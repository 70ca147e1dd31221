"""What the agent's tool guard needs of a repository's git configuration: its aliases and
the folders git runs hooks from, and for a commit the framework config HEAD and the index hold.
At most one `git config` and one `git cat-file` process, and no pygit2 (the guard runs before
every agent tool call); the pure judge (harness.agent.judge.bypass) gets it as data.
"""

from __future__ import annotations

import os

from harness.gitio import spawned_git
from harness.gitio.environment import common_dir
from harness.paths import FRAMEWORK_CONFIG

TYPE_CHECKING = False  # pathlib costs the guard more than these few paths: they are joined as os.path strings
if TYPE_CHECKING:
    from pathlib import Path

    from harness.gitio.spawned_git import SpawnedGit

# Every config file git reads here (system, global, local, worktree, and what they include).
# Aliases and the hooks folder; the notes ref `git notes` writes by default and where each remote is (the
# guard judges a fetch from a remote named `self` whose url is `.` as a fetch from `.`; #28's task F-0064, F-0065).
# A submodule's `update = !CMD`, which `git submodule update` runs through the shell, is read as an alias is (F-0255),
# and so are a remote's uploadpack and receivepack, which a fetch and a push run (F-0310), and the URL rewrites
# (`url.<base>.insteadOf`), whose `ext::` base is a command a fetch or push runs (F-0321).
QUERY = (r"^(alias\..*|core\.hookspath|core\.notesref|remote\..*\.(url|uploadpack|receivepack)|submodule\..*\.update"
         r"|url\..*\.(insteadof|pushinsteadof))$")


def start_config(root: str | Path) -> SpawnedGit:
    """The `git config` process :func:`aliases_from` reads, started (so others can run beside it)."""
    return spawned_git.start(str(root), "config", "-z", "--get-regexp", QUERY)


def aliases_from(config: SpawnedGit) -> tuple[dict[str, str], str | None]:
    return aliases_of(config_entries(config))


def config_entries(config: SpawnedGit) -> list[tuple[str, str]]:
    """(key, value) of each entry the `git config` process printed, in git's order; none when it failed."""
    done = config.result()
    if done is None:
        return []
    entries = done[1].decode("utf-8", "surrogateescape").split("\0")
    return [(key, value) for key, _, value in (e.partition("\n") for e in entries) if key]


def aliases_of(entries: list[tuple[str, str]]) -> tuple[dict[str, str], str | None]:
    """(alias name -> expansion, core.hooksPath or None)."""
    aliases: dict[str, str] = {}
    hooks_path = None
    for key, value in entries:
        if key.lower() == "core.hookspath":
            hooks_path = value
        elif key.startswith("alias."):
            aliases[key[len("alias."):]] = value
    return aliases, hooks_path


def submodule_updates_of(entries: list[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    """(key, value) of each `submodule.NAME.update` whose value is a command (`!CMD`), in git's order (F-0255)."""
    return tuple((key, value) for key, value in entries
                 if key.startswith("submodule.") and key.endswith(".update") and value.startswith("!"))


def remote_commands_of(entries: list[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    """(key, value) of each `remote.NAME.uploadpack` and `remote.NAME.receivepack` (F-0310), and each
    `url.ext::CMD.insteadOf`/`pushInsteadOf` (F-0321), in git's order."""
    return tuple((key, value) for key, value in entries
                 if (key.startswith("remote.") and key.endswith((".uploadpack", ".receivepack")))
                 or (key.startswith("url.ext::") and key.endswith((".insteadof", ".pushinsteadof"))))


def remotes_and_notes_ref(entries: list[tuple[str, str]]) -> tuple[dict[str, str], str]:
    """(remote name -> its url, core.notesRef or "") from the entries (the last one of a key counts, as in git)."""
    urls = {key[len("remote."):-len(".url")]: value for key, value in entries
            if key.startswith("remote.") and key.endswith(".url")}
    notes = [value for key, value in entries if key.lower() == "core.notesref"]
    return urls, notes[-1] if notes else ""


def hooks_dirs(root: str | Path, hooks_path: str | None) -> tuple[str, ...]:
    """The absolute folders git runs this repository's hooks from: the common git dir's hooks/
    (a linked worktree's `.git` file names it) and a configured core.hooksPath."""
    found = []
    common = common_dir(os.fspath(root))
    if common is not None:
        found.append(os.path.realpath(os.path.join(common, "hooks")))
    if hooks_path:
        found.append(os.path.realpath(os.path.join(root, os.path.expanduser(hooks_path))))
    return tuple(found)


def framework_configs(root: str | Path, shows: FrameworkShows | None = None
                      ) -> tuple[str | None, str | None, str | None]:
    """`.pre-commit-config.yaml` as HEAD, the index and the work tree hold it (None where absent):
    what a commit would carry, against what the last commit ran. ``shows``: what
    :func:`start_framework_shows` started, else it is started here."""
    started = start_framework_shows(root) if shows is None else shows
    try:
        with open(os.path.join(root, FRAMEWORK_CONFIG), encoding="utf-8", errors="replace") as f:
            worktree: str | None = f.read()
    except OSError:
        worktree = None
    head, index = started.texts()
    return head, index, worktree


# `git show REV:PATH` of HEAD's and the index's framework config, as one `git cat-file --batch` asks them.
SHOWN = (f"HEAD:{FRAMEWORK_CONFIG}", f":{FRAMEWORK_CONFIG}")


def start_framework_shows(root: str | Path) -> FrameworkShows:
    """The framework config in HEAD and in the index, asked of git (one process for both)."""
    return FrameworkShows(str(root))


class FrameworkShows:
    """What `git show HEAD:.pre-commit-config.yaml` and `git show :.pre-commit-config.yaml` print when they
    succeed (else None), read from one `git cat-file --batch` (a process fewer for every judged commit).
    A blob is printed by both as it is; anything else there (a folder, a submodule) is asked of
    `git show` itself, as are both names when the batch's answer cannot be read."""

    def __init__(self, root: str) -> None:
        self.root = root
        self.batch = spawned_git.start(root, "cat-file", "--batch", stdin="".join(f"{n}\n" for n in SHOWN).encode())

    def texts(self) -> tuple[str | None, str | None]:
        done = self.batch.result()
        found = _batch_blobs(done[1], len(SHOWN)) if done is not None and done[0] == 0 else None
        if found is None:
            found = [False] * len(SHOWN)
        shows = [spawned_git.start(self.root, "show", name) if blob is False else None
                 for name, blob in zip(SHOWN, found)]
        head, index = (_shown(show) if show is not None else _text(blob) for show, blob in zip(shows, found))
        return head, index


def _batch_blobs(out: bytes, count: int) -> list[bytes | bool | None] | None:
    """Per name asked, from `git cat-file --batch`'s output: the blob's bytes, None where git has no such
    object, False for an object of another type; None for output not of that shape."""
    found: list[bytes | bool | None] = []
    at = 0
    for _ in range(count):
        end = out.find(b"\n", at)
        if end < 0:
            return None
        header = out[at:end].split(b" ")
        if header[-1] == b"missing":
            found.append(None)
            at = end + 1
            continue
        if len(header) != 3 or not header[2].isdigit():
            return None  # ambiguous, or what this reader does not know
        size = int(header[2])
        body = out[end + 1:end + 1 + size]
        if len(body) != size or out[end + 1 + size:end + 2 + size] != b"\n":
            return None
        found.append(body if header[1] == b"blob" else False)
        at = end + 2 + size
    return found if at == len(out) else None


def _text(blob: bytes | bool | None) -> str | None:
    return blob.decode("utf-8", "replace") if isinstance(blob, bytes) else None


def _shown(show: SpawnedGit) -> str | None:
    done = show.result()
    return done[1].decode("utf-8", "replace") if done is not None and done[0] == 0 else None
