"""Whether a test run reached a verdict on its tests: pytest's exit codes beyond pass and fail.

A regression test is attached because it fails, and a reproducer confirms a finding because it fails. pytest
also exits non-zero when no test ran at all: 4 for an option or path it does not know, 5 when nothing was
collected, 2 when collection broke or the run was interrupted, 3 on its own error. Taken for a failure, such
a run records a regression test that never ran (#28's task F-0052). Pure; other runners' codes are not known
here, so their non-zero exits stay failures.
"""

from __future__ import annotations

import posixpath
from collections.abc import Sequence

PYTEST_NO_VERDICT = {
    2: "the run was interrupted or a test file could not be collected (an import or syntax error)",
    3: "pytest failed internally",
    4: "pytest was called wrongly (an option, a path or a node id it does not know)",
    5: "no test was collected (a file without tests, or every test deselected)",
}
PYTHONS = ("python", "python3")


def runs_pytest(argv: Sequence[str]) -> bool:
    """Whether ``argv`` starts pytest itself: `pytest …`, `py.test …` or `python -m pytest …` (any path)."""
    if not argv:
        return False
    program = posixpath.basename(argv[0])
    if program in ("pytest", "py.test"):
        return True
    is_python = program in PYTHONS or (program.startswith("python3.") and program[8:].isdigit())
    options = list(argv[1:])
    while is_python and options and options[0].startswith("-") and options[0] not in ("-m", "-c"):
        if options.pop(0) in ("-X", "-W") and options:
            options.pop(0)  # the value of -X dev, -W error
    return is_python and options[:2] in (["-m", "pytest"], ["-m", "py.test"])


def no_verdict(argv: Sequence[str], exit_code: int | None) -> str | None:
    """Why a run of ``argv`` that exited ``exit_code`` decided nothing about its tests, or None."""
    return PYTEST_NO_VERDICT.get(exit_code) if exit_code is not None and runs_pytest(argv) else None
