"""The task contract: acceptance criteria, requirements, invariants, risks, and
a verification plan naming the evidence type that verifies each requirement and invariant."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from harness import paths
from harness.core.contract import gaps, id_mismatches, with_ids
from harness.errors import Refused
from harness.store import validate, yamlio

if TYPE_CHECKING:
    from harness.store.reader import LoadedTask
    from harness.store.tasks import TaskStore

__all__ = ["events", "gaps", "id_mismatches", "load", "with_ids"]


def load(raw: bytes, name: str, s: TaskStore | None = None) -> dict[str, Any]:
    """The contract the YAML ``raw`` (the file ``name``) holds, schema-checked; with the store ``s`` that records it,
    each secret the file holds wrapped over lines replaced where the parse joined its pieces (read 155's F-0546)."""
    doc = yamlio.parse(raw, name)
    doc = s.unfolded(doc, raw) if s is not None else doc
    validate.check(doc, "contract", name, raw)
    return doc["contract"]


def events(contract: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """The events that apply ``contract`` (replay refuses them unless the task is new)."""
    recorded = with_ids(contract)
    out: list[tuple[str, dict]] = [("contract.applied", {"contract": recorded})]
    out += [("requirement.added", {k: r[k] for k in ("id", "statement", "priority", "source")}) for r in recorded["requirements"]]
    out += [("invariant.added", {k: i[k] for k in ("id", "statement", "category", "severity")}) for i in recorded["invariants"]]
    out += [("task.transitioned", {"from": "CREATED", "to": "SPECIFYING", "reason": "contract applied"}),
            ("task.transitioned", {"from": "SPECIFYING", "to": "PLANNED", "reason": "contract applied"})]
    return out


DRAFT = paths.CONTRACT_DRAFT  # relative to the repository root


def read_file(path: Path) -> bytes:
    from harness.store import bounded

    return bounded.read(path, "input", str(path), follow=True) or b""


def draft_path() -> Path:
    from harness.store.layout import open_layout

    return open_layout().local / "contract.yaml"


def default_file() -> Path:
    path = draft_path()
    if not path.is_file():
        raise Refused(f"no contract file: --file not given and no {DRAFT}",
                      hint=f"`harness contract template` writes an example to {DRAFT}; edit it, then "
                           "`harness contract apply`")
    return path


def in_source_tree(path: Path, s: TaskStore) -> str | None:
    """The path relative to the repository root when ``path`` is part of the source tree the
    evidence is bound to (inside the work tree, outside `.harness/`, not git-ignored)."""
    root = s.layout.root
    try:
        rel = path.resolve().relative_to(root)
    except ValueError:
        return None
    if rel.parts[:1] == (paths.HARNESS,):
        return None
    return None if s.git.is_ignored(rel.as_posix()) else rel.as_posix()


def write_template(force: bool) -> None:
    """The example contract, written to the draft's place (refused over an existing draft without ``force``)."""
    from harness import resources
    from harness.store import fsio

    path = draft_path()
    if path.exists() and not force:
        raise Refused(f"{DRAFT} exists; nothing was written",
                      hint="edit it, or `harness contract template --force` replaces it with the example")
    path.parent.mkdir(parents=True, exist_ok=True)
    fsio.atomic_write(path, resources.template("contract.example.yaml"))


def must_have_tests() -> bool:
    """Whether the gate would require a must requirement's plan to name its test cases."""
    from harness.core.contract import tests_required
    from harness.store import settings
    from harness.store.layout import open_layout

    return tests_required(settings.load_gate(open_layout()).doc.get("requirements") or {})


def apply_contract(s: TaskStore, tid: str, doc: dict) -> LoadedTask:
    """Record a complete contract's requirements and invariants (replay refuses it unless the task is new)."""
    return s.append(tid, events(doc))
