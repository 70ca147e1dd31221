"""Whether a FAIL_TO_PASS run in which no case passed still shows the change's tests failing without it.

No case passing on the base's source used to mean the tests could not run there at all (a generated file git
ignores), and every case would look like it fails without the change. It also happens honestly: the project's
only test module imports the change's new function at its top (read 93's F-0338), or the change's conftest.py
does (pytest stops loading it, exit 4, no report: F-0339). Such a run counts when the base's own tests run in a
clean checkout here (the environment runs tests) and every module or conftest.py that could not import lacked
code the change adds (its tracked source has it, the base's has not); any other failure to import is named.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

from harness.core import import_failures as imports
from harness.errors import HarnessError

IMPORT_INSIDE = ("a fixture that needs new code can import it inside the fixture (only the cases that use it then "
                 "fail on the base's source)")


def report_failures(report: Path) -> dict[str, str]:
    """Of the run's JUnit ``report``, each test module pytest could not import -> its error's text."""
    from harness.evidence.junit import collection_errors

    if not report.exists():
        return {}
    try:
        return {k: v for k, v in collection_errors(report).items() if imports.MODULE_IMPORT in v}
    except HarnessError:
        return {}


def conftest_cases(output: str, worktree: Path, files: Mapping[str, str],
                   failures: dict[str, str]) -> dict[str, str] | None:
    """A run pytest stopped while loading a conftest.py (exit 4, no report): each test module under that
    conftest's folder, of the change's ``files``, as an errored entry (None when ``output`` shows no such stop).
    The conftest's error is added to ``failures`` under its path."""
    hit = imports.conftest_failure(output)
    if hit is None:
        return None
    where, text = hit
    try:
        rel = Path(where).resolve().relative_to(worktree.resolve()).as_posix()
    except ValueError:
        return None  # a conftest outside the tree measured: not the change's
    failures[rel] = text
    folder = rel.rpartition("/")[0]
    modules = imports.modules_under(folder, files)
    return dict.fromkeys(modules, "errors") or None


def adds(read: Callable[[str, str], bytes | None], files: Mapping[str, str], base_files: Mapping[str, str],
         missing: imports.Missing) -> bool:
    """Whether the change's tracked source (``files``; ``read(side, path)`` reads either side's file) holds what
    ``missing`` names and the base's does not: a module the change added, or a name it added to one."""
    for path in imports.module_files(missing.module):
        for rel in [f for f in files if f == path or f.endswith("/" + path)]:
            if missing.name is None:
                return rel not in base_files
            now, was = read("change", rel), read("base", rel) if rel in base_files else b""
            if now is not None and imports.defines(now.decode("utf-8", "replace"), missing.name) and not (
                    was and imports.defines(was.decode("utf-8", "replace"), missing.name)):
                return True
    return False


def why_not(failures: Mapping[str, str], added: Callable[[imports.Missing], bool],
            base_runs: Callable[[], str | None]) -> str | None:
    """None when a run where no case passed shows the change's tests failing without it; else the true cause.
    ``failures``: each module or conftest.py that could not import -> its error; ``base_runs``: None when the
    base's own tests run in a clean checkout here, else why not."""
    why = base_runs()
    if why:
        return (f"the base's own tests do not run in a clean checkout here either ({why}): the environment, not "
                "the change, may be why nothing passed")
    if not failures:
        return ("no case passed on the base's source, and no test module or conftest.py failed to import code the "
                "change adds there: the tests ran and all failed, or could not run at all; name tests of which "
                "some pass without the change")
    for where, text in sorted(failures.items()):
        missing = imports.missing_import(text)
        if missing is None or not added(missing):
            what = f"could not import {missing}" if missing else "could not be imported"
            way = f"; {IMPORT_INSIDE}" if where.endswith("conftest.py") else ""
            return (f"{where} {what} on the base's source, which is not code the change adds (a file git "
                    f"ignores, a package not installed?): its cases are not shown to fail because of the change{way}")
    return None


def base_run_check(run: Callable[[], object]) -> Callable[[], str | None]:
    """``run`` (the base's own suite, measured or kept) as a check: None when it ran, else its refusal."""
    def check() -> str | None:
        try:
            run()
        except HarnessError as exc:
            return exc.message
        return None
    return check
