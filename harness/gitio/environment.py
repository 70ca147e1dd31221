"""The environment every `git` the harness starts runs in.

Git reads where the repository, its working tree and its index are from GIT_* variables,
which a hook or a user's shell may have set for another purpose; the harness decides those
from the directory alone.
"""

from __future__ import annotations

import os

from harness import paths

HARNESS_DIR = paths.HARNESS
# Set by git for a hook, or by a user's shell: each would point our own git calls at another
# repository, index or work tree. The one index we mean is always passed explicitly.
BENDING_ENV = ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_PREFIX", "GIT_EXTERNAL_DIFF", "GIT_DIFF_OPTS")


# `git replace` makes git show another object in place of a commit, tree or file, while `git push` sends the
# objects as stored: every git the harness starts reads what is stored, so a replace ref changes no answer.
# So does the commit-graph file (.git/objects/info/commit-graph): git takes a commit's parents from it, unchecked
# against the commit, and anyone who can write the folder can write one (read 56a's F-0120). Off as the last of the
# command-line settings, which come after every config file and after GIT_CONFIG_COUNT's.
_NO_COMMIT_GRAPH = "'core.commitgraph'='false'"
# Grafts too (.git/info/grafts, or the file GIT_GRAFT_FILE names) give a commit other parents, and git applies
# them whatever replace refs and the commit-graph say (read 63a's F-0155): git reads the file GIT_GRAFT_FILE names
# instead of info/grafts, and this one cannot exist (/dev/null is no folder; the file /dev/null itself would make
# git print its deprecation hint). The pathspec variables change what a pathspec the harness writes means:
# GIT_LITERAL_PATHSPECS=1 made `:(top,literal).harness/config.yaml` a name no commit holds (F-0157). A shallow file
# named elsewhere cuts history short: git's own (.git/shallow) says where this clone's history ends.
_NO_GRAFTS = os.path.join(os.devnull, "no-grafts")
_MEANING_ENV = ("GIT_LITERAL_PATHSPECS", "GIT_GLOB_PATHSPECS", "GIT_NOGLOB_PATHSPECS", "GIT_ICASE_PATHSPECS",
                "GIT_SHALLOW_FILE")


def as_stored(env: dict[str, str]) -> dict[str, str]:
    """``env`` with every object git reads taken as stored (no replace refs, commit-graph or grafts) and every
    pathspec as written (a new mapping)."""
    given = env.get("GIT_CONFIG_PARAMETERS")
    kept = {k: v for k, v in env.items() if k not in _MEANING_ENV}
    return {**kept, "GIT_NO_REPLACE_OBJECTS": "1", "GIT_GRAFT_FILE": _NO_GRAFTS,
            "GIT_CONFIG_PARAMETERS": f"{given} {_NO_COMMIT_GRAPH}" if given else _NO_COMMIT_GRAPH}


def git_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    """The environment every `git` subprocess of the harness runs in."""
    env = as_stored({k: v for k, v in os.environ.items() if k not in BENDING_ENV})
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
    return as_stored({k: v for k, v in src.items() if not k.startswith("GIT_") or k in _KEPT_GIT_VARS})


# What makes git trust the stat data an index holds, or skip looking at a file or folder at all, pinned for the gits
# that measure a source tree: a config file the caller's GIT_CONFIG_GLOBAL names (which own_env keeps) or the
# repository's own could otherwise compare less of a file's stat (checkStat=minimal, trustctime=false: an edit that
# keeps the size and mtime unseen), mark entries unchanged (ignoreStat), take an fsmonitor hook's word for what
# changed, or read the index's untracked cache, whose folder entries say "no new file here" (read 95's F-0333).
_MEASURING = ("'core.checkstat'='default'", "'core.trustctime'='true'", "'core.ignorestat'='false'",
              "'core.fsmonitor'='false'", "'core.untrackedcache'='false'")


def measuring(env: dict[str, str]) -> dict[str, str]:
    """``env`` (an :func:`own_env`) for a git that measures the working tree: git's own stat checks pinned."""
    given = env.get("GIT_CONFIG_PARAMETERS")
    pinned = " ".join(_MEASURING)
    return {**env, "GIT_CONFIG_PARAMETERS": f"{given} {pinned}" if given else pinned}


def common_dir(root: str) -> str | None:
    """The common git folder of the repository at ``root`` (pathlib's joins and resolve(), in os.path terms)."""
    dot_git = os.path.join(root, ".git")
    if is_dir(dot_git):
        return dot_git
    try:
        with open(dot_git, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError:
        return None
    if not text.startswith("gitdir:"):
        return None
    git_dir = os.path.realpath(os.path.join(root, text[len("gitdir:"):].strip()))
    try:
        with open(os.path.join(git_dir, "commondir"), encoding="utf-8", errors="replace") as f:
            common = f.read().strip()
    except OSError:
        return git_dir
    return os.path.realpath(os.path.join(git_dir, common))


def is_dir(path: str) -> bool:
    """pathlib's Path.is_dir() in os terms: False where it is False, raising where it raises (a folder
    the guard may not search is an error, not an absent one)."""
    import errno
    import stat

    try:
        return stat.S_ISDIR(os.stat(path).st_mode)
    except OSError as exc:
        if exc.errno in (errno.ENOENT, errno.ENOTDIR, errno.EBADF, errno.ELOOP):
            return False
        raise
    except ValueError:
        return False
