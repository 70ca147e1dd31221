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
AS_STORED = {"GIT_NO_REPLACE_OBJECTS": "1"}


def git_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    """The environment every `git` subprocess of the harness runs in."""
    env = {k: v for k, v in os.environ.items() if k not in BENDING_ENV}
    env.update(AS_STORED)
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
    return {**{k: v for k, v in src.items() if not k.startswith("GIT_") or k in _KEPT_GIT_VARS}, **AS_STORED}
