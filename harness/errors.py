"""The one error type that carries a user-facing message.

Front ends catch :class:`HarnessError` and print ``message`` (plus ``hint``) and exit
with ``exit_code``; anything else escaping is a bug and keeps its traceback.
"""

from __future__ import annotations

EXIT_REFUSED = 1
EXIT_INVALID = 2
EXIT_INTERRUPTED = 130

# What an invalid state is about, carried by the error as data: the step out of it is chosen by its kind, never read
# from its words (read 114's F-0403: every one sent the user to `harness replay`, which knows nothing of gate.yaml).
GATE_LOOSENED = "gate_loosened"    # gate.yaml loosens the committed policy and no human approved it
GATE_INVALID = "gate_invalid"      # gate.yaml is missing or does not validate


class HarnessError(Exception):
    """A problem the user can act on: invalid state, bad input or bad usage (exit 2)."""

    exit_code = EXIT_INVALID

    def __init__(self, message: str, hint: str | None = None, kind: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint
        self.kind = kind  # one of the kinds above, or None: a problem no step of its own clears

    def render(self) -> str:
        if not self.hint:
            return self.message
        # A refusal with no hint of its own carries only the task's next step (``with_next``),
        # which names itself: "hint: next: ..." would read as a hint about a hint.
        label = "" if self.hint.startswith("next: ") else "hint: "
        return f"{self.message}\n  {label}{self.hint}"


class Refused(HarnessError):
    """A legal request the rules refuse (exit 1): illegal transition, missing proof."""

    exit_code = EXIT_REFUSED


class LockWaitRanOut(HarnessError):
    """The harness lock stayed held past the wait's bound (HARNESS_LOCK_TIMEOUT, an agent hook's deadline): a process
    holds it, which an agent can do on purpose, so the stop hook counts it as a block, not an internal error."""
