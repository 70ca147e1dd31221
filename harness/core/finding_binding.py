"""What binds a run of a reviewer's reproducer to the finding it was proposed for.

The reviewer's command text alone is not the reviewer's reproducer: the script it runs can be
edited to `exit 0`, and the code it runs against can be fixed before anyone ran it. So a proposal
keeps the source tree it was made on and the sha256 of each file its command names, and only a
run on that tree, with those files as proposed, can confirm or refute the claim. Any other run is
an attempt. A proposal recorded before these were kept decides as it always did.
"""

from __future__ import annotations

from collections.abc import Mapping

TYPE_CHECKING = False  # typing's, without importing typing on a hot path (tests/test_layering.py)
if TYPE_CHECKING:
    from typing import Any

# Put the working tree back to the proposed code without touching the ledger (`.harness/`).
STASH = "git stash push --include-untracked -- . ':!.harness'"


def proposal_site(d: Mapping[str, Any]) -> dict[str, Any] | None:
    """The code a finding.proposed event's finding was proposed on (None when the event predates it)."""
    if not d.get("tree"):
        return None
    return {"tree": d["tree"], "head": d.get("head"), "files": dict(d.get("files") or {})}


def changed_files(bound: Mapping[str, str], now: Mapping[str, str | None]) -> list[str]:
    """The bound files whose digest a run did not find as proposed (changed, gone, or not measured)."""
    return sorted(p for p, digest in bound.items() if now.get(p) != digest)


def not_as_proposed(f: Mapping[str, Any], run: Mapping[str, Any]) -> str | None:
    """Why ``run`` ran another reproducer than the reviewer's: a file its command names is not as proposed."""
    changed = run.get("changed")
    if not changed:
        return None
    site = f.get("proposed_on") or {}
    named = ", ".join(f"{p} (proposed with sha256 {site.get('files', {}).get(p, '?')[:12]})" for p in changed)
    head = site.get("head")
    restore = (f"`git checkout {head[:12]} -- {' '.join(changed)}` if it was committed there; " if head else "")
    return (f"{named} {'is' if len(changed) == 1 else 'are'} not the file the reviewer proposed; restore "
            f"{'it' if len(changed) == 1 else 'them'} to the proposal's version ({restore}"
            f"`git log -- {changed[0]}` lists its versions) and reproduce again")


def off_proposed_tree(f: Mapping[str, Any], run: Mapping[str, Any]) -> str | None:
    """Why ``run`` did not run on the code ``f`` was proposed against (None when it did, or nothing was kept)."""
    site = f.get("proposed_on")
    if not site or run.get("tree") == site["tree"]:
        return None
    on = f" on commit {site['head'][:12]}" if site.get("head") else ""
    return (f"it ran on other code than {f['id']} was proposed against (source tree {site['tree'][:12]}{on}); "
            f"reproduce on the proposed code: put your changes aside (`{STASH}`), "
            f"`harness finding reproduce {f['id']}`, then `git stash pop`")


def attempt_only(f: Mapping[str, Any], run: Mapping[str, Any]) -> str | None:
    """Why ``run`` can neither confirm nor refute ``f`` (None when it can): a changed file it names, or other code."""
    why = not_as_proposed(f, run) or off_proposed_tree(f, run)
    return f"this run is only an attempt: it neither confirms nor refutes {f['id']}: {why}" if why else None
