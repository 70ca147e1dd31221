"""Load a task from any :class:`~harness.store.source.Source`: ledger, replay, YAML docs.

A task's paths are relative to the repository root (``.harness/tasks/ID/...``), so the
same messages name the same files whether they were read from disk or from a commit.
"""

from __future__ import annotations

from harness import paths
from harness.core import ledger, projection
from harness.core.value_class import dataclass, field
from harness.errors import HarnessError
from harness.store import validate, yamlio
from harness.store.layout import TASK_ID

TYPE_CHECKING = False  # typing's, without importing typing on a hot path (tests/test_layering.py)
if TYPE_CHECKING:
    from pathlib import Path

    from harness.store.source import Source

TASKS = paths.TASKS
TASK_FILES = ("task.yaml", "requirements.yaml", "invariants.yaml")
SCHEMA_OF = {"task.yaml": "task", "requirements.yaml": "requirement", "invariants.yaml": "invariant"}


@dataclass
class LoadedTask:
    id: str
    dir: str                      # ".harness/tasks/<ID>", relative to the repository root
    proj: ledger.Projection
    lines: list[str]
    docs: dict[str, dict | None]  # file name -> parsed YAML (None when absent)
    # Read from a commit (:mod:`.commit_docs`): each finding file's blob id, and those known to agree with the ledger
    # (their documents in ``docs`` are the ones kept there, shared: read them as read-only); the cache of valid
    # digests the files were read through, whose word an agreement then rests on
    blobs: dict[str, str] = field(default_factory=dict)
    agreed: set[str] = field(default_factory=set)
    read_with: Path | None = None


def schema_of(name: str) -> str:
    """The schema a task file (``task.yaml``, ``findings/F-0001.yaml``, …) is checked against."""
    if name.startswith("findings/"):
        return "finding"
    return "contract" if name == "contract.yaml" else SCHEMA_OF[name]


def task_ids(src: Source) -> list[str]:
    return [name for name in src.listdir(TASKS) if is_task(src, name)]


def is_task(src: Source, name: str) -> bool:
    # A folder holding nothing but the empty findings/ and evidence/ folders is what a
    # `git reset` leaves of a task that was never committed: not a task. Nor is one holding
    # only temp files: what a `task new` killed before its commit point leaves (F-0367).
    return bool(TASK_ID.match(name) and any(entry not in ("findings", "evidence") and not is_temp(entry)
                                            for entry in src.listdir(f"{TASKS}/{name}")))


def is_temp(name: str) -> bool:
    """A temp file a writer makes beside its destination (harness.scratch_files: `.NAME.RANDOM.tmp`)."""
    return name.startswith(".") and name.endswith(".tmp")


def parse_ledger(raw: bytes, name: str, cache: Path | None = None) -> tuple[list[str], ledger.Projection]:
    """The lines and projection of the ledger ``raw``, or the HarnessError naming what breaks it.
    Bytes this process validated already are not validated again, and a ledger extending them
    has only its appended lines checked (:mod:`harness.store.ledger_memo`): the same answers, at
    a cost that follows what was appended."""
    from harness.store import ledger_memo

    found = ledger_memo.exact(raw, name, cache)
    if found is not None:
        return ledger_memo.handed_out(found)
    prefix = ledger_memo.longest_prefix(raw, name, cache)
    if prefix is None:
        lines, proj = _validated(raw, name, 1, ledger.GENESIS, None, cache)
        trusted = cache  # the whole file's schema check may have taken the cache's word
    else:
        lines, proj = ledger_memo.handed_out(prefix)
        more, proj = _validated(raw[len(prefix.raw):], name, len(lines) + 1, prefix.last_hash, proj, cache)
        lines.extend(more)
        trusted = prefix.cache  # a suffix is checked whole, never on a cache's word
    ledger_memo.remember(raw, name, lines, proj, trusted)
    return lines, proj


