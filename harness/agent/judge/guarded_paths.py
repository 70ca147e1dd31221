"""Which paths in a repository the agent hooks guard, by what the harness keeps there.

Pure string arithmetic on POSIX paths: no file is touched. A path is judged relative to
the repository root; `.harness/local/` is per-clone scratch (lock, caches) and free.
"""

from __future__ import annotations

import posixpath

from harness import paths
from harness.core.value_class import dataclass

HARNESS = paths.HARNESS
LOCAL = paths.LOCAL
PROTECTED_NAMES = {
    "events.jsonl": ("the task ledger", "the ledger changes only through harness commands "
                     "(`harness transition`, `harness evidence`, `harness requirement set`, …)"),
    "approvals.jsonl": ("the human approvals", "approvals are a human's act: ask them to run `harness approve …` "
                        "in their own terminal"),
    "allowed_signers": ("the approval trust root", "the trust root is a human's to change, by hand, outside the agent"),
}
EVIDENCE = ("evidence", "evidence is recorded only by running the command: `harness evidence TYPE`")
# The one file of the per-clone folder that vouches for others: the commit hook does not check the documents it
# lists against their schemas again (#28's task F-0148).
VALID_CACHE = ("the harness's cache of documents known valid", "only the harness writes it: the commit hook skips "
               "the schema check of what it lists")


@dataclass(frozen=True)
class Where:
    """Where a command runs: the repository it is judged in and its directory. (A docstring of its own:
    dataclasses writes a missing one from the signature, importing inspect for it, which the guard avoids.)"""

    root: str       # absolute repository root
    cwd: str        # absolute directory the command runs in
    home: str = ""  # the user's home folder (what `~` names), "" when not known
    tmp: str = "/tmp"  # where `mktemp` makes what it makes: $TMPDIR, else /tmp
    nested: tuple[str, ...] = ()  # tops of repositories without a harness inside ``root`` around the session's cwd
    other_git: str = ""  # around the cwd below ``root``: "repository" (a `.git` of any kind), "worktree" (one that
    #                      sets core.worktree), else ""

    def resolve(self, path: str) -> str | None:
        """``path`` relative to the repository root, or None when it lies outside."""
        full = posixpath.normpath(posixpath.join(self.cwd, path))
        root = posixpath.normpath(self.root)
        if full == root:
            return "."
        if not full.startswith(root.rstrip("/") + "/"):
            return None
        return full[len(root.rstrip("/")) + 1:]

    def cd(self, path: str) -> Where:
        return Where(self.root, posixpath.normpath(posixpath.join(self.cwd, path)), self.home, self.tmp, self.nested,
                     self.other_git)

    def in_nested_repository(self) -> bool:
        """Whether git run here finds a repository of its own inside the guarded one (`vendor/lib/.git`)."""
        return self.git_top() != self.root

    def git_top(self) -> str:
        """The top of the repository git run here finds: the innermost nested one around the folder, else ``root``."""
        return next((top for top in sorted(self.nested, key=len, reverse=True)
                     if self.cwd == top or self.cwd.startswith(top.rstrip("/") + "/")), self.root)


def protected(rel: str | None) -> tuple[str, str] | None:
    """(what it is, the legitimate way to change it) for a guarded file, else None."""
    if rel is None:
        return None
    parts = rel.split("/")
    if parts in ([HARNESS, "local", "valid"], [HARNESS, "local"]):
        # The folder too: copied over, linked or moved in whole, it brings a cache of its own (F-0150).
        return VALID_CACHE
    if parts[0] != HARNESS or (len(parts) > 1 and parts[1] == "local"):
        return None
    if parts[-1] in PROTECTED_NAMES:
        return PROTECTED_NAMES[parts[-1]]
    if "evidence" in parts[1:-1] or (len(parts) > 3 and parts[-1] == "evidence"):
        return EVIDENCE
    return None


def harness_state(rel: str | None) -> bool:
    """True for `.harness/` itself or anything in it but the per-clone scratch folder."""
    if rel is None:
        return False
    parts = rel.split("/")
    return parts[0] == HARNESS and not (len(parts) > 1 and parts[1] == "local")


def unresolved_protected(word: str) -> tuple[str, str] | None:
    """A path built from variables (`$DIR/events.jsonl`) is judged by its name alone."""
    if "$" not in word and "`" not in word:
        return None
    name = posixpath.basename(word)
    return PROTECTED_NAMES.get(name)


# The guarded files a `find`, a glob or a descriptor may reach, by where they lie in a repository.
FOUND_SAMPLES = tuple(f"{HARNESS}/{name}" for name in ("tasks/TASK/events.jsonl", "approvals.jsonl", "allowed_signers",
                                                      "tasks/TASK/evidence/EVIDENCE.json")) + (
    ".git/hooks/pre-commit", ".git/config", ".git/info/grafts")
# ... and the folders (`find . -name .harness -exec rm -rf {} +` deletes the record whole).
FOUND_FOLDERS = (HARNESS, f"{HARNESS}/tasks", f"{HARNESS}/tasks/TASK", f"{HARNESS}/tasks/TASK/evidence", ".git", ".git/hooks")

# -- globs: `> .ha*ss/events.json*` names the ledger as surely as its spelled-out path --------

GLOB_CHARS = frozenset("*?[")

