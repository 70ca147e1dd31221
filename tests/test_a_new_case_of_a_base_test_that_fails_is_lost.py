"""A case of the base's tests that the base did not have, failing in PASS_TO_PASS's run, is lost (read 163's F-0564).

A base test parametrized over the code's own data (`parametrize("name", sorted(calc.OPS))`, each checked against
Python's `operator`) gets a new case when the change registers a new operation. The run holds the base's tests alone,
so a new case there is one of theirs: the change's wrong `mul` failed it, and PASS_TO_PASS, looking only at the cases
that passed at the base, passed. Beside it, the honest change: the same new case passing."""

from __future__ import annotations

from support.gitrepo import commit_all_ok
from support.paths import PY
from support.protected_project import pass_to_pass_record, protect, write

CALC = "import operator\n\nOPS = {'add': lambda a, b: a + b}\n"
TEST_OPS = """\
import operator

import pytest

import calc


@pytest.mark.parametrize("name", sorted(calc.OPS))
def test_matches_operator(name):
    assert calc.OPS[name](3, 7) == getattr(operator, name)(3, 7)
"""
CMD = [PY, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests", "--junitxml=.harness/local/junit.xml"]


def _base(h, repo) -> str:
    write(repo, {"calc.py": CALC, "tests/test_ops.py": TEST_OPS, ".gitignore": "__pycache__/\n"})
    protect(repo, paths=["tests/**", "**/conftest.py", "pytest.ini", "pyproject.toml"], command=CMD)
    commit_all_ok(repo, "the base")
    return h.ok("task", "new", "Add mul").out.strip()


def test_f0564_a_new_parameter_of_a_base_test_failing_is_lost(h, repo):
    tid = _base(h, repo)
    write(repo, {"calc.py": CALC.replace("}", ", 'mul': lambda a, b: a + b}"),  # wrong
                 "tests/test_ops.py": TEST_OPS.replace("sorted(calc.OPS)", "['add']")})  # the agent narrows its copy
    code, rec = pass_to_pass_record(h, repo, tid)
    assert code == 1, rec
    lost = rec["pass_to_pass"]["lost"]
    assert [item["case"] for item in lost] == ["tests.test_ops::test_matches_operator[mul]"]
    assert "the base did not have" in lost[0]["how"]


def test_f0564_a_new_parameter_of_a_base_test_passing_is_not_lost(h, repo):
    tid = _base(h, repo)
    write(repo, {"calc.py": CALC.replace("}", ", 'mul': lambda a, b: a * b}")})
    code, rec = pass_to_pass_record(h, repo, tid)
    assert code == 0, rec
    assert rec["pass_to_pass"]["lost"] == []