def _validated(raw: bytes, name: str, first: int, prev: str, onto: ledger.Projection | None,
               cache: Path | None) -> tuple[list[str], ledger.Projection]:
    """Parse, replay and schema-check ``raw``: a whole ledger (``onto`` None), or the lines
    appended after a validated prefix whose projection is ``onto``, numbered from ``first``."""
    try:
        parsed = ledger.parse_lines(raw, name, first, prev)
    except ledger.LedgerProblem as exc:
        raise HarnessError(exc.message, hint=exc.hint or "the ledger is append-only; restore it from git "
                                                         "(`git checkout -- FILE`)") from None
    events = [e for _, e in parsed]
    whole = raw if onto is None else None  # the schema cache's key is a whole file's bytes
    try:
        proj = ledger.replay(events, name, onto)
    except ledger.LedgerProblem as exc:
        # A broken rule is named in the rule's own words (the same the CLI refuses with). The
        # rule's hint names a command; a ledger on disk that breaks it needs restoring instead.
        raise HarnessError(exc.message, hint="the ledger is append-only; restore it from git (`git checkout -- FILE`)") from None
    except Exception:
        validate.check_events(events, name, whole, first, finite=True, cache=cache)  # a value of the wrong shape: the schema names it
        raise
    # Its own step after the rules: every event against its schema (no unknown keys, exact
    # types), so no value of the wrong shape reaches a projection, a file or a verdict.
    validate.check_events(events, name, whole, first, finite=True, cache=cache)  # parse_lines decoded them
    if not parsed and onto is None:
        raise HarnessError(f"{name}: empty ledger")
    return [line for line, _ in parsed], proj


def state_of(src: Source, task_id: str) -> str | None:
    """The state :func:`load_task` gives ``task_id`` in ``src`` (without its files), None where it refuses the ledger;
    from what this process validated of the same bytes when it did, without copying the projection."""
    from harness.store import ledger_memo

    name = f"{TASKS}/{task_id}/events.jsonl"
    raw = src.read(name)
    known = ledger_memo.state_of(raw, name, src.valid_cache) if raw is not None else None
    if known is not None:
        return known[1] if known[0] == task_id else None
    try:
        return load_task(src, task_id, docs=False).proj.state
    except HarnessError:
        return None


def load_task(src: Source, task_id: str, docs: bool = True) -> LoadedTask:
    folder = f"{TASKS}/{task_id}"
    name = f"{folder}/events.jsonl"
    raw = src.read(name)
    if raw is None:
        raise HarnessError(f"{name}: missing — task {task_id} has no ledger ({src.label})",
                           hint=f"restore it from git (`git checkout HEAD -- {name}`) if it was committed; a task "
                                f"that never was has nothing to restore: remove its folder (`rm -r {folder}`)")
    try:
        lines, proj = parse_ledger(raw, name, src.valid_cache)
    except HarnessError:
        where = _in_conflict(src, name, raw)
        if where is None:
            raise
        raise HarnessError(f"{name}: left in conflict by git ({where}): task {task_id} gained events on both "
                           "branches, and a ledger is one chain of events, each naming the hash of the one before: "
                           "two chains are never joined line by line", hint=_conflict_hint(folder)) from None
    if proj.id != task_id:
        raise HarnessError(f"{name}: the ledger belongs to {proj.id}, not {task_id}")
    task = LoadedTask(task_id, folder, proj, lines, {}, read_with=src.valid_cache)
    if docs:
        task.docs.update({f: read_doc(src, f"{folder}/{f}", SCHEMA_OF[f]) for f in TASK_FILES})
        for name in src.listdir(f"{folder}/findings"):
            if name.endswith(".yaml"):
                _read_finding(src, task, name)
        if proj.contract is not None or src.read(f"{folder}/contract.yaml") is not None:
            task.docs["contract.yaml"] = read_doc(src, f"{folder}/contract.yaml", "contract")
    return task


def _read_finding(src: Source, task: LoadedTask, name: str) -> None:
    """The finding file ``name`` into ``task.docs``: from a commit, by its blob's id, unread when that blob was found
    to agree with an equal finding (:mod:`.commit_docs`)."""
    from harness.store import commit_docs  # a task without findings (a recording's, often) never loads it

    rel, key = f"{task.dir}/findings/{name}", f"findings/{name}"
    oid = commit_docs.blob_id(src, rel)
    known = commit_docs.agreeing(rel, oid, task.proj.findings.get(name.removesuffix(".yaml")), task.read_with)
    if known is not None:
        task.agreed.add(key)
    task.docs[key] = known if known is not None else read_doc(src, rel, "finding")
    if oid is not None:
        task.blobs[key] = oid


