"""A regression test is attached, and a reproducer confirms, only by a run whose tests ran (#28's task F-0052).

pytest exits 4 for an option or path it does not know and 5 when nothing is collected: no test failed, yet
the run is non-zero. Taken for a failure, `finding regression` recorded a regression test that never ran.
Such a run is refused with pytest's reason and nothing is recorded; a test that really fails, and any other
runner's non-zero exit, are taken as before."""

from __future__ import annotations

import pytest

from harness.core.test_verdict import no_verdict, runs_pytest

from support.cli import walk_to
from support.flows import finding, propose
from support.paths import PY

CHECK = "import sys; sys.exit(1)"
FAILING = "def test_version():\n    assert False\n"


def _confirmed(h, tmp_path, command=(PY, "-c", CHECK), severity="major") -> None:
    h.ok("requirement", "add", "version flag", "--priority", "must")
    walk_to(h, "SPECIFYING", "PLANNED", "IMPLEMENTING", "VERIFYING", "REVIEWING")
    f = finding("no version flag", "--version exits 2", CHECK, severity)
    f["recommended_reproducer"]["command"] = list(command)
    propose(h, tmp_path, {"findings": [f]})
    walk_to(h, "REPRODUCING")


def _status(h) -> str:
    return h.ok("finding", "list").out


@pytest.mark.parametrize(("text", "args", "code"), [(FAILING, ["--no-such-option", "test.py::test_version"], 4),
                                                    (FAILING, ["test.py::test_missing"], 4),
                                                    ("VERSION = 1\n", ["test.py"], 5)])
def test_a_pytest_run_that_reached_no_test_is_no_failing_regression(h, repo, task, tmp_path, text, args, code):
    _confirmed(h, tmp_path)
    h.ok("finding", "reproduce", "F-0001")
    (repo / "test.py").write_text(text)
    ledger = (repo / ".harness" / "tasks" / task / "events.jsonl").read_bytes()
    r = h("finding", "regression", "F-0001", "test.py", "--", PY, "-m", "pytest", "-q", *args)
    assert r.code != 0
    assert f"exited {code}" in r.text and "No test ran to a verdict" in r.text and "nothing recorded" in r.text, r.text
    assert (repo / ".harness" / "tasks" / task / "events.jsonl").read_bytes() == ledger
    assert "CONFIRMED" in _status(h)


def test_a_test_that_really_fails_is_attached(h, repo, task, tmp_path):
    _confirmed(h, tmp_path)
    h.ok("finding", "reproduce", "F-0001")
    (repo / "test.py").write_text(FAILING)
    h.ok("finding", "regression", "F-0001", "test.py", "--", PY, "-m", "pytest", "-q", "test.py::test_version")
    assert "FIXING" in _status(h)


def test_another_runner_s_exit_4_is_still_a_failure(h, repo, task, tmp_path):
    _confirmed(h, tmp_path)
    h.ok("finding", "reproduce", "F-0001")
    (repo / "check.py").write_text("import sys\nsys.exit(4)\n")
    h.ok("finding", "regression", "F-0001", "check.py", "--", PY, "check.py")
    assert "FIXING" in _status(h)


def test_a_reproducer_that_reached_no_test_confirms_nothing(h, repo, task, tmp_path):
    (repo / "test.py").write_text("VERSION = 1\n")
    _confirmed(h, tmp_path, (PY, "-m", "pytest", "-q", "test.py"), severity="minor")
    r = h("finding", "reproduce", "F-0001")
    assert r.code != 0 and "exited 5" in r.text and "nothing recorded" in r.text, r.text
    assert "CONFIRMED" not in _status(h)


@pytest.mark.parametrize(("argv", "expected"), [
    (["pytest", "-q"], True), (["/v/bin/pytest"], True), (["py.test"], True), (["python", "-m", "pytest"], True),
    (["python3", "-m", "pytest"], True), (["/usr/bin/python3.12", "-m", "pytest"], True),
    (["python3", "-X", "dev", "-B", "-m", "pytest"], True), (["python3", "-m", "py.test"], True),
    (["python3", "-c", "import pytest"], False), (["python3", "pytest"], False), (["tox"], False),
    (["python3", "-m", "unittest"], False), (["pytest-watch"], False), (["python3.x", "-m", "pytest"], False), ([], False)])
def test_which_commands_run_pytest(argv, expected):
    assert runs_pytest(argv) is expected


