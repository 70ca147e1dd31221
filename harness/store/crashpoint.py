"""A test hook that lets a test kill an installer at any one of its steps.

The installers claim to survive SIGKILL at any point; the only honest proof is to kill them
at every point. Each change an installer makes (a git-config edit, a file written or
renamed, its journal) first calls :func:`step`; with ``HARNESS_KILL_AT_STEP=N`` in the
environment the process SIGKILLs itself at the N-th call (no cleanup, no `finally`: what a
power cut or `kill -9` does). Unset, a step costs one environment lookup.
"""

from __future__ import annotations

import os
import signal

VAR = "HARNESS_KILL_AT_STEP"


def step() -> None:
    from harness import context

    raw = os.environ.get(VAR)
    if not raw:
        return
    memo = context.process()
    memo.installer_steps += 1
    if raw.isdigit() and memo.installer_steps == int(raw):
        os.kill(os.getpid(), signal.SIGKILL)
