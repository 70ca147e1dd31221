"""The git adapter: the only package that imports pygit2 or starts `git`.

A "source tree" is a git tree id of the code with the top-level ``.harness`` entry
removed, so that recording evidence, ledger events and notes never changes what the
evidence is about. For a commit it is one tree edit on the root tree, whatever the size
of the repository; for the working directory it is the tree ``git add -A`` would write,
computed in a throw-away index so the user's staging area is never touched.

Import from the module that holds a name; this file imports nothing, so a hook that needs
only :mod:`fast_path` pays for nothing else:

- :mod:`environment` — the environment `git` runs in, and the variables that would point it elsewhere
- :mod:`lazy_pygit2` — pygit2, loaded on first use
- :mod:`fast_path` — what a hook asks of git alone, without pygit2 (code-only commits)
- :mod:`git` — :class:`~harness.gitio.git.Git`, assembled from :mod:`repository`, :mod:`history`,
  :mod:`notes`, :mod:`trees`, :mod:`worktree` and :mod:`remotes`
- :mod:`tree_source` — reading ``.harness/`` files from a commit's or the index's tree
- :mod:`unmerged` — whether a working tree's file is in conflict (a merge stopped on it)
"""
