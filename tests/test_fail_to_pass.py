"""FAIL_TO_PASS beyond `requirement set --tests`: the spellings of a case, a contract's planned cases,
a finding's regression test as a case of the suite, and evidence types the change itself added.

A test proves a change only if it fails without it; a command the change wrote proves nothing a
human did not approve.
"""

from __future__ import annotations

import textwrap

import pytest
import yaml

from harness.core.cases import case_id, case_ids_in, planned

from support.cli import gate_json
from support.flows import proposal, propose
from support.gitrepo import commit_all_ok
from support.paths import PY
from support.protected_project import CALC, SUB, SUB_TEST, TESTS, f2p_blockers, protect, write
from support.records import write_yaml


@pytest.mark.parametrize("word, want", [
    ("tests/test_calc.py::test_sub", "tests.test_calc::test_sub"),
    ("tests/test_calc.py::TestSub::test_one[2-3]", "tests.test_calc.TestSub::test_one[2-3]"),
    ("pkg/tests/test_x.py::test_a[x::y]", "pkg.tests.test_x::test_a[x::y]"),
    ("tests\\test_calc.py::test_sub", "tests.test_calc::test_sub"),
    ("tests.test_calc::test_sub", "tests.test_calc::test_sub"),  # the report's own spelling is kept
    ("test_sub_proof::test_proof", "test_sub_proof::test_proof"),
    ("unit_test", "unit_test"),
])
def test_a_case_named_by_node_id_or_by_the_report_is_one_case(word, want):
    assert case_id(word) == want


def test_the_cases_a_command_names_by_node_id_are_its_cases():
    argv = [PY, "-m", "pytest", "-q", "tests/test_calc.py::test_sub", "tests/test_calc.py::T::test_a[1]",
            "tests/test_calc.py", "-k", "x::y"]
    assert case_ids_in(argv) == ["tests.test_calc.T::test_a[1]", "tests.test_calc::test_sub"]
    assert case_ids_in([PY, "check_sub.py"]) == []


def test_a_plan_splits_into_evidence_types_and_test_cases():
    assert planned(["unit_test", "tests/test_calc.py::test_sub", "custom.perf"]) == (
        ["unit_test", "custom.perf"], ["tests.test_calc::test_sub"])


def test_a_node_id_given_to_requirement_set_is_recorded_as_the_report_names_it(h, repo, base):
    write(repo, {"calc.py": SUB, "tests/test_calc.py": TESTS + SUB_TEST})
    h.ok("requirement", "add", "sub(a, b) returns a - b", "--priority", "must")
    h.ok("evidence", "unit_test")
    h.ok("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "unit_test",
         "--tests", "tests/test_calc.py::test_sub")
    h.ok("evidence", "fail_to_pass")
    assert f2p_blockers(h) == []


# -- a contract plans the cases that prove a requirement ------------------------------------------------

def apply_contract(h, repo, tmp_path, verified_by: list[str]) -> None:
    doc = {"contract": {"acceptance_criteria": ["sub works"], "requirements": [
        {"statement": "sub(a, b) returns a - b", "priority": "must", "verified_by": verified_by}]}}
    h.ok("contract", "apply", "--file", str(write_yaml(tmp_path / "inbox" / "contract.yaml", doc)))


