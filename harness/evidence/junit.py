"""Read a JUnit XML report into pass/fail counts (adapter: touches the file system).

Counts ``<testcase>`` elements rather than trusting suite attributes: the attributes
differ between producers (pytest, Maven Surefire, jest-junit, go-junit-report) and
summing them over nested ``<testsuite>`` elements would double count. The one exception:
an innermost suite with no testcase at all, whose failures/errors attributes are all
there is to go on.
"""

from __future__ import annotations

import pathlib
import xml.etree.ElementTree as ET
from xml.parsers import expat

from harness.errors import HarnessError

MAX_BYTES = 64 * 1024 * 1024
_ROOTS = ("testsuites", "testsuite")
# One outcome per testcase so passed + failed + skipped + errors == tests. pytest
# writes a teardown error as its own extra <testcase>, so this matches its summary.
_PRIORITY = (("failure", "failed"), ("error", "errors"), ("skipped", "skipped"))


class _DoctypeFound(Exception):
    pass


def _local(tag: object) -> str:
    # Tolerate a namespaced report ("{ns}testcase"); comments have non-str tags.
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def _read(path: pathlib.Path) -> bytes:
    from harness.store import bounded

    # A report is the test runner's file, named in config: it may be a link, but only to a
    # regular file (a FIFO or /dev/zero would hang or exhaust the reader).
    data = bounded.read(path, "junit", f"JUnit report {path}", follow=True, cap=MAX_BYTES)
    if data is None:
        raise HarnessError(
            f"JUnit report {path} does not exist",
            hint="check the test command writes its report there (e.g. pytest --junitxml)",
        )
    return data


def _refuse_dtd(path: pathlib.Path, data: bytes) -> None:
    # A DTD is how entity-expansion ("billion laughs") and external-entity attacks
    # get in, and no test reporter emits one. Ask expat itself rather than grepping
    # the bytes so a UTF-16 document cannot hide its DOCTYPE from the check.
    parser = expat.ParserCreate()

    def found(*_args: object) -> None:
        raise _DoctypeFound

    parser.StartDoctypeDeclHandler = found
    parser.EntityDeclHandler = found
    try:
        parser.Parse(data, True)
    except _DoctypeFound:
        raise HarnessError(
            f"JUnit report {path} contains a <!DOCTYPE> or <!ENTITY> declaration; refusing to parse it",
            hint="JUnit reports never need a DTD; regenerate the report with the test runner",
        ) from None
    except expat.ExpatError as exc:
        raise HarnessError(f"JUnit report {path} is not well-formed XML: {exc}") from None


def _root(path: pathlib.Path) -> ET.Element:
    data = _read(path)
    _refuse_dtd(path, data)
    try:
        root = ET.fromstring(data)
    except ET.ParseError as exc:  # expat already accepted it; kept as a safety net
        raise HarnessError(f"JUnit report {path} is not well-formed XML: {exc}") from None
    if _local(root.tag) not in _ROOTS:
        raise HarnessError(
            f"JUnit report {path} has root element <{_local(root.tag)}>, "
            "expected <testsuites> or <testsuite>"
        )
    return root


def _outcomes(root: ET.Element) -> list[tuple[str, str]]:
    """(case id, outcome) of every ``<testcase>``: ``classname::name`` (pytest's node id, with the
    module written dotted), outcome one of passed, failed, errors, skipped."""
    out = []
    for case in root.iter():
        if _local(case.tag) != "testcase":
            continue
        # Only direct children: Surefire's <flakyFailure>/<rerunFailure> mean a rerun
        # passed and are deliberately not in _PRIORITY.
        kinds = {_local(child.tag) for child in case}
        outcome = next((key for tag, key in _PRIORITY if tag in kinds), "passed")
        classname, name = case.get("classname") or "", case.get("name") or ""
        out.append((f"{classname}::{name}" if classname else name, outcome))
    return out


def parse_junit(path: pathlib.Path) -> dict[str, int]:
    """Sum ``tests/passed/failed/skipped/errors`` over every ``<testcase>`` in ``path``."""
    return parse_report(path)[0]


def parse_report(path: pathlib.Path) -> tuple[dict[str, int], dict[str, str]]:
    """The report's counts (see :func:`parse_junit`) and, from the same parse, case id -> outcome.
    A case listed twice (pytest writes a teardown error as a second entry) keeps its worse outcome."""
    root = _root(pathlib.Path(path))
    rank = {"passed": 0, "skipped": 1, "failed": 2, "errors": 3}
    counts = {"tests": 0, "passed": 0, "failed": 0, "skipped": 0, "errors": 0}
    cases: dict[str, str] = {}
    for case, outcome in _outcomes(root):
        counts["tests"] += 1
        counts[outcome] += 1
        if rank[outcome] >= rank[cases.get(case, "passed")]:
            cases[case] = outcome
    for suite in _bare_suites(root):
        # A suite that reports failures but lists no testcase (a runner that crashed while
        # writing, or a summary-only producer) must not read as clean.
        for attr, key in (("failures", "failed"), ("errors", "errors")):
            n = _count_attr(suite.get(attr))
            counts[key] += n
            counts["tests"] += n
    return counts, cases


def _bare_suites(root: ET.Element) -> list[ET.Element]:
    """The innermost suites that hold no ``<testcase>``: only their attributes say anything."""
    def inner(e: ET.Element) -> bool:
        return not any(_local(d.tag) in _ROOTS or _local(d.tag) == "testcase" for d in e.iter() if d is not e)
    return [e for e in root.iter() if _local(e.tag) in _ROOTS and inner(e)]


def _count_attr(value: str | None) -> int:
    try:
        return max(0, int(value or 0))
    except ValueError:  # "3.0", "n/a": producers are sloppy; no count is better than a crash
        return 0


def collection_errors(path: pathlib.Path) -> dict[str, str]:
    """case id -> the error's text, of each entry of the report that is a module pytest could not collect (its
    ``<error message="collection failure">``): a test module that cannot import is one such entry."""
    out: dict[str, str] = {}
    for case in _root(pathlib.Path(path)).iter():
        if _local(case.tag) != "testcase":
            continue
        for child in case:
            if _local(child.tag) == "error" and child.get("message") == "collection failure":
                classname, name = case.get("classname") or "", case.get("name") or ""
                out[f"{classname}::{name}" if classname else name] = child.text or ""
    return out
