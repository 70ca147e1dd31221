"""Server side: the push guard's checks over every pushed ref, inside git's quarantine."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from harness.history.audit import AuditResult

if TYPE_CHECKING:
    from harness.gitio.git import Git


@dataclass(frozen=True)
class PushChecked:
    refs: list[dict[str, Any]]     # every pushed ref: ref, old, new, the commits it brings
    audits: list[AuditResult]      # one per ref that brings commits, titled with the ref

    @property
    def exit_code(self) -> int:
        """One refused commit rejects the whole push."""
        return max((a.exit_code for a in self.audits), default=0)

    def as_dict(self) -> dict[str, Any]:
        return self.combined().as_dict()

    def combined(self) -> AuditResult:
        """Every ref's audit as one, over the whole push (what --json prints)."""
        whole = AuditResult("pre-receive", [c for a in self.audits for c in a.commits],
                            scope={"mode": "pre-receive", "refs": self.refs})
        for a in self.audits:
            whole.rows.extend(a.rows)
            whole.problems.extend(a.problems)
            whole.note_disagreements.extend(a.note_disagreements)
            whole.unrunnable += a.unrunnable
            whole.history.extend(a.history)
        return whole


def check_push(git: Git, stdin_lines: Sequence[str | bytes]) -> PushChecked:
    """Audit what each `old new ref` line brings; nothing is stamped (the server never writes notes).
    The lines are bytes as git gave them (a ref name need not be UTF-8); a name is shown with its
    other bytes as \\xNN."""
    from harness.core.limits import decode_json
    from harness.history.audit import run_audit
    from harness.history.incoming import received_refs, shown_ref
    from harness.history.stamp import DEFAULT_REF

    pushed = received_refs(git, stdin_lines)
    # A stamp pushed alongside is read and reported; the verdict never needs it.
    notes = next((p.new for p in pushed if p.ref == DEFAULT_REF and p.commits), None)

    def note_of(commit: str) -> dict[str, Any] | None:
        try:
            doc = decode_json(git.note_in(notes, commit) or "null") if notes else None  # deep nesting too
        except ValueError:
            return None
        return doc if isinstance(doc, dict) else None

    from harness.history.pushed_notes import received_problems
    from harness.history.rewrite import history_problems, protected_tips_held
    from harness.signatures.trust import Signers

    # The server's own config can name the approvers: a root no push can change. Its protected refs, as they are
    # before the push, are the published line an approval already spent on counts nowhere else (read 154's F-0543).
    signers = Signers(lambda: git, line=lambda: protected_tips_held(git))
    refs = [{"ref": shown_ref(p.ref), "old": p.old, "new": p.new, "commits": p.commits} for p in pushed]
    audits = []
    in_notes = dict(received_problems(git, pushed))  # the notes a notes ref's push adds, read for secrets (F-0355)
    for p in pushed:
        # A ref whose history is replaced may bring no new commit at all (a rewind, another
        # branch's tip): its move is judged on its own, beside the commits it brings.
        history = history_problems(git, p.ref, p.old, p.new, signers) + in_notes.get(p.ref, [])
        if not (p.commits or history):
            continue
        title = f"pre-receive {shown_ref(p.ref)}"
        audit = (run_audit(git, p.commits, title, signers, stamp=False, note_of=note_of) if p.commits
                 else AuditResult(title, []))
        audit.history = history
        audits.append(audit)
    return PushChecked(refs, audits)
