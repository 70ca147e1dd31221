"""Make stamps travel: push and fetch the notes ref alongside branches, for each remote.

A `remote.<name>.push` refspec replaces `push.default` for a plain `git push`, so when the
user has none we add `HEAD` first (the current branch to its namesake, what a plain push
did) and the notes ref after it; when they have their own, we only add the notes ref. Notes
are fetched with `+` (the remote's stamps replace the local ref, so later stamps fast-forward
and the next push is accepted); `harness stamp REV` recreates a stamp that was not pushed.
"""

from __future__ import annotations

from harness.gitio.git import Git


def refspecs(ref: str) -> tuple[str, str]:
    """(push refspec, fetch refspec) for the notes ref.

    Patterns, because an exact refspec fails the whole `git push` while no stamp exists yet
    (and the whole `git fetch` while the remote has none); a pattern matching nothing is fine.
    """
    return f"{ref}*:{ref}*", f"+{ref}*:{ref}*"


def configure(git: Git, ref: str, record: dict) -> list[str]:
    """Add the refspecs to every remote; what was added is recorded for `harness uninstall`."""
    push_spec, fetch_spec = refspecs(ref)
    added: dict = record.setdefault("added_refspecs", {})
    done = []
    for remote in git.remote_names():
        mine = added.setdefault(remote, [])
        pushes = git.config_get_all(f"remote.{remote}.push")
        if push_spec not in pushes:
            if not pushes:
                git.config_set(f"remote.{remote}.push", "HEAD", add=True)
                mine.append(["push", "HEAD"])
            git.config_set(f"remote.{remote}.push", push_spec, add=True)
            mine.append(["push", push_spec])
        if fetch_spec not in git.config_get_all(f"remote.{remote}.fetch"):
            git.config_set(f"remote.{remote}.fetch", fetch_spec, add=True)
            mine.append(["fetch", fetch_spec])
        done.append(remote)
    return done


def unconfigure(git: Git, record: dict) -> None:
    for remote, entries in (record.get("added_refspecs") or {}).items():
        for kind, value in entries:
            git.config_unset(f"remote.{remote}.{kind}", value)
