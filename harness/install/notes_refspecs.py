"""Make stamps travel: push and fetch the notes ref alongside branches, for each remote.

A `remote.<name>.push` refspec replaces `push.default` for a plain `git push`, so when the
user has none we add `HEAD` first (the current branch to its namesake, what a plain push
did) and the notes ref after it; when they have their own, we only add the notes ref. Notes
are fetched with `+` (the remote's stamps replace the local ref, so later stamps fast-forward
and the next push is accepted); `harness stamp REV` recreates a stamp that was not pushed.
"""

from __future__ import annotations

from harness.gitio.git import Git
from harness.store.crashpoint import step


def refspecs(ref: str) -> tuple[str, str]:
    """(push refspec, fetch refspec) for the notes ref.

    Patterns, because an exact refspec fails the whole `git push` while no stamp exists yet
    (and the whole `git fetch` while the remote has none); a pattern matching nothing is fine.
    """
    return f"{ref}*:{ref}*", f"+{ref}*:{ref}*"


def plan(git: Git, ref: str, record: dict) -> list[str]:
    """Record the refspecs each remote lacks, before any is added (for :func:`apply` to add, and
    `harness uninstall` to take away exactly these); the remotes."""
    push_spec, fetch_spec = refspecs(ref)
    added: dict = record.setdefault("added_refspecs", {})
    done = []
    for remote in git.remote_names():
        mine = added.setdefault(remote, [])
        pushes = git.config_get_all(f"remote.{remote}.push")
        if push_spec not in pushes:
            if not pushes:
                _once(mine, ["push", "HEAD"])
            _once(mine, ["push", push_spec])
        if fetch_spec not in git.config_get_all(f"remote.{remote}.fetch"):
            _once(mine, ["fetch", fetch_spec])
        done.append(remote)
    return done


def apply(git: Git, record: dict) -> None:
    """Add each recorded refspec that is not there yet, in order (`HEAD` before the notes ref):
    run again after a kill, it adds only what is still missing."""
    for remote, entries in (record.get("added_refspecs") or {}).items():
        for kind, value in entries:
            key = f"remote.{remote}.{kind}"
            if value not in git.config_get_all(key):
                step()
                git.config_set(key, value, add=True)


def unconfigure(git: Git, record: dict) -> None:
    for remote, entries in (record.get("added_refspecs") or {}).items():
        for kind, value in entries:
            key = f"remote.{remote}.{kind}"
            if value in git.config_get_all(key):
                step()
                git.config_unset(key, value)


def _once(entries: list, entry: list) -> None:
    if entry not in entries:  # recorded by an earlier install whose entry the user took away since
        entries.append(entry)
