"""What `harness install --server` sets in the bare repository's git config, and how uninstall
puts back what was there.

receive.fsckObjects: git checks every pushed object before any hook runs (a tree with two
`.harness` entries never lands; the audit refuses such trees on its own too, for servers that
do not set it). receive.denyNonFastForwards: git refuses every non-fast-forward push, on every
ref — after the harness hook, so even a rewrite a human approved; `--allow-non-fast-forward`
leaves that to the hook, which refuses it on protected refs only (guard/rewrite.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from harness.gitio.git import Git

FSCK = "receive.fsckObjects"
DENY_NON_FF = "receive.denyNonFastForwards"


def configure(git: Git, record: dict[str, Any], allow_non_fast_forward: bool) -> dict[str, str]:
    """Set the server's receive settings; ``record`` keeps each key's value from before the first
    install (None: unset), so a second install never records its own value as the user's."""
    previous: dict[str, str | None] = record.setdefault("previous_server_config", {})
    wanted = {FSCK: "true"} | ({} if allow_non_fast_forward else {DENY_NON_FF: "true"})
    if allow_non_fast_forward and DENY_NON_FF in previous:  # installed before without the option
        _restore(git, DENY_NON_FF, previous.pop(DENY_NON_FF))
    for key, value in wanted.items():
        if key not in previous:
            values = git.config_get_all(key)
            previous[key] = values[-1] if values else None
        git.config_set(key, value)
    return wanted


def unconfigure(git: Git, record: dict[str, Any]) -> list[str]:
    """Put back each recorded key as it was; the keys restored."""
    previous = record.get("previous_server_config") or {}
    for key, value in previous.items():
        _restore(git, key, value)
    return sorted(previous)


def _restore(git: Git, key: str, value: str | None) -> None:
    git.config_unset(key)
    if value is not None:
        git.config_set(key, value)
