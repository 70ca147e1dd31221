"""The agent guard's exit without the interpreter's teardown (and a code-only push's, and a recording's).

The guard answers before every tool call, and once its answer is printed the process has nothing left
to do: tearing down its modules (bashlex, the rules, the parser tables) cost a judged shell command
about a tenth of its answer, a code-only push answered from git (harness.cli.launch) a twentieth, and a
recording answered before click (harness.cli.evidence_fast: its records are written and fsynced before
it answers) about a tenth. :func:`exit_now` does what a normal exit does that anyone could observe
(the atexit callbacks, flushing standard output and error) and then ends the process with the same
exit code. It does so only for the program itself (the `harness` script or `python -m harness`),
with no other thread running: a test calling the entry point in its own process, or anything
embedding it, exits as before. A flush that fails leaves the exit to the interpreter, which reports it.
"""

from __future__ import annotations

import os
import sys


def exit_now(code: int | None) -> None:
    """End the process with ``code`` after what a normal exit would do that can be seen; or return,
    when this process is not the harness program alone (the caller then exits as usual)."""
    if not ends_with_the_answer():
        return
    import atexit

    atexit._run_exitfuncs()  # as the interpreter runs them at exit, and forgets them once run
    try:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                stream.flush()
    except Exception:  # a closed pipe: the interpreter's exit reports it as it always has
        return
    os._exit(code or 0)


def ends_with_the_answer() -> bool:
    """Whether :func:`exit_now` ends this process: it is the harness program alone."""
    main = sys.modules.get("__main__")
    spec = getattr(main, "__spec__", None)
    program = (getattr(spec, "name", None) == "harness.__main__"
               or (spec is None and os.path.basename(getattr(main, "__file__", None) or "") == "harness"))
    threading = sys.modules.get("threading")
    return program and (threading is None or threading.active_count() == 1) and not sys.flags.interactive
