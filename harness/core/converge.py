"""Convergence: continue the fix loop, or stop it — CONVERGED, CONTINUE or ESCALATE.

Pure: the task's ledger events and the live gate verdict in, a decision out. Each
detector looks for one way a loop fails to converge and must not fire on a loop that is
merely working: a red test that turns green on a changed tree is TDD, not flakiness; a
run killed by its timeout says the command is slow, not that it is unstable; a failure
whose message changes is still a failure, not a flip.
"""

from __future__ import annotations

import json
import re
import shlex

from harness.core.blockers import Blocker, as_blockers, from_event
from harness.core.sha256 import sha256
from harness.core.value_class import dataclass, field

CONVERGED, CONTINUE, ESCALATE = "CONVERGED", "CONTINUE", "ESCALATE"
EXIT_CODES = {CONVERGED: 0, CONTINUE: 1, ESCALATE: 3}
DEFAULT_STALLED_ITERATIONS = 3
# Only a completed run's verdict can flip: a timeout or a crash says nothing about the code.
VERDICTS = ("passed", "failed")


@dataclass(frozen=True)
class Decision:
    decision: str
    reason: str | None = None   # the escalation code (ESCALATE only)
    detail: str = ""            # one line: why
    blocker: str | None = None  # the blocker to work on (CONTINUE)

    @property
    def exit_code(self) -> int:
        return EXIT_CODES[self.decision]

    def as_dict(self) -> dict:
        return {"decision": self.decision, "reason": self.reason, "detail": self.detail, "blocker": self.blocker}


@dataclass(frozen=True)
class LoopFacts:
    state: str
    iteration: int
    max_iterations: int
    verdict: str                          # the gate as it judges now: PASS or BLOCKED
    blockers: list[Blocker] | list[str]   # its blockers, without the "not in GATING yet" one
    events: list[dict] = field(default_factory=list)  # the task's ledger, in order
    stalled_iterations: int = DEFAULT_STALLED_ITERATIONS


def decide(f: LoopFacts) -> Decision:
    if f.state == "DONE" or (f.state == "CONVERGED" and f.verdict == "PASS"):
        return Decision(CONVERGED, detail=f"the task is {f.state}")
    if f.state == "CONVERGED":
        # Its PASS no longer holds on this tree (a change since: DONE is refused until the gate passes again). No
        # move leads back into the loop from CONVERGED, so nothing escalates it: the blocker is the work (F-0404).
        blocker = as_blockers(f.blockers[:1])[0].text if f.blockers else None
        return Decision(CONTINUE, detail=f"the task is CONVERGED, but the gate does not pass on this source tree now: "
                                         f"{len(f.blockers)} blocker(s) to clear before `harness transition DONE`",
                        blocker=blocker)
    if f.state == "ESCALATED":
        code = escalation_reason(f.events)
        return Decision(ESCALATE, code, f"the task was escalated ({code or 'no code recorded'})")
    if f.state == "GATING" and f.verdict == "PASS":
        return Decision(CONVERGED, detail="the gate passes on this source tree")
    for code, finding in ((REPEATED_REGRESSION, repeated_regression(f.events)),
                          (UNSTABLE_TEST, unstable_evidence(f.events)),
                          (ARCHITECTURE_DEFECT, recurring_invariant_violation(f.events)
                           or persistent_invariant_violation(f.events, f.stalled_iterations))):
        if finding:
            return Decision(ESCALATE, code, finding)
    stall = stalled(f.events, as_blockers(f.blockers) if f.state == "GATING" else None, f.stalled_iterations)
    if stall:
        return Decision(ESCALATE, *stall)
    # Leaving GATING blocked costs an iteration; at the ceiling only ESCALATED is left (LAW 6).
    after = f.iteration + 1 if f.state == "GATING" else f.iteration
    if after >= f.max_iterations and f.state in ("GATING", "BLOCKED"):
        return Decision(ESCALATE, MAX_ITERATIONS,
                        f"iteration {after}/{f.max_iterations}: the loop has used every iteration the policy allows")
    blocker = as_blockers(f.blockers[:1])[0].text if f.blockers else None
    detail = f"iteration {f.iteration}/{f.max_iterations}; " + (
        f"{len(f.blockers)} blocker(s) to work on" if f.blockers else "nothing blocks now: finish the loop to GATING")
    return Decision(CONTINUE, detail=detail, blocker=blocker)


SPEC_AMBIGUITY, ARCHITECTURE_DEFECT, REPEATED_REGRESSION = "SPEC_AMBIGUITY", "ARCHITECTURE_DEFECT", "REPEATED_REGRESSION"
UNSTABLE_TEST, REVIEW_DISAGREEMENT, MAX_ITERATIONS = "UNSTABLE_TEST", "REVIEW_DISAGREEMENT", "MAX_ITERATIONS"


