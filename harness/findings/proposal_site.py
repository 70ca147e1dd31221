"""What a proposal records of the code it is about: the source tree and commit it was made on, and the
files its reviewer's reproducer names (only a run there, with them as proposed, decides the finding)."""

from __future__ import annotations

from typing import Any

from harness.store.tasks import TaskStore


def site_of(s: TaskStore) -> dict[str, Any]:
    """The source tree the harness measures for evidence, and HEAD: what the claim was made against."""
    from harness.gitio.worktree import ensure_recordable

    git = ensure_recordable(s.git)
    return {"tree": git.worktree_source_tree(), "head": git.head()}


def bound_of(s: TaskStore, contents: list[dict[str, Any]]) -> list[dict[str, str]]:
    """For each proposal, the sha256 of each file its reproducer's command names (see bound_files)."""
    from harness.evidence.record import redactor_for
    from harness.findings import bound_files
    from harness.store import settings

    redactor = redactor_for(settings.load_config(s.layout))
    return [bound_files.at_proposal(s.layout.root, (c.get("recommended_reproducer") or {}).get("command"), redactor)
            for c in contents]


def reviewed_site(reviewed: dict[str, Any] | None, site: dict[str, Any]) -> tuple[dict[str, Any], str | None]:
    """(the site a proposal is bound to, why it is not the working tree's). While the task is reviewed, a
    finding is about the code the review was of (F-0343): one fixed before it was proposed is still shown
    on the code that had the defect, and a run on the fixed code is only an attempt."""
    if not reviewed or reviewed["tree"] == site["tree"]:
        return site, None
    return dict(reviewed), (f"the source has changed since the task entered REVIEWING: the findings are bound to the "
                            f"reviewed code (source tree {reviewed['tree'][:12]}), not to the working tree "
                            f"({site['tree'][:12]}); only a run on the reviewed code confirms or rejects them")
