"""A finding's regression test run by a node id that names several cases (F-0342): a parametrized function
(`path::test_neg` runs `test_neg[3--2--6]`) or a test class (`path::NegTest` runs `NegTest::test_a`, nested classes
too). Its --tests cite those cases, and neither `harness finding regression` nor the gate calls them cases the
command does not run; a class cited bare is told which cases it ran as. A name that only starts like the node's
(`test_negative`, class `NegTestCase`) is still another test."""

from __future__ import annotations

import pytest

from harness.core.cases import case_id, not_passed, regression_gaps, regression_strays

from support.cli import walk_to
from support.flows import finding, propose
from support.paths import PY

PATH = "tests/test_mul_neg.py"


def cmd(node: str) -> str:
    return f"python -m pytest -q {PATH}::{node}"


@pytest.mark.parametrize(("node", "case"), [
    ("test_neg", "test_neg[3--2--6]"), ("test_neg", "test_neg[a::b]"), ("test_neg", "test_neg"),
    ("NegTest", "NegTest::test_a"), ("NegTest", "NegTest::test_a[1]"), ("Outer", "Outer::Inner::test_x"),
    ("Outer::Inner", "Outer::Inner::test_x"), ("NegTest::test_a", "NegTest::test_a[2]")])
def test_a_node_id_runs_its_parameters_and_the_tests_of_its_class(node, case):
    tests = [case_id(f"{PATH}::{case}")]
    assert regression_strays(tests, PATH, cmd(node)) == []
    assert regression_strays(tests, PATH, cmd(node).split()) == []
    # the gate's check is the same rule
    assert regression_gaps("F-0001", {"path": PATH, "argv": cmd(node).split(), "tests": tests}) == []


@pytest.mark.parametrize(("node", "case"), [
    ("test_neg", "test_negative"), ("test_neg", "test_negative[1]"), ("NegTest", "NegTestCase::test_a"),
    ("C", "CD::test_x"), ("Outer::Inner", "Outer::test_x"), ("Outer::Inner", "Outer::InnerMost::test_x"),
    ("test_neg[1]", "test_neg[2]"), ("NegTest::test_a", "NegTest::test_b")])
def test_a_name_that_only_starts_like_the_node_is_still_not_run(node, case):
    tests = [case_id(f"{PATH}::{case}")]
    assert regression_strays(tests, PATH, cmd(node)) == tests
    gaps = regression_gaps("F-0001", {"path": PATH, "argv": cmd(node).split(), "tests": tests})
    assert len(gaps) == 1 and "which its command does not run" in gaps[0]


def test_a_case_of_another_file_is_still_a_stray_whatever_the_node():
    tests = [case_id("tests/test_other.py::NegTest::test_a")]
    assert regression_strays(tests, PATH, cmd("NegTest")) == tests


def test_a_class_cited_bare_is_told_the_cases_it_ran_as():
    now = {"tests.test_mul_neg.NegTest::test_a": "passed", "tests.test_mul_neg.NegTest::test_b": "passed",
           "tests.test_mul_neg.NegTestCase::test_c": "passed"}
    text = not_passed("Finding F-0001", case_id(f"{PATH}::NegTest"), now)
    assert text == ("Finding F-0001: test tests.test_mul_neg::NegTest did not pass in the cited run: it ran as the cases "
                    "of its class (tests.test_mul_neg.NegTest::test_a, tests.test_mul_neg.NegTest::test_b); cite each "
                    "one that proves it")


PARAM = ("import pytest\n\nfrom calc import mul\n\n\n@pytest.mark.parametrize('a, b, r', [(3, -2, -6), (-3, -2, 6)])\n"
         "def test_neg(a, b, r):\n    assert mul(a, b) == r\n\n\ndef test_negative():\n    assert mul(3, -2) == -6\n")
CLASS = ("import unittest\n\nfrom calc import mul\n\n\nclass NegTest(unittest.TestCase):\n    def test_a(self):\n"
         "        self.assertEqual(mul(3, -2), -6)\n\n\nclass NegTestCase(unittest.TestCase):\n    def test_b(self):\n"
         "        self.assertEqual(mul(3, -2), -6)\n")


def _confirmed(h, repo, tmp_path, text: str) -> None:
    (repo / "calc.py").write_text("def mul(a, b):\n    return sum(a for _ in range(b))\n", "utf-8")
    h.ok("requirement", "add", "mul(a, b) is a * b", "--priority", "must")
    walk_to(h, "SPECIFYING", "PLANNED", "IMPLEMENTING", "VERIFYING", "REVIEWING")
    propose(h, tmp_path, {"findings": [finding("mul is wrong", "mul(3, -2) is 0", "import sys; sys.exit(1)", "minor")]})
    h.ok("finding", "reproduce", "F-0001")
    (repo / "tests").mkdir(exist_ok=True)
    (repo / PATH).write_text(text, "utf-8")


@pytest.mark.parametrize(("text", "node", "cited"), [
    (PARAM, "test_neg", [f"{PATH}::test_neg[3--2--6]", f"{PATH}::test_neg[-3--2-6]"]),
    (CLASS, "NegTest", [f"{PATH}::NegTest::test_a"])])
def test_finding_regression_attaches_the_cases_its_node_id_runs(h, repo, task, tmp_path, text, node, cited):
    _confirmed(h, repo, tmp_path, text)
    tests = [w for c in cited for w in ("--tests", c)]
    h.ok("finding", "regression", "F-0001", PATH, *tests, "--", PY, "-m", "pytest", "-q", f"{PATH}::{node}")
    assert "FIXING" in h.ok("finding", "list").out


@pytest.mark.parametrize(("text", "node", "cited"), [(PARAM, "test_neg", f"{PATH}::test_negative"),
                                                     (CLASS, "NegTest", f"{PATH}::NegTestCase::test_b")])
def test_finding_regression_still_refuses_a_case_its_node_id_does_not_run(h, repo, task, tmp_path, text, node, cited):
    _confirmed(h, repo, tmp_path, text)
    r = h("finding", "regression", "F-0001", PATH, "--tests", cited, "--", PY, "-m", "pytest", "-q", f"{PATH}::{node}")
    assert r.code == 1 and "does not run" in r.err, r.text
    assert "CONFIRMED" in h.ok("finding", "list").out