def escalation_reason(events: list[dict]) -> str | None:
    for e in reversed(events):
        if e["type"] == "task.transitioned" and e["data"].get("to") == "ESCALATED":
            words = str(e["data"].get("reason") or "").replace(":", " ").split()
            return words[0] if words else None
    return None


# -- detectors ---------------------------------------------------------------------------

def fingerprint(content: dict) -> str:
    """What makes two findings the same defect: where it is, what kind, and the run that shows it.

    The reproducer command is the strongest identity (the same failing check); without
    one, the normalised title stands in.
    """
    command = (content.get("recommended_reproducer") or {}).get("command")
    if isinstance(command, list):
        how = shlex.join(command)
    elif isinstance(command, str) and command.strip():
        how = shlex.join(shlex.split(command)) if _splittable(command) else command.strip()
    else:
        how = " ".join(re.findall(r"[a-z0-9]+", str(content.get("title", "")).lower()))
    key = [content.get("category"), (content.get("location") or {}).get("file"), how]
    return sha256(json.dumps(key).encode()).hexdigest()[:16]


def _splittable(text: str) -> bool:
    try:
        shlex.split(text)
        return True
    except ValueError:
        return False


def repeated_regression(events: list[dict]) -> str | None:
    """A finding confirmed again after the same defect (same fingerprint) was verified or closed, or a verified
    finding reopened."""
    prints: dict[str, str] = {}
    status: dict[str, str] = {}
    for e in events:
        t, d = e["type"], e["data"]
        if t == "finding.proposed":
            prints[d["id"]], status[d["id"]] = fingerprint(d["content"]), "PROPOSED"
        elif t == "finding.reproduced" and status.get(d["id"]) in ("PROPOSED", "REPRODUCING"):
            status[d["id"]] = "CONFIRMED" if d.get("outcome") == "failed" else "REPRODUCING"
            if status[d["id"]] == "CONFIRMED":
                earlier = [o for o, s in status.items() if o != d["id"] and s in ("VERIFIED", "CLOSED")
                           and prints.get(o) == prints[d["id"]]]
                if earlier:
                    return f"{d['id']} is the defect {earlier[0]} fixed before, confirmed again"
        elif t in ("finding.verified", "finding.closed") and d["id"] in status:
            status[d["id"]] = "VERIFIED" if t == "finding.verified" else "CLOSED"
        elif t == "finding.reopened" and d["id"] in status:
            if status[d["id"]] in ("VERIFIED", "CLOSED"):
                return f"{d['id']} was verified fixed, and its reviewer's reproducer failed again (reopened)"
            status[d["id"]] = "CONFIRMED"
    return None


def unstable_evidence(events: list[dict]) -> str | None:
    """The same command both passed and failed on the same source tree: the test, not the code, decides.

    A run during which the source changed (``tree_after``) ran on neither tree for certain: it never counts.
    """
    seen: dict[tuple, set[str]] = {}
    commands: dict[str, str] = {}  # run id -> the command it was prepared with
    for e in events:
        t, d = e["type"], e["data"]
        if t == "evidence.prepared":
            commands[str(d.get("run_id"))] = str(d.get("command"))
            continue
        if t == "evidence.collected":
            key = ("evidence", d.get("type"), commands.get(str(d.get("run_id"))), d.get("tree"))
        elif t in ("finding.reproduced", "finding.reopened"):
            key = ("reproducer of " + str(d.get("id")), None, d.get("command"), d.get("tree"))
        else:
            continue
        if d.get("outcome") not in VERDICTS or not d.get("tree") or d.get("tree_after"):
            continue
        outcomes = seen.setdefault(key, set())
        outcomes.add(d["outcome"])
        if outcomes == set(VERDICTS):
            what = f"{key[1]} evidence" if key[0] == "evidence" else key[0]
            return f"{what} passed and failed on the same source tree {str(key[3])[:12]}"
    return None


def recurring_invariant_violation(events: list[dict]) -> str | None:
    """An invariant violated, then verified, then violated again in a later iteration."""
    iteration = 0
    history: dict[str, list[tuple[str, int]]] = {}
    for e in events:
        t, d = e["type"], e["data"]
        if t == "task.transitioned" and (d.get("from"), d.get("to")) == ("GATING", "BLOCKED"):
            iteration += 1
        elif t == "invariant.set":
            history.setdefault(d["id"], []).append((d["status"], iteration))
    for inv, marks in history.items():
        first = next((i for i, (s, _) in enumerate(marks) if s == "violated"), None)
        if first is None:
            continue
        cleared = next((i for i in range(first + 1, len(marks)) if marks[i][0] == "verified"), None)
        if cleared is None:
            continue
        again = next((m for m in marks[cleared + 1:] if m[0] == "violated" and m[1] > marks[first][1]), None)
        if again:
            return f"{inv} was violated in iteration {marks[first][1]}, verified, and violated again in iteration {again[1]}"
    return None