@pytest.mark.parametrize(("code", "decided"), [(0, True), (1, True), (2, False), (3, False), (4, False), (5, False),
                                                (124, True), (None, True)])
def test_which_pytest_exits_decide_nothing(code, decided):
    assert (no_verdict(["pytest"], code) is None) is decided
    assert no_verdict(["make", "test"], code) is None


@pytest.mark.parametrize("argv", [
    ["timeout", "60", "python3", "-m", "pytest"], ["timeout", "-s", "KILL", "-k", "5", "60", "pytest"],
    ["env", "python3", "-m", "pytest"], ["env", "-u", "HOME", "A=1", "pytest"], ["env", "-i", "--", "pytest"],
    ["nice", "-n", "5", "py.test"], ["nohup", "time", "pytest"], ["stdbuf", "-oL", "pytest"],
    ["python3", "-Im", "pytest"], ["python3", "-mpytest"], ["python3", "-IBm", "py.test"],
    ["python3", "-Xdev", "-m", "pytest"], ["env", "timeout", "9", "python3", "-I", "-m", "pytest"]])
def test_pytest_wrapped_is_still_pytest(argv):
    """#27's task F-0004: the wrappers pytest is started with, and Python's combined options."""
    assert runs_pytest(argv)
    assert no_verdict(argv, 2) is not None


@pytest.mark.parametrize("argv", [["python3", "-Ic", "import pytest"], ["python3", "-c", "x", "-m", "pytest"],
                                  ["timeout", "60", "make", "test"], ["env", "A=pytest", "tox"],
                                  ["python3", "--version", "-m", "pytest"], ["timeout"], ["env", "-u"]])
def test_what_merely_mentions_pytest_is_not_pytest(argv):
    assert not runs_pytest(argv)


@pytest.mark.parametrize("wrapper", [["timeout", "60"], ["env"]])
def test_a_wrapped_pytest_run_that_could_not_collect_is_no_failing_regression(h, repo, task, tmp_path, wrapper):
    """#27's task F-0004: a syntax error behind `timeout 60` or `env` is refused as the bare run is."""
    _confirmed(h, tmp_path)
    h.ok("finding", "reproduce", "F-0001")
    (repo / "test.py").write_text("def test_version(:\n")
    r = h("finding", "regression", "F-0001", "test.py", "--", *wrapper, PY, "-m", "pytest", "-q", "test.py")
    assert r.code != 0 and "exited 2" in r.text and "No test ran to a verdict" in r.text, r.text
    assert "CONFIRMED" in _status(h)


SETUP_ERROR = "def test_version(no_such_fixture):\n    assert True\n"