# A path through a descriptor the line may have opened on any folder (`cd /dev/fd/3 3<.harness`): /dev/fd/N, the
# standard streams, /proc/PID/fd/N and a thread's /proc/PID/task/TID/fd/N, however many slashes (#28's task
# F-0099, F-0108). The guard does not follow what a descriptor holds.
DESCRIPTOR = r"^/+(?:dev/+(?:fd/+[^/]+|stdin|stdout|stderr)|proc/+[^/]+/+(?:task/+[^/]+/+)?fd/+[^/]+)(?=/|$)"
# Folders whose entries are other folders by another name: a link to one reaches whatever a descriptor holds
# (`ln -s /dev d && cd d/fd/3`; #28's task F-0124).
PROC_FOLDERS = r"^/+(?:proc(?=/|$)|dev/*$|dev/+(?:fd|std(?:in|out|err))(?=/|$))"


def _matches(name: str, pattern: str) -> bool:
    """A shell glob's match of one path component: a leading dot is matched only by a literal dot."""
    from fnmatch import fnmatchcase

    if name.startswith(".") and not pattern.startswith("."):
        return False
    return fnmatchcase(name, pattern)


def _could_be_state(parts: list[str]) -> bool:
    return _matches(HARNESS, parts[0]) and not (len(parts) > 1 and parts[1] == "local")


def glob_protected(rel: str | None) -> tuple[str, str] | None:
    """What a glob pattern (relative to the root) could name of the guarded files; None when nothing."""
    if rel is None or not GLOB_CHARS & set(rel):
        return None
    parts = rel.split("/")
    if len(parts) in (2, 3) and _matches(HARNESS, parts[0]) and _matches("local", parts[1]) \
            and (len(parts) == 2 or _matches("valid", parts[2])):
        return VALID_CACHE  # `.harness/local/vali*` may name the cache of valid documents (F-0149)
    if not _could_be_state(parts) or len(parts) < 2:
        return None
    for name, found in PROTECTED_NAMES.items():
        if _matches(name, parts[-1]):
            return found
    if any(_matches("evidence", p) for p in parts[1:-1]) or (len(parts) > 3 and _matches("evidence", parts[-1])):
        return EVIDENCE
    return None


def glob_harness_state(rel: str | None) -> bool:
    """Whether a glob pattern could name `.harness/` or something of its record."""
    return rel is not None and bool(GLOB_CHARS & set(rel)) and _could_be_state(rel.split("/"))


# -- git's hooks and the pre-commit framework's configuration ------------------------------

FRAMEWORK_CONFIG = paths.FRAMEWORK_CONFIG
# The repository's own git config: a core.hooksPath or include.path written there by hand turns the hooks off.
GIT_CONFIGS = frozenset({".git/config", ".git/config.worktree"})


# The files that hold replace refs (git shows another object than a commit holds) and the stamps' notes:
# written by hand, as loose ref files or packed, they bypass the refs the guard refuses (#28's task F-0036).
# Every ref file, and HEAD: `ref: refs/notes/harness` written into one makes the next commit or `reset --soft`
# on it move the stamps' ref (F-0065).
REF_FOLDERS = (".git/refs/",)
REF_FILES = frozenset({".git/refs", ".git/packed-refs", ".git/HEAD",
                       ".git/info/grafts", ".git/shallow"})  # parents git reads even without replace refs (F-0048)


# Files that point git at another git folder, whose hooks and config it then runs (#28's task F-0070).
GIT_POINTERS = frozenset({".git/commondir", ".git/gitdir"})
# git's folders that hold files the guard guards: what lands in them unnamed (a folder's copied contents, an
# archive extracted there) may be a hook, a graft or a ref.
MACHINERY_FOLDERS = (".git", ".git/info", ".git/hooks", ".git/refs")


def machinery_folder(rel: str | None) -> bool:
    """Whether ``rel`` is git's folder or one of its folders that hold guarded files (or a folder inside one)."""
    return rel is not None and (rel in MACHINERY_FOLDERS or rel.startswith((".git/hooks/", ".git/refs/", ".git/info/")))


def hook_config(where: Where, path: str, hooks_dirs: tuple[str, ...] = ()) -> bool:
    """Whether ``path`` is a git hook (in `.git/hooks/` or a configured hooks folder), the
    repository's git config, the git folder itself (moved away or replaced, it takes its hooks with
    it), a linked worktree's git folder (its `commondir` says whose hooks it runs), the pre-commit
    framework's configuration — files that decide whether the harness's hooks run — or the files of the
    replace and notes refs."""
    if ("$" in path or "`" in path) and "hooks" in posixpath.normpath(path).split("/")[-2:]:
        return True  # `"$GITDIR/hooks/pre-commit"`: judged by its tail, as a ledger is by its name
    if path in hooks_dirs:  # a user's git config file as written (`~/.gitconfig`): the shell expands it
        return True
    full = posixpath.normpath(posixpath.join(where.cwd, path))
    rel = where.resolve(path)
    if rel is not None and (rel == FRAMEWORK_CONFIG or _matches(FRAMEWORK_CONFIG, rel) or rel == ".git"
                            or rel == ".git/hooks" or rel.startswith((".git/hooks/", ".git/worktrees/"))
                            or rel in GIT_CONFIGS or rel in REF_FILES or rel.startswith(REF_FOLDERS)
                            or rel in GIT_POINTERS):
        return True
    return any(full == d or full.startswith(d.rstrip("/") + "/") for d in hooks_dirs)