def _conflict_hint(folder: str) -> str:
    """The ways out of a task's ledger git left in conflict that work as written, in an order a reader may run them
    all in. This branch's record is taken whole, folder and all: its ledger alone would keep the other side's
    statements in the YAML files (free-form text is read from the file) and its evidence files."""
    return ("abandon the merge (`git merge --abort`; a rebase or cherry-pick has its own --abort), or keep this "
            f"branch's record of the task (`git restore --source=HEAD --staged --worktree -- {folder}`) and record "
            "the other branch's events again with the harness commands that made them; commit that as an ordinary "
            "commit (`git merge --quit` before committing: a merge commit's ledger must extend both branches', and "
            "none can), which leaves the other branch's commits out of this history")


def _in_conflict(src: Source, rel: str, raw: bytes) -> str | None:
    """How a file that failed to read shows that git left it in conflict (None: it does not): git's conflict markers
    in it, or git holding it as unmerged once the markers were edited out (both sides' lines kept)."""
    import re

    marker = re.search(rb"^(?:<{7}|={7}|>{7}|\|{7})(?: |\r?$)", raw, re.MULTILINE)
    if marker:
        line = raw.count(b"\n", 0, marker.start()) + 1
        return f"its conflict markers at line {line}"
    unmerged = getattr(src, "unmerged", None)
    return "git holds it unmerged" if unmerged is not None and unmerged(rel) else None


def read_doc(src: Source, rel: str, schema: str) -> dict | None:
    raw = src.read(rel)
    if raw is None:
        return None
    try:
        doc = yamlio.parse(raw, rel) if raw.strip() else None
    except HarnessError as exc:
        if exc.hint is None and _in_conflict(src, rel, raw) is not None:
            # A task's YAML files are rendered from its ledger: once that is settled, they are rendered again.
            raise HarnessError(exc.message, hint="git left this task file in conflict; settle the task's ledger "
                                                 "first, then render the file from it (`harness replay --write`)") from None
        raise
    validate.check(doc, schema, rel, raw, src.valid_cache)
    return doc


def render(task: LoadedTask) -> dict[str, dict]:
    """The three YAML documents as the ledger says, keeping free-form text from the files, and each finding's."""
    return _rendered(task, frozenset())


def _rendered(task: LoadedTask, leave_out: set[str] | frozenset[str]) -> dict[str, dict]:
    """:func:`render`, but for the finding files ``leave_out`` names."""
    p, docs = task.proj, task.docs
    overrides, spec = projection.freeform_of_task(docs.get("task.yaml") or {})
    tdoc = projection.task_doc(p, spec)
    tdoc["task"].update(overrides)
    out = {
        "task.yaml": tdoc,
        "requirements.yaml": projection.requirements_doc(
            p, projection.statements_of(docs.get("requirements.yaml") or {}, "requirements")),
        "invariants.yaml": projection.invariants_doc(
            p, projection.statements_of(docs.get("invariants.yaml") or {}, "invariants")),
    }
    for fid, finding in p.findings.items():
        if f"findings/{fid}.yaml" not in leave_out:
            out[f"findings/{fid}.yaml"] = projection.finding_doc(finding)
    if p.contract is not None:
        out["contract.yaml"] = {"contract": p.contract["contract"]}
    return out


def disagreements(task: LoadedTask) -> list[projection.Disagreement]:
    """Where the files disagree with the ledger. A finding file read from a commit and known to agree is not compared
    again (:mod:`.commit_docs`); one that is equal to its finding's rendering is kept as agreeing."""
    out = []
    expected_docs = _rendered(task, task.agreed) if task.agreed else render(task)
    for fname, expected in expected_docs.items():
        rel = f"{task.dir}/{fname}"
        found = task.docs.get(fname)
        if found is None:
            out.append(projection.Disagreement(rel, "(file)", "present", "<missing>", "harness replay --write"))
        elif expected != found:  # equal, the common answer, in one comparison in C: an audit compares every file of a
            # task at each commit touching it. compare() finds nothing in equal documents: one rendered from the
            # ledger lists each id once (its items come from a mapping by id), so neither repeats one
            out.extend(projection.compare(rel, expected, found))
        elif fname in task.blobs:
            from harness.store import commit_docs

            commit_docs.agreed(rel, task.blobs[fname], task.proj.findings[fname[9:-5]], found, task.read_with)
    for fname in sorted(set(task.docs) - set(expected_docs) - task.agreed):
        out.append(projection.Disagreement(f"{task.dir}/{fname}", "(file)", "<absent>", "present",
                                           "harness finding propose --file FILE (findings enter through the ledger)"))
    return out