def test_a_test_that_errored_in_its_setup_is_no_failing_regression(h, repo, task, tmp_path):
    """#27's task F-0005: pytest exits 1 for a missing fixture, and its summary says `1 error`: no test failed."""
    _confirmed(h, tmp_path)
    h.ok("finding", "reproduce", "F-0001")
    (repo / "test.py").write_text(SETUP_ERROR)
    ledger = (repo / ".harness" / "tasks" / task / "events.jsonl").read_bytes()
    r = h("finding", "regression", "F-0001", "test.py", "--", PY, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test.py")
    assert r.code != 0 and "exited 1" in r.text and "`1 error`" in r.text and "nothing recorded" in r.text, r.text
    assert (repo / ".harness" / "tasks" / task / "events.jsonl").read_bytes() == ledger


def test_a_failed_test_beside_an_errored_one_is_a_failure(h, repo, task, tmp_path):
    _confirmed(h, tmp_path)
    h.ok("finding", "reproduce", "F-0001")
    (repo / "test.py").write_text(SETUP_ERROR + FAILING.replace("test_version", "test_other"))
    h.ok("finding", "regression", "F-0001", "test.py", "--", PY, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test.py")
    assert "FIXING" in _status(h)


@pytest.mark.parametrize(("output", "decided"), [
    ("E  fixture 'db' not found\n1 error in 0.05s\n", False), ("ERROR collecting test.py\n==== 1 error in 0.05s ====\n", False),
    ("no tests ran in 0.01s", False), ("E  fixture 'db' not found\n2 passed, 1 error in 3.10s (0:00:03)", False),
    ("1 failed, 1 error in 0.05s", True), ("=== 3 failed, 2 passed in 1.0s ===", True), ("no summary at all", False),
    ("1 failed in 0.1s\n... then\nE  fixture 'x' not found\n1 error in 0.1s\n", False),
    # An error the code under test raised in a fixture (F-0026): a verdict.
    ("E   IndexError: list index out of range\n1 error in 0.05s\n", True), ("2 passed, 1 error in 3.10s", True)])
def test_pytests_last_summary_decides_a_run_that_exited_1(output, decided):
    assert (no_verdict(["pytest"], 1, output) is None) is decided
    assert no_verdict(["bash", "check.sh"], 1, output) is None  # a script's output is its own to judge
    assert no_verdict(["pytest"], 0, output) is None


@pytest.mark.parametrize(("output", "decided"), [
    ("", False), ("EF    [100%]\n", False),  # -p no:terminal prints nothing; -qq -rN only the progress line
    ("FAILED test.py::test_b - assert 0\nERROR test.py::test_a\n", True),  # -qq: the short summary, no stats line
    ("ERROR test.py::test_a\n", False)])
def test_a_pytest_run_without_its_stats_line_is_judged_by_its_short_summary_or_not_at_all(output, decided):
    """#27's task F-0011: `-p no:terminal` hid the summary that tells an error from a failure."""
    assert (no_verdict(["pytest", "-p", "no:terminal"], 1, output) is None) is decided


def test_a_setup_error_with_the_terminal_reporter_off_is_no_failing_regression(h, repo, task, tmp_path):
    _confirmed(h, tmp_path)
    h.ok("finding", "reproduce", "F-0001")
    (repo / "test.py").write_text(SETUP_ERROR)
    r = h("finding", "regression", "F-0001", "test.py", "--", PY, "-m", "pytest", "-p", "no:terminal",
          "-p", "no:cacheprovider", "test.py")
    assert r.code != 0 and "No test ran to a verdict" in r.text and "summary" in r.text, r.text


COLOURED = ("\x1b[31mFAILED\x1b[0m test.py::test_b - assert 0\n"
            "\x1b[31m========================= \x1b[31m\x1b[1m1 failed\x1b[0m\x1b[31m in 0.05s\x1b[0m\x1b[31m ==========================\x1b[0m\n")


def test_a_coloured_summary_is_read_as_a_plain_one():
    """#27's task F-0012: `--color=yes` (or PY_COLORS=1 in CI) wraps pytest's summary in escape codes."""
    assert no_verdict(["pytest"], 1, COLOURED) is None
    assert no_verdict(["pytest"], 1, "E  fixture 'db' not found\n\x1b[33m1 error\x1b[0m\x1b[33m in 0.05s\x1b[0m\n") is not None


def test_a_coloured_failing_pytest_run_is_a_failing_regression(h, repo, task, tmp_path):
    _confirmed(h, tmp_path)
    h.ok("finding", "reproduce", "F-0001")
    (repo / "test.py").write_text(FAILING)
    h.ok("finding", "regression", "F-0001", "test.py", "--", PY, "-m", "pytest", "--color=yes", "-p", "no:cacheprovider",
         "test.py")
    assert "FIXING" in _status(h)


RAISES_IN_FIXTURE = """\
import pytest


@pytest.fixture
def server():
    raise IndexError("the bug: Server('localhost') raises")


def test_version(server):
    assert True
"""


def test_a_bug_raised_in_a_fixture_is_a_failure(h, repo, task, tmp_path):
    """#27's task F-0026: pytest calls it an error (the fixture failed), but the code under test raised: a verdict.
    A fixture that does not exist (F-0005) or a module that does not collect is still none."""
    _confirmed(h, tmp_path)
    h.ok("finding", "reproduce", "F-0001")
    (repo / "test.py").write_text(RAISES_IN_FIXTURE)
    h.ok("finding", "regression", "F-0001", "test.py", "--", PY, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test.py")
    assert "FIXING" in _status(h)


SCOPE_MISMATCH = """\
import pytest


@pytest.fixture(scope="session")
def server(tmp_path):
    return tmp_path


def test_version(server):
    assert False
"""


def test_a_fixture_scope_mismatch_is_no_failing_regression(h, repo, task, tmp_path):
    """#27's task F-0028: pytest stops in setup (`ScopeMismatch`) before the test body runs: no verdict."""
    _confirmed(h, tmp_path)
    h.ok("finding", "reproduce", "F-0001")
    (repo / "test.py").write_text(SCOPE_MISMATCH)
    r = h("finding", "regression", "F-0001", "test.py", "--", PY, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test.py")
    assert r.code != 0 and "No test ran to a verdict" in r.text, r.text
    assert "CONFIRMED" in _status(h)
