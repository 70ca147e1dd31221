"""`harness finding regression F PATH -- COMMAND` takes the test's file as PATH. Given a pytest node id
there (`test.py::TestCli::test_version`), it says so and names the right spelling, instead of claiming
the test does not exist and telling the user to write it."""

from __future__ import annotations

from support.cli import walk_to
from support.flows import finding, propose

CHECK = "import sys; sys.exit(1)"


def _confirmed(h, tmp_path) -> None:
    h.ok("requirement", "add", "version flag", "--priority", "must")
    walk_to(h, "SPECIFYING", "PLANNED", "IMPLEMENTING", "VERIFYING", "REVIEWING")
    f = finding("no version flag", "--version exits 2", CHECK)
    f["recommended_reproducer"]["command"] = ["python3", "-c", CHECK]
    propose(h, tmp_path, {"findings": [f]})
    walk_to(h, "REPRODUCING")
    h.ok("finding", "reproduce", "F-0001")


def test_a_node_id_as_path_is_refused_naming_the_file_and_where_the_id_goes(h, repo, task, tmp_path):
    _confirmed(h, tmp_path)
    (repo / "test.py").write_text("def test_version():\n    assert False\n")
    r = h("finding", "regression", "F-0001", "test.py::test_version", "--", "python3", "-m", "pytest", "-q",
          "test.py::test_version")
    assert r.code != 0
    assert "PATH is the regression test's file (test.py)" in r.text, r.text
    assert "write the test first" not in r.text
    assert "harness finding regression F-0001 test.py -- COMMAND" in r.text


def test_a_path_that_really_does_not_exist_still_says_write_it(h, repo, task, tmp_path):
    _confirmed(h, tmp_path)
    r = h("finding", "regression", "F-0001", "missing.py::test_x", "--", "python3", "missing.py")
    assert r.code != 0
    assert "does not exist in the repository" in r.text and "write the test first" in r.text, r.text