def persistent_invariant_violation(events: list[dict], window: int) -> str | None:
    """An invariant the gate found violated at the end of each of the last ``window`` iterations,
    whatever else changed around it."""
    sets = iteration_blockers(events)
    if window < 1 or len(sets) < window:
        return None
    recent = sets[-window:]
    persistent = sorted(b.text for key, b in recent[0].items()
                        if b.kind == "violated" and all(key in s for s in recent))
    if not persistent:
        return None
    return f"{persistent[0]} at the end of each of the last {window} iterations"


def failed_verification_rounds(events: list[dict]) -> int:
    """VERIFYING → IMPLEMENTING moves since the task last reached the gate (or began).

    Only a trip through GATING counts an iteration, so a fix that never works could loop
    IMPLEMENTING ⇄ VERIFYING forever without spending one; the next step sends such a
    loop to the gate once this reaches ``stalled_iterations``.
    """
    rounds = 0
    for e in events:
        if e["type"] != "task.transitioned":
            continue
        move = (e["data"].get("from"), e["data"].get("to"))
        if move == ("VERIFYING", "IMPLEMENTING"):
            rounds += 1
        elif move[1] in ("GATING", "BLOCKED"):
            rounds = 0
    return rounds


BlockerSet = dict[tuple[str, str, tuple[str, ...]], Blocker]  # key -> the blocker (its latest sentence)


def keyed(blockers: list[Blocker]) -> BlockerSet:
    """Blockers by their key: the parts that change between runs (trees, times, exit details) are in the text only."""
    return {b.key: b for b in blockers}


def iteration_blockers(events: list[dict]) -> list[BlockerSet]:
    """The blockers of the last gate judgement before each GATING → BLOCKED, in order (an old
    event's sentences classified once, as they are read)."""
    return [keyed(bs) for bs in _iterations(events)]


def _iterations(events: list[dict]) -> list[list[Blocker]]:
    """Each iteration's blockers, as :func:`iteration_blockers` keys them."""
    out: list[list[Blocker]] = []
    last: dict = {}
    for e in events:
        if e["type"] == "gate.evaluated":
            last = e["data"]
        elif e["type"] == "task.transitioned" and (e["data"].get("from"), e["data"].get("to")) == ("GATING", "BLOCKED"):
            out.append(from_event(last))
    return out


def stalled(events: list[dict], live: list[Blocker] | None, window: int) -> tuple[str, str] | None:
    """(code, detail) when nothing that blocked ``window`` iterations ago has been cleared since. An
    iteration recorded without keys (an old ledger) counts by the keys its sentences classify as."""
    its = _iterations(events)
    if live is not None:
        its.append(live)
    if window < 1 or len(its) <= window:
        return None
    now, then = _stall_keys(its[-1]), _stall_keys(its[-1 - window])
    if not then or not then.keys() <= now.keys():
        return None
    stuck = sorted(then.values(), key=lambda b: b.text)
    return _stall_code(stuck), (f"the blockers have not shrunk in {window} iterations: "
                                + "; ".join(_short(b) for b in stuck[:3])
                                + (f" (+{len(stuck) - 3} more)" if len(stuck) > 3 else ""))


# A finding rejected but not refuted still blocks as the open finding it was: one disagreement, not a new blocker.
_SAME_BLOCKER_AS = {"finding_unrefuted": "finding_open"}


def _stall_keys(blockers: list[Blocker]) -> BlockerSet:
    """:func:`keyed`, with the kinds that are one blocker for a stall made one."""
    return {(b.check, _SAME_BLOCKER_AS.get(b.kind, b.kind), b.subject): b for b in blockers}


def _text_key(text: str) -> str:
    return re.split(r"[:(]", text, maxsplit=1)[0].strip()


def _short(b: Blocker) -> str:
    """A blocker's sentence up to where run-specific details start (a tree, a time, an exit code)."""
    return _text_key(b.text)


FINDING_CHECKS = ("critical_findings", "major_findings", "regression_debt", "regression_verified")


def _stall_code(stuck: list[Blocker]) -> str:
    if all(b.check in FINDING_CHECKS for b in stuck):
        return REVIEW_DISAGREEMENT  # reviewers and fixes keep disagreeing about the same findings
    if all(b.check == "requirements_verified" for b in stuck):
        return SPEC_AMBIGUITY  # requirements nobody can verify as written
    return ARCHITECTURE_DEFECT