def test_a_case_the_contract_plans_must_fail_without_the_change(h, repo, base, tmp_path):
    apply_contract(h, repo, tmp_path, ["unit_test", "tests/test_calc.py::test_add"])
    write(repo, {"calc.py": SUB, "tests/test_calc.py": TESTS + SUB_TEST})
    h.ok("evidence", "unit_test")
    # Verified citing the type alone: the planned case is still what must prove it.
    h.ok("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "unit_test")
    h.ok("evidence", "fail_to_pass")
    assert f2p_blockers(h) == ["REQ-001: test tests.test_calc::test_add passes without the change (fail_to_pass): "
                               "it does not prove the requirement"]


def test_a_planned_case_that_fails_without_the_change_proves_the_requirement(h, repo, base, tmp_path):
    apply_contract(h, repo, tmp_path, ["unit_test", "tests/test_calc.py::test_sub"])
    write(repo, {"calc.py": SUB, "tests/test_calc.py": TESTS + SUB_TEST})
    h.ok("evidence", "unit_test")
    h.ok("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "unit_test")
    assert f2p_blockers(h) == ["REQ-001 names test cases, but fail_to_pass evidence is missing: "
                               "harness evidence fail_to_pass"]
    h.ok("evidence", "fail_to_pass")
    assert f2p_blockers(h) == []


def test_a_contract_refuses_a_case_that_is_not_one():
    from harness.task import contract
    doc = {"contract": {"acceptance_criteria": ["x"], "requirements": [
        {"statement": "x", "priority": "must", "verified_by": ["::test_sub"]}]}}
    with pytest.raises(Exception, match="verified_by"):
        contract.load(yaml.safe_dump(doc).encode(), "c.yaml")


# -- an evidence type the change added proves nothing a human did not approve ------------------------

PROOF = "import sys\nsys.exit(0)\n"


def add_type(repo, name: str = "custom.proof") -> None:
    config = repo / ".harness/config.yaml"
    doc = yaml.safe_load(config.read_text())
    doc["evidence"][name] = {"command": [PY, "proof.py"]}
    config.write_text(yaml.safe_dump(doc, sort_keys=False))
    gate = repo / ".harness/gate.yaml"
    doc = yaml.safe_load(gate.read_text())
    doc["gate"]["verification"][name] = "required"
    gate.write_text(yaml.safe_dump(doc, sort_keys=False))
    write(repo, {"proof.py": PROOF})


def verified_by_proof(h) -> list[str]:
    h.ok("requirement", "add", "sub(a, b) returns a - b", "--priority", "must")
    h.ok("evidence", "custom.proof")
    h.ok("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "custom.proof")
    code, report = gate_json(h)
    assert "blockers" in report, (code, report)
    return [b for b in report["blockers"] if "is not the one config.yaml configured at the task's base" in b]


def test_a_type_the_change_added_cannot_verify_a_must_requirement(h, repo, base):
    add_type(repo)
    assert verified_by_proof(h) == [
        "REQ-001 cites custom.proof, whose command is not the one config.yaml configured at the task's base (added "
        "or changed since, or run by hand): it cannot verify a must requirement until a human approves the "
        "configuration (`harness approve config-change`)"]


def test_a_type_configured_at_the_base_verifies(h, repo, tmp_path):
    write(repo, {"calc.py": CALC, "tests/test_calc.py": TESTS})
    protect(repo)
    add_type(repo)
    commit_all_ok(repo, "calc, its tests and a proof type the human configured")
    h.ok("task", "new", "x")
    assert verified_by_proof(h) == []


def test_a_type_the_change_added_verifies_once_a_human_approves_the_configuration(h, repo, approver):
    from support.ssh_keys import approval_line

    add_type(repo)
    raw = (repo / ".harness/config.yaml").read_bytes()
    (repo / ".harness/approvals.jsonl").write_text(approval_line("config-change", raw, approver[1]))
    assert verified_by_proof(h) == []


def test_an_unsigned_approval_of_the_configuration_does_not_count(h, repo, approver):
    from support.ssh_keys import approval_line

    add_type(repo)
    raw = (repo / ".harness/config.yaml").read_bytes()
    (repo / ".harness/approvals.jsonl").write_text(approval_line("config-change", raw, None))
    assert len(verified_by_proof(h)) == 1


def test_a_task_that_adopts_the_harness_configures_every_type_itself(h, repo):
    # The base has no .harness/ at all: whoever adopts the harness writes config.yaml; nothing to compare.
    h.ok("task", "new", "first")
    add_type(repo)
    assert verified_by_proof(h) == []


# -- a finding's regression test is a case of the protected suite ---------------------------------------

SUB_BUG = CALC + "\n\ndef sub(a, b):\n    return a + b\n"
SUB_REPRO = [PY, "-c", "import sys; from calc import sub; sys.exit(0 if sub(5, 3) == 2 else 1)"]


@pytest.fixture
def buggy(h, repo, tmp_path) -> str:
    """A protected project whose sub() is wrong, a task on it, and a confirmed major finding about it."""
    write(repo, {"calc.py": SUB_BUG, "tests/test_calc.py": TESTS})
    protect(repo)
    config = repo / ".harness/config.yaml"
    doc = yaml.safe_load(config.read_text())
    doc["evidence"]["build"] = {"command": [PY, "-c", "pass"]}
    config.write_text(yaml.safe_dump(doc, sort_keys=False))
    commit_all_ok(repo, "calc with a wrong sub")
    tid = h.ok("task", "new", "fix sub").out.strip()
    assert propose(h, tmp_path, {"findings": [proposal(title="sub adds", claim="sub(5, 3) is 8",
                                                       location={"file": "calc.py", "line": 9},
                                                       recommended_reproducer={"type": "unit_test",
                                                                               "description": "sub(5, 3)",
                                                                               "command": SUB_REPRO})]}).code == 0
    assert "CONFIRMED" in h.ok("finding", "reproduce", "F-0001").out
    write(repo, {"tests/test_calc.py": TESTS + SUB_TEST})
    return tid


def fix_and_verify(h, repo, *regression: str) -> list[str]:
    h.ok("finding", "regression", "F-0001", "tests/test_calc.py", *regression)
    write(repo, {"calc.py": SUB})
    h.ok("finding", "fixed", "F-0001")
    for etype in ("build", "unit_test", "pass_to_pass", "fail_to_pass"):
        assert h("evidence", etype).code == 0, etype
    h.ok("finding", "verify", "F-0001")
    return [b for b in gate_json(h)[1]["blockers"] if b.startswith("Finding F-0001")]


PYTEST = [PY, "-m", "pytest", "-q", "-p", "no:cacheprovider"]


def test_a_regression_test_run_by_node_id_is_a_case_that_fails_without_the_fix(h, repo, buggy):
    assert fix_and_verify(h, repo, "--", *PYTEST, "tests/test_calc.py::test_sub") == []


def test_a_regression_test_named_with_tests_is_checked_as_that_case(h, repo, buggy):
    blockers = fix_and_verify(h, repo, "--tests", "tests/test_calc.py::test_add", "--", *PYTEST,
                              "tests/test_calc.py", "-k", "sub")
    assert blockers == ["Finding F-0001: test tests.test_calc::test_add passes without the change (fail_to_pass): "
                        "it does not prove the fix"]


def test_a_regression_test_that_names_no_case_of_the_suite_blocks(h, repo, buggy):
    blockers = fix_and_verify(h, repo, "--", *PYTEST, "tests/test_calc.py", "-k", "sub")
    assert len(blockers) == 1 and "names no case of the suite" in blockers[0], blockers


def test_a_regression_script_outside_the_suite_is_no_case_of_it(h, repo, buggy):
    write(repo, {"check_sub.py": textwrap.dedent("""\
        import sys
        from calc import sub
        sys.exit(0 if sub(5, 3) == 2 else 1)
        """)})
    h.ok("finding", "regression", "F-0001", "check_sub.py", "--", PY, "check_sub.py")
    write(repo, {"calc.py": SUB})
    h.ok("finding", "fixed", "F-0001")
    for etype in ("build", "unit_test", "pass_to_pass", "fail_to_pass"):
        h("evidence", etype)
    h.ok("finding", "verify", "F-0001")
    blockers = [b for b in gate_json(h)[1]["blockers"] if b.startswith("Finding F-0001")]
    assert len(blockers) == 1 and "names no case of the suite" in blockers[0], blockers


def test_without_a_protected_suite_a_regression_test_is_not_held_to_cases(h, repo, tmp_path):
    # No suite: section (no junit report to read cases from): the finding's own runs are the proof.
    from support.records import configure

    write(repo, {"calc.py": SUB_BUG, "tests/test_calc.py": TESTS})
    configure(repo, [PY, "-c", "pass"], [*PYTEST])
    commit_all_ok(repo, "calc with a wrong sub, no suite")
    h.ok("task", "new", "fix sub")
    assert propose(h, tmp_path, {"findings": [proposal(recommended_reproducer={
        "type": "unit_test", "description": "sub(5, 3)", "command": SUB_REPRO})]}).code == 0
    assert "CONFIRMED" in h.ok("finding", "reproduce", "F-0001").out
    write(repo, {"tests/test_calc.py": TESTS + SUB_TEST})
    h.ok("finding", "regression", "F-0001", "tests/test_calc.py", "--", *PYTEST, "tests/test_calc.py", "-k", "sub")
    write(repo, {"calc.py": SUB})
    h.ok("finding", "fixed", "F-0001")
    h.ok("evidence", "build")
    h.ok("evidence", "unit_test")
    h.ok("finding", "verify", "F-0001")
    assert [b for b in gate_json(h)[1]["blockers"] if b.startswith("Finding F-0001")] == []


# -- found by a third adversarial review (F-0022..F-0033 of TASK-20261203-1dafdf) --------------------

def test_a_type_config_yaml_does_not_name_cannot_verify_a_must_requirement(h, repo, base):
    h.ok("requirement", "add", "sub(a, b) returns a - b", "--priority", "must")
    h.ok("evidence", "custom.proof", "--", PY, "-c", "pass")  # run by hand: no command of config.yaml's
    h.ok("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "custom.proof")
    assert [b for b in gate_json(h)[1]["blockers"] if b.startswith("REQ-001 cites custom.proof")]


def test_a_changed_command_of_a_type_the_base_configured_cannot_verify_a_must_requirement(h, repo, base):
    config = repo / ".harness/config.yaml"
    doc = yaml.safe_load(config.read_text())
    doc["evidence"]["unit_test"]["command"] = [*doc["evidence"]["unit_test"]["command"], "-k", "add"]
    config.write_text(yaml.safe_dump(doc, sort_keys=False))
    h.ok("requirement", "add", "add works", "--priority", "must")
    h.ok("evidence", "unit_test")
    h.ok("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "unit_test")
    assert [b for b in gate_json(h)[1]["blockers"] if b.startswith("REQ-001 cites unit_test")]


def test_a_regression_tests_case_must_be_one_its_command_runs(h, repo, buggy):
    write(repo, {"check_sub.py": "import sys\nfrom calc import sub\nsys.exit(0 if sub(5, 3) == 2 else 1)\n"})
    r = h("finding", "regression", "F-0001", "check_sub.py", "--tests", "tests/test_calc.py::test_sub", "--",
          PY, "check_sub.py")
    assert r.code != 0 and "tests.test_calc::test_sub" in r.err and "check_sub.py" in r.err, r.text


NEW_MODULE_TEST = "from calc import sub\n\n\ndef test_sub():\n    assert sub(5, 3) == 2\n"
NEW_CLASS_TEST = "from calc import sub\n\n\nclass TestSub:\n    def test_sub(self):\n        assert sub(5, 3) == 2\n"


@pytest.mark.parametrize("text, case", [(NEW_MODULE_TEST, "tests/test_sub.py::test_sub"),
                                        (NEW_CLASS_TEST, "tests/test_sub.py::TestSub::test_sub")], ids=["function", "class"])
def test_a_new_test_module_that_cannot_import_at_the_base_proves_the_requirement(h, repo, base, text, case):
    write(repo, {"calc.py": SUB, "tests/test_sub.py": text})
    h.ok("requirement", "add", "sub(a, b) returns a - b", "--priority", "must")
    h.ok("evidence", "unit_test")
    h.ok("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "unit_test", "--tests", case)
    assert h("evidence", "fail_to_pass").code == 0
    assert f2p_blockers(h) == []


def test_a_node_id_with_a_leading_dot_slash_is_the_same_case():
    assert case_id("./tests/test_calc.py::test_sub") == "tests.test_calc::test_sub"
    assert case_id("tests//test_calc.py::test_sub") == "tests.test_calc::test_sub"


def test_a_deselected_node_id_is_no_case_the_command_runs():
    argv = [PY, "-m", "pytest", "--deselect", "tests/test_calc.py::test_add", "--deselect=tests/test_calc.py::test_mul",
            "tests/test_calc.py::test_sub"]
    assert case_ids_in(argv) == ["tests.test_calc::test_sub"]


# -- the change's tests cannot even import on the base's source (read 93's F-0338, F-0339) --------------

TOP_IMPORT_TESTS = TESTS.replace("from calc import add, mul", "from calc import add, mul, sub") + (
    "\n\ndef test_sub():\n    assert sub(5, 3) == 2\n")


def test_the_only_test_module_importing_the_new_function_at_its_top_proves_the_requirement(h, repo, base):
    # F-0338: the base's one test module cannot import `sub` there, so no case passes on the base's source; the
    # base's own tests run in a clean checkout here, so that is the change's doing, not the environment's.
    write(repo, {"calc.py": SUB, "tests/test_calc.py": TOP_IMPORT_TESTS})
    h.ok("requirement", "add", "sub(a, b) returns a - b", "--priority", "must")
    h.ok("evidence", "unit_test")
    h.ok("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "unit_test",
         "--tests", "tests/test_calc.py::test_sub")
    r = h("evidence", "fail_to_pass")
    assert r.code == 0, r.text
    assert f2p_blockers(h) == []


def generated_version_base(h, repo) -> None:
    """A project whose calc.py imports a generated, git-ignored module: its tests cannot run in a clean checkout."""
    write(repo, {"calc.py": "from _version import V\n" + CALC, "_version.py": "V = 1\n", ".gitignore": "_version.py\n",
                 "tests/test_calc.py": TESTS})
    protect(repo)
    commit_all_ok(repo, "generated version")
    h.ok("task", "new", "x")


def test_nothing_passing_on_the_base_where_the_base_s_own_tests_cannot_run_still_proves_nothing(h, repo):
    generated_version_base(h, repo)
    write(repo, {"calc.py": "from _version import V\n" + SUB, "tests/test_calc.py": TOP_IMPORT_TESTS})
    h.ok("requirement", "add", "sub(a, b) returns a - b", "--priority", "must")
    h.ok("evidence", "unit_test")
    h.ok("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "unit_test",
         "--tests", "tests/test_calc.py::test_sub")
    r = h("evidence", "fail_to_pass")
    assert r.code == 1 and "the base's own tests do not run in a clean checkout" in r.err, r.text
    assert any("fail_to_pass evidence is failing" in b for b in f2p_blockers(h))


def test_nothing_passing_because_a_test_imports_what_the_change_does_not_add_still_proves_nothing(h, repo, base):
    # The base's tests run here, but the module fails to import a git-ignored file, not the change's code.
    write(repo, {"calc.py": SUB, "_fixture_data.py": "K = 1\n", ".gitignore": "_fixture_data.py\n",
                 "tests/test_calc.py": "import _fixture_data\n" + TOP_IMPORT_TESTS})
    h.ok("requirement", "add", "sub(a, b) returns a - b", "--priority", "must")
    h.ok("evidence", "unit_test")
    h.ok("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "unit_test",
         "--tests", "tests/test_calc.py::test_sub")
    r = h("evidence", "fail_to_pass")
    assert r.code == 1 and "_fixture_data" in r.err and "not code the change adds" in r.err, r.text


ACC = SUB.replace("def sub", "class Acc:\n    def __init__(self):\n        self.v = 0\n\n    def push(self, x):\n"
                  "        self.v += x\n        return self\n\n\ndef sub")
ACC_TEST = "def test_acc(acc):\n    assert acc.push(2).push(3).v == 5\n"


def conftest_importing(name: str) -> str:
    return f"import pytest\nfrom {name} import Acc\n\n\n@pytest.fixture\ndef acc():\n    return Acc()\n"


def test_a_conftest_importing_the_new_class_at_its_top_proves_the_cases_under_it(h, repo, base):
    # F-0339: on the base's source pytest stops while loading the change's conftest (exit 4, no report): every case
    # under it fails there, as every case of a module that cannot import does.
    write(repo, {"calc.py": ACC, "tests/conftest.py": conftest_importing("calc"), "tests/test_acc.py": ACC_TEST})
    h.ok("requirement", "add", "Acc().push(x) accumulates", "--priority", "must")
    h.ok("evidence", "unit_test")
    h.ok("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "unit_test",
         "--tests", "tests/test_acc.py::test_acc")
    r = h("evidence", "fail_to_pass")
    assert r.code == 0, r.text
    assert f2p_blockers(h) == []


def test_a_conftest_failing_on_the_base_for_another_reason_still_proves_nothing(h, repo, base):
    # The conftest imports a git-ignored module the checkout has and a clean one does not: not the change's code.
    write(repo, {"calc.py": ACC, "_accmod.py": "from calc import Acc\n", ".gitignore": "_accmod.py\n",
                 "tests/conftest.py": conftest_importing("_accmod"), "tests/test_acc.py": ACC_TEST})
    h.ok("requirement", "add", "Acc().push(x) accumulates", "--priority", "must")
    h.ok("evidence", "unit_test")
    h.ok("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "unit_test",
         "--tests", "tests/test_acc.py::test_acc")
    r = h("evidence", "fail_to_pass")
    assert r.code == 1 and "tests/conftest.py" in r.err and "inside the fixture" in r.err, r.text
    assert any("fail_to_pass evidence is failing" in b for b in f2p_blockers(h))


# -- an old test the change's import failure stops on the base's source still passed there (F-0349) ------------

def name_test_add(h, requirement: str = "sub(a, b) returns a - b") -> None:
    h.ok("requirement", "add", requirement, "--priority", "must")
    h.ok("evidence", "unit_test")
    h.ok("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "unit_test",
         "--tests", "tests/test_calc.py::test_add")


OLD_TEST_PASSES = ["REQ-001: test tests.test_calc::test_add passes without the change (fail_to_pass: the base's own "
                   "run passed it; here its module or conftest.py could not import): it does not prove the requirement"]


def test_an_old_test_under_a_conftest_importing_the_new_function_does_not_prove_it(h, repo, base):
    # One line in a new conftest.py stops pytest on the base's source: test_add, which passed on the base and says
    # nothing about sub, must not count as failing without the change.
    write(repo, {"calc.py": SUB, "tests/conftest.py": "from calc import sub  # noqa: F401\n"})
    name_test_add(h)
    assert h("evidence", "fail_to_pass").code == 0
    assert f2p_blockers(h) == OLD_TEST_PASSES


def test_an_old_test_of_a_module_importing_the_new_function_at_its_top_does_not_prove_it(h, repo, base):
    # F-0338's module: its new test_sub proves sub (see above); its old test_add, which passed on the base, does not.
    write(repo, {"calc.py": SUB, "tests/test_calc.py": TOP_IMPORT_TESTS})
    name_test_add(h)
    assert h("evidence", "fail_to_pass").code == 0
    assert f2p_blockers(h) == OLD_TEST_PASSES


def test_an_unchanged_test_module_stopped_by_a_changed_helper_does_not_prove_it(h, repo):
    # The test module is the base's own; the helper it imports (a protected file) now imports the new function.
    write(repo, {"calc.py": CALC, "tests/helpers.py": "TWO = 2\n",
                 "tests/test_calc.py": "from helpers import TWO\n" + TESTS})
    protect(repo)
    commit_all_ok(repo, "calc with a test helper")
    h.ok("task", "new", "sub")
    write(repo, {"calc.py": SUB, "tests/helpers.py": "from calc import sub  # noqa: F401\n\nTWO = 2\n"})
    name_test_add(h)
    h.ok("evidence", "fail_to_pass")
    assert f2p_blockers(h) == OLD_TEST_PASSES


def test_a_new_test_beside_old_ones_under_a_conftest_importing_the_new_class_still_proves_it(h, repo, base):
    # Still allowed: the old tests/test_calc.py sits under the same conftest; test_acc is not in the base's results.
    write(repo, {"calc.py": ACC, "tests/conftest.py": conftest_importing("calc"), "tests/test_acc.py": ACC_TEST})
    h.ok("requirement", "add", "Acc().push(x) accumulates", "--priority", "must")
    h.ok("requirement", "add", "add still adds", "--priority", "must")
    h.ok("evidence", "unit_test")
    h.ok("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "unit_test",
         "--tests", "tests/test_acc.py::test_acc")
    h.ok("requirement", "set", "REQ-002", "--status", "verified", "--evidence", "unit_test",
         "--tests", "tests/test_calc.py::test_add")
    assert h("evidence", "fail_to_pass").code == 0
    blockers = [b for b in gate_json(h)[1]["blockers"] if b.startswith(("REQ-001", "REQ-002"))]
    assert blockers == [OLD_TEST_PASSES[0].replace("REQ-001", "REQ-002")]
