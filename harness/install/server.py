"""What `harness install --server` sets in the bare repository's git config, and how uninstall
puts back what was there.

receive.fsckObjects: git checks every pushed object before any hook runs (a tree with two
`.harness` entries never lands; the audit refuses such trees on its own too, for servers that
do not set it). receive.denyNonFastForwards: git refuses every non-fast-forward push, on every
ref — after the harness hook, so even a rewrite a human approved; `--allow-non-fast-forward`
leaves that to the hook, which refuses it on protected refs only (harness/history/rewrite.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from harness.store.crashpoint import step

if TYPE_CHECKING:
    from harness.gitio.git import Git

FSCK = "receive.fsckObjects"
DENY_NON_FF = "receive.denyNonFastForwards"
WANTED = "true"  # the value both keys are set to


def plan(git: Git, record: dict[str, Any], allow_non_fast_forward: bool) -> dict[str, str]:
    """Record, before anything changes, each key's value from before the first install (None:
    unset), so a second install never records its own value as the user's; and, installing now
    with ``--allow-non-fast-forward`` over an install without it, the value to give back."""
    previous: dict[str, str | None] = record.setdefault("previous_server_config", {})
    wanted = {FSCK: WANTED} | ({} if allow_non_fast_forward else {DENY_NON_FF: WANTED})
    if allow_non_fast_forward and DENY_NON_FF in previous:  # installed before without the option
        record.setdefault("restoring", {})[DENY_NON_FF] = previous.pop(DENY_NON_FF)
    for key in wanted:
        if key not in previous:
            values = git.config_get_all(key)
            previous[key] = values[-1] if values else None
    return wanted


def apply(git: Git, record: dict[str, Any]) -> None:
    """Make git config what the record says (run again after a kill: every step is idempotent)."""
    for key, value in (record.get("restoring") or {}).items():
        _restore(git, key, value)
    for key in record.get("previous_server_config") or {}:
        if git.config_get_all(key) != [WANTED]:
            step()
            git.config_set(key, WANTED)


def unconfigure(git: Git, record: dict[str, Any]) -> list[str]:
    """Put back each recorded key as it was; the keys restored."""
    previous = (record.get("previous_server_config") or {}) | (record.get("restoring") or {})
    for key, value in previous.items():
        _restore(git, key, value)
    return sorted(previous)


def record_problem(record: dict[str, Any]) -> str | None:
    """Each value here is handed to `git config`: a str or null, under a key this module sets."""
    for field in ("previous_server_config", "restoring"):
        for key, value in (record.get(field) or {}).items():
            if key not in (FSCK, DENY_NON_FF) or not (value is None or isinstance(value, str)):
                return f"{field}.{key[:80]} is not a prior value of a receive setting"
    return None


def _restore(git: Git, key: str, value: str | None) -> None:
    if git.config_get_all(key) == ([] if value is None else [value]):
        return
    step()
    git.config_unset(key)
    if value is not None:
        step()
        git.config_set(key, value)
