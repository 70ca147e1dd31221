"""The record `harness install` keeps in git's folder, written as a journal.

Before the first change to git config the record is written (atomically) with every prior
value and every planned addition, and ``pending`` naming the work under way; after the last
change ``pending`` is dropped. A run killed anywhere in between leaves a pending record, and
the next `harness install` or `uninstall` finishes or undoes that work from the record's
values, never from git config as it now stands (it may hold our own half-made changes, which
must never be taken for the user's).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from harness.errors import HarnessError, Refused
from harness.store import fsio
from harness.store.crashpoint import step

if TYPE_CHECKING:
    from harness.gitio.git import Git

REWRITE_REF, REWRITE_MODE, MODE = "notes.rewriteRef", "notes.rewriteMode", "ignore"
PENDING = ("install", "install-server", "uninstall", "uninstall-server")


def record_path(git: Git) -> Path:
    return git.common_dir / "harness-install.json"


def save(git: Git, record: dict[str, Any], pending: str | None) -> None:
    """Write the record: with ``pending`` before a change (the journal), without it after."""
    body = {k: v for k, v in record.items() if k not in ("pending", "restoring")} if pending is None else \
        {**record, "pending": pending}
    step()
    fsio.atomic_write(record_path(git), json.dumps(body).encode())


def forget(git: Git) -> None:
    step()
    record_path(git).unlink(missing_ok=True)


def read(git: Git) -> dict[str, Any]:
    """What `harness install` added to git config (to take exactly that away again), checked for
    type: every value of it is handed to `git config --unset`."""
    from harness.core.limits import json_object
    from harness.store import bounded

    path = record_path(git)
    raw = bounded.read(path, "record", str(path))
    if not raw:
        return {}
    try:
        record = json_object(raw)
        problem = _problem(record)
    except ValueError as exc:
        problem = str(exc)
    if problem:
        raise HarnessError(f"{path}: not a record `harness install` wrote ({problem})",
                           hint="move it away: the notes settings it recorded then stay in git config as they are")
    return record


def _problem(record: dict[str, Any]) -> str | None:
    from harness.core.limits import type_problem
    from harness.install.server import record_problem

    problem = type_problem(record, {"added_rewrite_ref": (str,), "previous_rewrite_mode": (str,),
                                    "added_refspecs": (dict,), "pending": (str,),
                                    "previous_server_config": (dict,), "restoring": (dict,)})
    if problem:
        return problem
    if record.get("pending") is not None and record["pending"] not in PENDING:
        return f"pending is {str(record['pending'])[:40]!r}"
    for remote, added in (record.get("added_refspecs") or {}).items():
        if not (isinstance(added, list) and all(isinstance(e, list) and len(e) == 2 and e[0] in ("push", "fetch")
                                                and isinstance(e[1], str) for e in added)):
            return f"added_refspecs.{remote[:80]} is not a list of [push|fetch, refspec]"
    return record_problem(record)


def refuse_locked_config(git: Git) -> None:
    """A `git config` killed mid-write leaves config.lock, and every later one fails on it. Only
    a person can tell a stale lock from a git running now: say so before anything changes."""
    lock = git.common_dir / "config.lock"
    if lock.exists():
        raise Refused(f"{lock} exists: a git command is changing the repository's config, or one was killed doing so",
                      hint=f"if no git command is running, remove it (`rm {lock}`) and run the command again")


def recover(git: Git) -> dict[str, Any]:
    """Finish (an install) or complete the undoing (an uninstall) of a killed run; the record
    as it stands after that ({} when nothing is installed)."""
    record = read(git)
    pending = record.get("pending")
    if pending == "install":
        apply_client(git, record)
    elif pending == "install-server":
        from harness.install import server as install_server
        install_server.apply(git, record)
    elif pending in ("uninstall", "uninstall-server"):
        undo(git, record)
        forget(git)
        return {}
    if pending:
        save(git, record, None)
    return {k: v for k, v in record.items() if k not in ("pending", "restoring")}


def apply_client(git: Git, record: dict[str, Any]) -> None:
    """Make git config what a (pending) client record says; each step is skipped when done."""
    from harness.install import notes_refspecs as install_notes
    ref = record.get("added_rewrite_ref")
    if ref and ref not in git.config_get_all(REWRITE_REF):
        step()
        git.config_set(REWRITE_REF, ref, add=True)
    if "previous_rewrite_mode" in record and git.config_get_all(REWRITE_MODE) != [MODE]:
        # The post-commit stamp already wrote a fresh note on each rewritten commit; copying the
        # old one too would concatenate two JSON documents into one note.
        step()
        git.config_set(REWRITE_MODE, MODE)
    install_notes.apply(git, record)


def undo(git: Git, record: dict[str, Any]) -> list[str]:
    """Take away what the record says was (or was about to be) added, and put back the prior
    values it names; the server settings put back. Idempotent, as :func:`apply_client`."""
    from harness.install import notes_refspecs as install_notes
    from harness.install import server as install_server
    install_notes.unconfigure(git, record)
    if record.get("added_rewrite_ref") and record["added_rewrite_ref"] in git.config_get_all(REWRITE_REF):
        step()
        git.config_unset(REWRITE_REF, record["added_rewrite_ref"])
    if "previous_rewrite_mode" in record:
        prior = record["previous_rewrite_mode"]
        if git.config_get_all(REWRITE_MODE) != ([] if prior is None else [prior]):
            step()
            git.config_unset(REWRITE_MODE)
            if prior is not None:
                step()
                git.config_set(REWRITE_MODE, prior)
    return install_server.unconfigure(git, record)


def sweep(folder: Path, names: tuple[str, ...]) -> None:
    """Remove the temporaries a killed write of one of ``names`` left in ``folder`` (only those:
    a hooks folder is the user's, and another `.x.tmp` there is none of ours)."""
    for name in names:
        for leftover in folder.glob(f".{name}.*.tmp"):
            leftover.unlink(missing_ok=True)
