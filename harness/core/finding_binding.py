"""What binds a run of a reviewer's reproducer to the finding it was proposed for.

The reviewer's command text alone is not the reviewer's reproducer: the script it runs can be
edited to `exit 0`, and the code it runs against can be fixed before anyone ran it. So a proposal
keeps the source tree it was made on and the sha256 of each file its command names, and only a
run on that tree, with those files as proposed, can confirm or refute the claim. Any other run is
an attempt. A proposal recorded before these were kept decides as it always did.
"""

from __future__ import annotations

from collections.abc import Mapping

from harness.paths import ASIDE, ASIDE_LIST, LOCAL

TYPE_CHECKING = False  # typing's, without importing typing on a hot path (tests/test_layering.py)
if TYPE_CHECKING:
    from typing import Any

# The source outside `.harness/` (the ledger stays as it is): what the way to the proposal's code and back touches.
SOURCE = "-- . ':!.harness'"


def proposal_site(d: Mapping[str, Any]) -> dict[str, Any] | None:
    """The code a finding.proposed event's finding was proposed on (None when the event predates it)."""
    if not d.get("tree"):
        return None
    return {"tree": d["tree"], "head": d.get("head"), "files": dict(d.get("files") or {})}


def changed_files(bound: Mapping[str, str], now: Mapping[str, str | None]) -> list[str]:
    """The bound files whose digest a run did not find as proposed (changed, gone, or not measured)."""
    return sorted(p for p, digest in bound.items() if now.get(p) != digest)


def recheck_changed(f: Mapping[str, Any], run: Mapping[str, Any]) -> list[str]:
    """The changed files that make ``run`` no re-check of ``f``'s rejection. A test file whose tests the
    reproducer's node ids name are all as proposed is not among them (F-0346): the re-check runs those
    tests, and a case added to the file since is the project's work, not the reviewer's test rewritten."""
    changed = list(run.get("changed") or [])
    bound = (f.get("proposed_on") or {}).get("files") or {}

    def tests_kept(path: str) -> bool:
        tests = [k for k in bound if k.startswith(path + "::")]
        return bool(tests) and not any(t in changed for t in tests)

    return [p for p in changed if "::" not in p and not tests_kept(p)] if changed else []


def not_as_proposed(f: Mapping[str, Any], run: Mapping[str, Any], recheck: bool = False) -> str | None:
    """Why ``run`` ran another reproducer than the reviewer's: a file its command names is not as proposed
    (``recheck``: as a re-check of a rejection reads it, :func:`recheck_changed`)."""
    changed = recheck_changed(f, run) if recheck else run.get("changed")
    # A node id's test (`FILE::TEST`) changed with its file: the file is what to restore.
    changed = [p for p in changed or [] if "::" not in p] or changed
    if not changed:
        return None
    site = f.get("proposed_on") or {}
    named = ", ".join(f"{p} (proposed with sha256 {site.get('files', {}).get(p, '?')[:12]})" for p in changed)
    head = site.get("head")
    in_repo = not any(p.startswith("/") for p in changed)  # a file outside the repository has no commit to restore from
    restore = (f"`git checkout {head[:12]} -- {' '.join(changed)}` if it was committed there; "
               if isinstance(head, str) and in_repo else "")
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
            f"`git diff --name-status {site['tree']} {run['tree']}` lists what differs. {way_back(f, run)}")


def way_back(f: Mapping[str, Any], run: Mapping[str, Any]) -> str:
    """The commands that put the working tree's source at the proposal's tree and back again (F-0345).

    Both are trees in the object store (the harness wrote each when it measured it), so the way works
    on uncommitted work too, where a stash only reached HEAD. `git clean` takes the untracked files out
    first, else one the proposal lacks would stay; each is in the run's tree, restored on the way back.
    The index is left alone: what was staged stays staged."""
    return (f"Reproduce on the proposed code: put your changes aside (`{set_aside(f['proposed_on']['tree'])}`), "
            f"`harness finding reproduce {f['id']}`, then bring them back (`{bring_back(run['tree'])}`)")


def source_at(tree: str) -> str:
    """The command that makes the working tree's source (outside `.harness/`) the source tree ``tree``."""
    # `-e .harness`, not the `:!.harness` pathspec: the agent guard reads the exclude option and refuses a clean
    # of `.` it cannot see spares the record; the two keep the same files.
    return f"git clean -fdq -e .harness -- . && git restore --source={tree} --worktree {SOURCE}"


# Where the set-aside parks what no recorded tree holds (read 116's F-0415, F-0416): a file the change's .gitignore
# ignores and the proposal's does not (the source tree the change was measured as leaves it out, so bringing that tree
# back would not bring the file back) and an untracked nested repository (`git clean -fd` keeps it, the measured tree
# counts it). Both stay after the clean and would make the proposal's source another tree; moved into the per-clone
# folder (outside the measured source, kept by the clean) they come back as they were, by the list kept beside them.
PARK, PARKED = ASIDE, ASIDE_LIST


def set_aside(tree: str) -> str:
    """:func:`source_at` ``tree``, with what is still untracked then (under the proposal's .gitignore) and not in
    ``tree`` parked in :data:`PARK`. `mkdir` without -p: a second set-aside never writes over a park not brought
    back yet."""
    # A file untracked in the index but held by the proposed tree is the proposal's own: it stays.
    each = (f'for p; do p=${{p%/}}; git cat-file -e "{tree}:$p" 2>/dev/null && continue; '
            f'mkdir -p "{PARK}/$(dirname "$p")" && mv "$p" "{PARK}/$p" || exit 1; done')
    return (f"{source_at(tree)} && mkdir -p {LOCAL} && mkdir {PARK} && git ls-files -z -o --exclude-standard "
            f"{SOURCE} > {PARKED} && xargs -0 sh -c '{each}' sh < {PARKED}")


def bring_back(tree: str) -> str:
    """:func:`source_at` ``tree``, with what :func:`set_aside` parked moved back (a folder the restore left empty, a
    nested repository's gitlink, gives way to it; anything else in its place stops the move, the park kept)."""
    each = (f'for p; do p=${{p%/}}; [ -e "{PARK}/$p" ] || [ -L "{PARK}/$p" ] || continue; '
            f'{{ [ ! -d "$p" ] || find "$p" -depth -type d -empty -delete; }} && [ ! -e "$p" ] '
            f'&& mkdir -p "$(dirname "$p")" && mv "{PARK}/$p" "$p" || exit 1; done')
    return (f"{source_at(tree)} && if [ -f {PARKED} ]; then xargs -0 sh -c '{each}' sh < {PARKED} && "
            f"rm -rf {PARK} {PARKED}; fi")


def attempt_only(f: Mapping[str, Any], run: Mapping[str, Any]) -> str | None:
    """Why ``run`` can neither confirm nor refute ``f`` (None when it can): a changed file it names, or other code."""
    why = not_as_proposed(f, run) or off_proposed_tree(f, run)
    return f"this run is only an attempt: it neither confirms nor refutes {f['id']}: {why}" if why else None
