"""The finding steps: each runs what it needs, then appends one event that replay judges.

The status a step needs is asked of the core before anything is run; every other rule is
the core's, applied when the event is appended (so a hand-written ledger meets the same).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness.core import finding_events, next_step
from harness.core import findings as rules
from harness.core.chain import LedgerProblem
from harness.core.records import Finding
from harness.errors import HarnessError, Refused
from harness.store.reader import LoadedTask
from harness.store.tasks import TaskStore


@dataclass(frozen=True)
class FindingStep:
    id: str
    status: str  # after the step
    collect: tuple[str, ...] = ()  # required evidence types not fresh and passing on this code yet
    # What moves the finding on; once it is final (REJECTED, CLOSED), the task's next step.
    steps: list[next_step.NextStep] = field(default_factory=list)
    attempt_only: str | None = None  # why the run just recorded neither confirms nor refutes the finding

    def as_dict(self) -> dict[str, Any]:
        return {"id": self.id, "status": self.status, "next": next_step.as_data(self.steps),
                **({"attempt_only": self.attempt_only} if self.attempt_only else {})}


@dataclass(frozen=True)
class Proposed:
    findings: list[tuple[str, dict[str, Any]]]  # (id, the proposal as given)
    steps: list[next_step.NextStep] = field(default_factory=list)
    reviewed: str | None = None  # why the proposals were bound to the reviewed code rather than the working tree


def finding_for(task: LoadedTask, fid: str, event: str) -> Finding:
    """The finding, when its status allows ``event`` (asked before a command is run for it)."""
    try:
        return finding_events.finding_for(task.proj, fid, event)
    except LedgerProblem as exc:
        raise Refused(exc.message, exc.hint) from None


def step(s: TaskStore, task_id: str | None, fid: str, event: str, data: dict[str, Any] | None = None) -> FindingStep:
    """Append one finding event; replay refuses it (with its hint) when a rule forbids it."""
    task = s.append(s.current_id(task_id), [(event, {"id": fid, **(data or {})})])
    status = task.proj.findings[fid]["status"]
    collect = _to_collect(s, task) if status == "FIXED" else ()
    f = task.proj.findings[fid]
    refuted = status == "REPRODUCING" and rules.rejection_problem(f) is None
    # A reproduce run measured the source it ran on (the working tree's now): after one on other code, the way to the
    # proposed code and back is the next step, not the same run again (read 114's F-0409).
    way = next_step.detour(f, f["attempts"][-1]["tree"]) if event == "finding.reproduced" else None
    return FindingStep(fid, status, collect, _steps(s, task.id, fid, status, collect, refuted, way),
                       _attempt_only(f) if event == "finding.reproduced" else None)


def _attempt_only(f: Finding) -> str | None:
    """Why the run just recorded decided nothing, said to whoever ran it. A re-check of a rejection runs on
    later code by design: only a file not as proposed makes it no re-check."""
    from harness.core import finding_binding

    run = f["attempts"][-1]
    if f["status"] == "REJECTED":
        why = finding_binding.not_as_proposed(f, run, recheck=True)
        return f"this run is no re-check of {f['id']}'s rejection: {why}" if why else None
    return None if f["status"] == "CONFIRMED" else finding_binding.attempt_only(f, run)


def _steps(s: TaskStore, tid: str, fid: str, status: str, collect: tuple[str, ...],
           refuted: bool, way: next_step.Detour | None = None) -> list[next_step.NextStep]:
    """The finding's own next step while it moves; the task's once it is final."""
    from harness.gate.steps_now import steps_after

    return next_step.finding_steps(fid, status, collect, refuted, way) or steps_after(s, tid)


def _to_collect(s: TaskStore, task: LoadedTask) -> tuple[str, ...]:
    """The required types `finding verify` needs fresh and passing that are not, on the code as it is."""
    from harness.store import settings

    required = settings.load_gate(s.layout).required_types()
    tree = s.git.worktree_source_tree()
    return tuple(t for t in required if (rec := task.proj.evidence.get(t)) is None
                 or rec["outcome"] != "passed" or rec["tree"] != tree)


def proposals_in(path: Path, s: TaskStore | None = None) -> list[dict[str, Any]]:
    """The findings a reviewer's YAML file holds (one finding, a list, or {findings: [...]}), each checked
    against the proposal schema and refused, naming the file and the finding's place, when it is not one.
    With the store ``s`` that records them: a secret the file holds wrapped over lines is replaced where the YAML
    parse joined its pieces again (:meth:`TaskStore.unfolded`, read 155's F-0546)."""
    from harness.core.findings import REPRODUCER_HINT, reproducer_problem, reproducer_shell_problem
    from harness.store import bounded, validate, yamlio

    raw = bounded.read(path, "input", str(path), follow=True) or b""
    doc = yamlio.parse(raw, str(path))
    doc = s.unfolded(doc, raw) if s is not None else doc
    items = doc.get("findings") if isinstance(doc, dict) and "findings" in doc else doc
    items = [items] if isinstance(items, dict) else items
    if not isinstance(items, list) or not items:
        raise HarnessError(f"{path}: expected a finding, a list of findings, or {{findings: [...]}}")
    for n, item in enumerate(items):
        # Said plainly first; the schema enforces the same rule, in its own words.
        missing = (reproducer_problem(item) or reproducer_shell_problem(item)) if isinstance(item, dict) else None
        if missing:
            raise HarnessError(f"{path} (finding {n + 1}): {missing}", hint=REPRODUCER_HINT)
        validate.check(item, "finding-proposal", f"{path} (finding {n + 1})")
    return items


def propose(s: TaskStore, task_id: str | None, items: list[dict[str, Any]]) -> Proposed:
    """Record schema-checked proposals as PROPOSED, whatever id or status they claim."""
    from harness.findings.proposal_site import bound_of, reviewed_site, site_of

    ids: list[str] = []
    content = [{k: v for k, v in item.items() if k not in ("id", "status")} for item in items]
    stored = [s.as_stored(c) for c in content]
    for n, (given, kept) in enumerate(zip(content, stored), 1):
        _refuse_redacted_reproducer(n, given, kept)
    site, files = site_of(s), bound_of(s, content)  # the code the claim is about: only a run on it decides it
    note: list[str] = []

    def precheck(task: LoadedTask) -> list[tuple[str, dict[str, Any]]]:
        nonlocal site
        site, why = reviewed_site(task.proj.reviewed, site)
        note.extend([why] if why else [])
        start = max((int(f.split("-")[1]) for f in task.proj.findings), default=0)
        ids.extend(f"F-{start + n:04d}" for n in range(1, len(items) + 1))
        _refuse_repeats(task, stored)
        return [("finding.proposed", {"id": fid, "content": c, **site, "files": bound})
                for fid, c, bound in zip(ids, content, files)]

    s.append(s.current_id(task_id), [], precheck=precheck)
    return Proposed(list(zip(ids, items)), [step for fid in ids for step in next_step.finding_steps(fid, "PROPOSED")],
                    note[0] if note else None)


def _refuse_redacted_reproducer(n: int, given: dict[str, Any], kept: dict[str, Any]) -> None:
    """Refuse a reproducer whose command the ledger would keep redacted: `[REDACTED:…]` stands for any
    value, so no run could be told to be the reviewer's command, and no secret is kept in any form (not
    even a digest: a short password's can be guessed)."""
    shown = rules.recommended_command(kept)
    if shown == rules.recommended_command(given):
        return
    raise HarnessError(f"refused: finding {n} of the file has a reproducer whose command holds a value shaped like "
                       f"a secret; the ledger would keep it as `{shown}`, which any other value would match, so no "
                       "run could be told to be the reviewer's (nothing was proposed)",
                       hint="have the command read the value from a file it names (write it into a file in the "
                            "repository and pass the path); a `NAME=value` word or an argument is redacted alike")


def _refuse_repeats(task: LoadedTask, contents: list[dict[str, Any]]) -> None:
    """Refuse a proposal whose content, as the ledger keeps it, is a finding the task holds already, or one given
    earlier in the same file: a file proposed twice recorded every finding twice, each a claim to reproduce, fix and
    verify again (this repository's F-0181..F-0201, self-found-12)."""
    held = {_key(f["content"]): fid for fid, f in task.proj.findings.items()}
    for n, content in enumerate(contents, 1):
        fid = held.setdefault(_key(content), f"finding {n} of this file")
        if fid != f"finding {n} of this file":
            raise Refused(f"refused: finding {n} of the file is {fid} again (the same title, claim and reproducer); "
                          "nothing was proposed", hint=f"`harness finding list` shows {fid}; take it out of the file, "
                          "or say what is new about it in its claim")


def _key(content: dict[str, Any]) -> str:
    import json

    return json.dumps(content, sort_keys=True)


def reproduce(s: TaskStore, task_id: str | None, fid: str, argv: tuple[str, ...],
              timeout: float | None) -> FindingStep:
    from harness.core import finding_binding
    from harness.findings import bound_files
    from harness.findings.reproduce import command_of, run_fact

    f = finding_for(s.load(s.current_id(task_id)), fid, "finding.reproduced")
    command = command_of(argv, (f["content"].get("recommended_reproducer") or {}).get("command"))
    if not command:
        raise Refused(f"{fid} names no reproducer command", hint=f"harness finding reproduce {fid} -- COMMAND ...")
    site = f.get("proposed_on")
    # Measured before the run: the files as the run starts them, not as it may leave them.
    files = bound_files.now(s.layout.root, site["files"]) if site else None
    # Replay refuses a run that never reached an exit code (not found, timed out): no attempt.
    fact = run_fact(s, command, timeout)
    if files is not None:
        fact["files"] = files
    if (s.layout.root / finding_binding.PARKED).exists():  # a set-aside's park waits to be brought back
        fact["aside"] = True
    if fact["outcome"] == "failed":  # it would confirm the finding
        _reached_a_verdict(command, fact, f"{fid}'s reproducer", f"harness finding reproduce {fid} -- COMMAND-THAT-RUNS-A-TEST")
        _reviewers_own(f, fid, command)
    return step(s, task_id, fid, "finding.reproduced", fact)


def reopen(s: TaskStore, task_id: str | None, fid: str, timeout: float | None) -> FindingStep:
    """Run a fixed finding's reviewer's reproducer, unchanged, on the code now: a failing run reopens it
    (→ CONFIRMED). A passing one is refused and nothing is recorded: the fix holds here."""
    from harness.core import finding_binding
    from harness.findings import bound_files
    from harness.findings.reproduce import command_of, run_fact

    f = finding_for(s.load(s.current_id(task_id)), fid, "finding.reopened")
    # The reviewer's, a string split into its arguments as reproduce does (F-0568); a minor finding's may be missing.
    command = command_of((), (f["content"].get("recommended_reproducer") or {}).get("command"))
    if rules.recommended_command(f["content"]) is None or command is None:
        raise Refused(f"{fid} has no reviewer's reproducer: no run can show its defect is back",
                      hint="propose the defect again, with a reproducer, as a new finding")
    if (s.layout.root / finding_binding.PARKED).exists():
        raise Refused(f"a set-aside waits to be brought back ({finding_binding.PARKED}): the working tree is not the "
                      f"code to reopen {fid} on", hint="bring the parked files back first (the command that set them "
                                                       "aside names the way back)")
    site = f.get("proposed_on")
    files = bound_files.now(s.layout.root, site["files"]) if site else None
    fact = run_fact(s, command, timeout)
    if files is not None:
        fact["files"] = files
    if fact["outcome"] != "failed":
        raise Refused(f"{fid}'s reproducer did not fail on this code ({fact['outcome']}, exit {fact['exit_code']}): "
                      "its fix holds here; nothing recorded", hint=f"`harness finding reproduce {fid}` is for a "
                      "finding not yet fixed; a fixed one is reopened only by a failing run")
    _reached_a_verdict(command, fact, f"{fid}'s reproducer", f"harness finding reopen {fid}")
    return step(s, task_id, fid, "finding.reopened", fact)


def _reviewers_own(f: Finding, fid: str, command: list[str] | str) -> None:
    """A critical or major finding is confirmed only by its reviewer's reproducer, run as the reviewer
    wrote it: the implementer's own failing `test -e marker` would decide the claim instead. (A passing
    run of another command is an attempt, and refutes nothing: rejection needs the reviewer's.)"""
    import shlex

    from harness.core.findings import NEEDS_REPRODUCER, recommended_command

    recommended = recommended_command(f["content"])
    ran = shlex.join(command) if isinstance(command, list) else shlex.join(shlex.split(command))
    if f["severity"] in NEEDS_REPRODUCER and recommended is not None and ran != recommended:
        raise Refused(f"{fid} is {f['severity']}: only its reviewer's reproducer, run unchanged, confirms it "
                      f"(`{recommended}`), not `{ran}` (it failed; nothing recorded)",
                      hint=f"harness finding reproduce {fid} (no command: the reviewer's); if the reproducer itself "
                           "is wrong, the reviewer proposes the finding again with a corrected one")


def attach_regression(s: TaskStore, task_id: str | None, fid: str, path: str, argv: tuple[str, ...],
                      tests: tuple[str, ...] = (), failing_at: str | None = None) -> FindingStep:
    """The regression test PATH of ``fid``, shown failing: on the working tree, or on commit ``failing_at``
    with PATH as it is now. A finding past CONFIRMED gets it as a replacement, its status kept."""
    from harness.findings import before_fix
    from harness.findings.reproduce import command_of, run_fact
    task = s.load(s.current_id(task_id))
    known = task.proj.findings.get(fid) or finding_for(task, fid, "finding.regression")  # refused: no such finding
    rel = _regression_file(s, fid, path)
    moved_from = before_fix.moved_unchanged(s, known, rel) if failing_at is None else None
    if moved_from is not None:
        return _moved(s, task_id, known, rel, argv, tests, moved_from)
    event = before_fix.event_for(known, failing_at)
    f = finding_for(task, fid, event)
    repro = f["reproduction"] or {}
    command = command_of(argv, repro.get("argv") or repro.get("command"))
    if command is None:
        raise Refused(f"{fid} has no command to run {rel} with", hint=f"harness finding regression {fid} {rel} -- COMMAND")
    named = _named_cases(fid, rel, command, tests)
    fact = before_fix.run_before_fix(s, f, failing_at, rel, command) if failing_at else run_fact(s, command)
    _reached_a_verdict(command, fact, f"regression test {rel}", f"harness finding regression {fid} {rel} -- COMMAND-THAT-RUNS-IT")
    if event == "finding.regression_replaced" and f["status"] in rules.FIX_CLAIMED and fact["outcome"] == "failed":
        fact["now"] = before_fix.run_now(s, command)  # replay refuses it unless it passes
    return step(s, task_id, fid, event, {**fact, "path": rel, **named})


def _moved(s: TaskStore, task_id: str | None, f: Finding, rel: str, argv: tuple[str, ...], tests: tuple[str, ...],
           moved_from: str) -> FindingStep:
    """A fixed finding's regression test file moved unchanged to ``rel``: its command (given, or the old one
    with the path renamed) must run it and pass now."""
    import shlex

    from harness.findings.reproduce import command_of, run_fact

    reg = f["regression_test"] or {}
    renamed = finding_events.moved_command(reg, moved_from, rel)
    command = command_of(argv, renamed)
    was = tuple(finding_events.moved_tests(reg, moved_from, rel))
    if command is None or (argv and command != command_of((), renamed)) or (tests and sorted(tests) != sorted(was)):
        shown = shlex.join(renamed) if isinstance(renamed, list) else renamed
        raise Refused(f"{f['id']}'s regression test moved unchanged to {rel}, and a moved test runs as it did: "
                      f"`{shown}`" + (f" on {', '.join(was)}" if was else "") + " (nothing run, nothing recorded)",
                      hint=finding_events.MOVE_HINT.format(id=f["id"]))
    named = _named_cases(f["id"], rel, command, was)
    fact = run_fact(s, command)
    return step(s, task_id, f["id"], "finding.regression_moved", {**fact, "path": rel, "moved_from": moved_from, **named})


def _regression_file(s: TaskStore, fid: str, path: str) -> str:
    """``path`` relative to the root: a file git tracks (or would), inside the repository."""
    root = s.layout.root.resolve()
    target = (s.layout.root / path).resolve()
    # Where the file is and whether git tracks it are facts of this disk, not of the ledger.
    if not target.is_file() or root not in target.parents:
        file, sep, _ = path.partition("::")
        if sep and (s.layout.root / file).is_file():
            # A node id where the file goes: the test exists, and telling the user to write it misleads.
            raise Refused(f"PATH is the regression test's file ({file}), not a test id ({path})",
                          hint=f"harness finding regression {fid} {file} -- COMMAND (the node id goes in COMMAND, "
                               f"or in --tests)")
        raise Refused(f"regression test {path} does not exist in the repository", hint="write the test first")
    rel = target.relative_to(root).as_posix()
    if s.git.is_ignored(rel):
        raise Refused(f"regression test {rel} is ignored by git: it is not part of the source tree",
                      hint="put the test where git tracks it")
    return rel


def _named_cases(fid: str, rel: str, command: list[str] | str, tests: tuple[str, ...]) -> dict[str, list[str]]:
    """The event's ``tests`` (the suite's cases the test is), refused before the run when the command
    does not run ``rel`` or does not run a case named."""
    import shlex

    from harness.core.cases import case_id, regression_strays

    try:  # asked before the run; replay asks it again of the event
        finding_events.regression_command_runs(fid, rel, command)
    except LedgerProblem as exc:
        raise Refused(exc.message, exc.hint) from None
    # Replay refuses a test that did not fail ("must fail when attached"), with its hint.
    named = {"tests": sorted({case_id(t) for t in tests})} if tests else {}
    strays = regression_strays(named.get("tests", []), rel, command)
    if strays:
        raise Refused(f"--tests names {', '.join(strays)}, which `{shlex.join(command) if isinstance(command, list) else command}` "
                      f"does not run: a regression test's cases are tests of {rel} that its command runs",
                      hint=f"harness finding regression {fid} {rel} --tests {rel}::TEST_NAME -- COMMAND-THAT-RUNS-{rel}")
    return named


def _reached_a_verdict(command: list[str] | str, fact: dict, what: str, hint: str) -> None:
    """A failing run counts only when its tests ran: pytest's exit 4 (usage) or 5 (nothing collected) is no
    failure of the test (#28's task F-0052). Refused before anything is recorded."""
    import shlex

    from harness.core.test_verdict import no_verdict

    why = no_verdict(command if isinstance(command, list) else shlex.split(command), fact["exit_code"],
                     fact.get("output_tail"))
    if why:
        raise Refused(f"the run of {what} exited {fact['exit_code']}: {why}. No test ran to a verdict, so it shows no "
                      "failure (nothing recorded)", hint=f"{hint} (check it runs the test: `pytest --collect-only NODE_ID`)")


def verify(s: TaskStore, task_id: str | None, fid: str) -> FindingStep:
    from harness.findings.reproduce import run_fact
    from harness.store import settings
    from harness.store.evidence_files import load_valid

    task = s.load(s.current_id(task_id))
    f = finding_for(task, fid, "finding.verified")
    load_valid(s.source, task)  # evidence files edited after they were recorded are refused (exit 2)
    reg, repro = f["regression_test"] or {}, f["reproduction"] or {}
    run = run_fact(s, reg.get("argv") or reg["command"])
    problem = finding_events.unreached_test(fid, reg, run)
    if problem is not None:  # replay would refuse it too; here the hint can say where the test file went
        moved = _moved_unchanged_to(s, reg.get("path"), run["tree"])
        if moved:
            problem = finding_events.unreached_test(fid, reg, run, moved) or problem
        raise Refused(problem.message, problem.hint)
    # The confirming reproducer runs only when the regression test passed: replay refuses a
    # failing regression run first, so running it then would be wasted.
    confirming = (run_fact(s, repro.get("argv") or repro["command"])
                  if repro.get("command") and run["outcome"] == "passed" else None)
    full = {"types": settings.load_gate(s.layout).required_types(), "tree": run["tree"]}
    # Replay judges it, in order: the regression test passes, on a changed tree; the confirming
    # reproducer passes; full-suite evidence of every required type is fresh and passing.
    return step(s, task_id, fid, "finding.verified", {"regression": run, "full_suite": full, "reproducer": confirming})


def _moved_unchanged_to(s: TaskStore, old: str | None, tree: str) -> str | None:
    """Where the file ``old`` went, when the working tree no longer has it and exactly one file of ``tree`` (the
    source tree the run saw) is new with the very content HEAD has at ``old``: a `git mv` not committed yet, the
    move `finding regression` takes as the same test. None when that is not certain."""
    head = s.git.head()
    if not old or head is None or (s.layout.root / old).exists():
        return None
    before = s.git.files_of(s.git.source_tree(head))
    was = before.get(old)
    if was is None:
        return None
    oid = was.split()[-1]
    new = [p for p, entry in s.git.files_of(tree).items() if entry.split()[-1] == oid and before.get(p) != entry]
    return new[0] if len(new) == 1 else None
