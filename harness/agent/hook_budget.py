"""How long a host lets each agent hook run, and how much of that a hook may spend waiting for a lock.

`harness agent install` writes TIMEOUT_SECONDS into the host's settings (harness.agent.hook_settings);
past it the host cancels the hook, and a cancelled hook decides nothing: the stop it should have
blocked goes through. So a hook waits for a lock at most LOCK_WAIT_SECONDS, three quarters of its
timeout (the rest is for judging and answering), and a wait that runs out is answered by the hook's
failure policy (harness.agent.run: the stop hook counts the store's lock held as a block per source tree). Plain values and os alone: the session hooks and
the tool guard import this.
"""

from __future__ import annotations

import os

TIMEOUT_SECONDS = {"session-start": 30, "pre-tool-use": 15, "stop": 60}
LOCK_WAIT_SECONDS = {event: seconds * 3 / 4 for event, seconds in TIMEOUT_SECONDS.items()}
# Shortens the wait (never lengthens it past LOCK_WAIT_SECONDS: the host's timeout would cancel the
# hook); what the tests set, so that a held lock is answered in a fraction of a second.
WAIT_VAR = "HARNESS_HOOK_LOCK_WAIT"


def lock_wait(event: str) -> float:
    """Seconds the hook answering ``event`` may wait for a lock (a value of WAIT_VAR that is no
    number of seconds is no shorter wait: the hook's own bound holds)."""
    bound = LOCK_WAIT_SECONDS[event]
    try:
        given = float(os.environ.get(WAIT_VAR, ""))
    except ValueError:
        return bound
    return min(bound, given) if given >= 0 else bound


def lock_deadline(event: str) -> float:
    """The time.monotonic() reading past which the hook answering ``event`` waits for no lock."""
    import time

    return time.monotonic() + lock_wait(event)
