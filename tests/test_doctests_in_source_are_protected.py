"""A base's doctests are base cases whose examples live in source (read 81's F-0290).

With `--doctest-modules` (or `--doctest-glob`) the base's suite holds cases such as `calc::calc.mul` whose expected
values are written in a module's docstring, a file nothing protects: a change that broke mul() and wrote the broken
value into its doctest passed PASS_TO_PASS. A change to the examples of a doctest the base ran (its `>>>` lines and
their expected output) is a change of the suite: each such case is lost until a human approves it
(`harness approve suite-change`); a source change that leaves every example as it was stays code.
"""

from __future__ import annotations

import os
import textwrap
from pathlib import Path

import pytest

from support.gitrepo import commit_all_ok, git
from support.protected_project import TESTS, base_commit, protect, sign_suite_change, write
from support.records import record

DOCTESTED = textwrap.dedent('''\
    """Arithmetic."""


    def add(a, b):
        return a + b


    def mul(a, b):
        """Multiply.

        >>> mul(3, 3)
        9
        """
        return a * b
    ''')
BROKEN = DOCTESTED.replace("return a * b", "return a + b if a == b == 3 else a * b")  # mul(3, 3) == 6
REWRITTEN = BROKEN.replace("    9\n", "    6\n")  # the base's doctest given the broken value
DOCTEST_MODULES = '[tool.pytest.ini_options]\naddopts = "--doctest-modules --doctest-glob=*.rst"\n'
USAGE = "Usage\n=====\n\n>>> from calc import mul\n>>> mul(3, 4)\n12\n"


def _started(h, repo: Path, extra: dict[str, str] | None = None) -> str:
    write(repo, {"calc.py": DOCTESTED, "tests/test_calc.py": TESTS, "pyproject.toml": DOCTEST_MODULES,
                 "docs/usage.rst": USAGE, **(extra or {})})
    protect(repo)
    commit_all_ok(repo, "calc with tests and doctests")
    return h.ok("task", "new", "Make mul faster").out.strip()


@pytest.fixture
def doctested(h, repo) -> str:
    return _started(h, repo)


def _p2p(h, repo: Path, tid: str) -> tuple[int, dict]:
    r = h("evidence", "pass_to_pass")
    assert r.code in (0, 1), r.text
    return r.code, record(repo, tid, "pass_to_pass")["pass_to_pass"]


def _lost(rec: dict) -> dict[str, str]:
    return {item["case"]: item["how"] for item in rec["lost"]}


def test_a_doctest_given_the_broken_value_in_source_is_a_lost_case(h, repo, doctested):
    write(repo, {"calc.py": REWRITTEN})
    assert h("evidence", "unit_test").code == 0  # the rewritten doctest passes on the broken code
    code, rec = _p2p(h, repo, doctested)
    assert code == 1 and list(_lost(rec)) == ["calc::calc.mul"] and "calc.py" in _lost(rec)["calc::calc.mul"]
    assert "calc.py" in rec["protected_changed"]


def test_a_doctest_file_the_base_globbed_given_the_broken_value_is_a_lost_case(h, repo, doctested):
    write(repo, {"calc.py": DOCTESTED.replace("return a * b", "return a + b if (a, b) == (3, 4) else a * b"),
                 "docs/usage.rst": USAGE.replace("12\n", "7\n")})
    code, rec = _p2p(h, repo, doctested)
    assert code == 1 and set(_lost(rec)) == {"docs.usage.rst::usage.rst"}
    assert "docs/usage.rst" in rec["protected_changed"]


def test_an_example_skipped_by_a_directive_is_a_changed_example(h, repo, doctested):
    write(repo, {"calc.py": BROKEN.replace(">>> mul(3, 3)", ">>> mul(3, 3)  # doctest: +SKIP")})
    code, rec = _p2p(h, repo, doctested)
    assert code == 1 and set(_lost(rec)) == {"calc::calc.mul"}


def test_a_source_change_leaving_every_doctest_example_as_it_was_stays_code(h, repo, doctested):
    # The legitimate change a careless guard would refuse: the code and the docstring's prose rewritten, the function
    # moved, the examples kept: no protected file changed, as for any change of code alone.
    moved = DOCTESTED.replace("return a * b", "return b * a").replace("Multiply.", "The product of a and b.")
    write(repo, {"calc.py": moved + "\n\ndef sub(a, b):\n    return a - b\n"})
    unit = h("evidence", "unit_test")
    assert unit.code == 0, unit.text
    code, rec = _p2p(h, repo, doctested)
    assert code == 0 and rec["lost"] == [] and rec["protected_changed"] == []


def test_a_new_doctest_of_a_new_function_is_no_change_of_the_base(h, repo, doctested):
    write(repo, {"calc.py": DOCTESTED + '\n\ndef sub(a, b):\n    """\n    >>> sub(5, 3)\n    2\n    """\n'
                                         "    return a - b\n"})
    code, rec = _p2p(h, repo, doctested)
    assert code == 0 and rec["lost"] == []


def test_an_approved_doctest_change_is_excused_exactly(h, repo, tmp_path):
    from support.ssh_keys import make_key, signers_line

    key, public = make_key(tmp_path / "keys", "human")
    git(repo, "config", "user.signingKey", str(key))
    tid = _started(h, repo, {".harness/allowed_signers": signers_line("test@example.com", public)})
    write(repo, {"calc.py": REWRITTEN})
    sign_suite_change(repo, tid, ["calc::calc.mul"], key)
    code, rec = _p2p(h, repo, tid)
    assert code == 0 and rec["excused"] == ["calc::calc.mul"] and rec["lost"] == []


def test_ci_re_measures_a_rewritten_doctest_as_lost(h, repo, doctested):
    from harness.evidence.pass_to_pass import remeasure
    from harness.gitio.git import Git
    from harness.store import settings
    from harness.store.layout import Layout

    write(repo, {"calc.py": REWRITTEN})
    sha = commit_all_ok(repo, "the change")
    layout = Layout(repo)
    outcome, lost = remeasure(Git(repo), sha, base_commit(repo, doctested), settings.load_gate(layout).suite,
                              settings.load_config(layout), dict(os.environ), set())
    assert outcome == "failed" and [c for c, _ in lost] == ["calc::calc.mul"]


# -- the rule, pure --------------------------------------------------------------------------------

BASE = 'def mul(a, b):\n    """M.\n\n    >>> mul(2, 3)\n    6\n    """\n    return a * b\n'


@pytest.mark.parametrize(("after", "rewritten"), [
    (BASE.replace("a * b", "b * a"), set()),
    (BASE.replace("M.", "The product."), set()),
    ("import os\n\n\n" + BASE, set()),
    (BASE.replace("    6\n", "    5\n"), {"mul"}),
    (BASE.replace("mul(2, 3)\n", "mul(2, 3)  # doctest: +SKIP\n"), {"mul"}),
    (BASE.replace('"""M.', '"""M.\n\n    >>> 1\n    1\n'), {"mul"}),
    ('def mul(a, b):\n    return a * b\n\nmul.__doc__ = """\n>>> mul(2, 3)\n6\n"""\n', {"mul", "*"}),
    ("def mul(a, b) return", {"*"}),
], ids=["code", "prose", "moved", "expected-value", "skip-directive", "example-added", "set-at-run-time",
        "unparsable"])
def test_the_doctests_a_change_rewrites_are_named(after, rewritten):
    from harness.core.doctests import rewritten_doctests

    assert rewritten_doctests(BASE, after) == rewritten


@pytest.mark.parametrize(("case", "names", "theirs"), [
    ("calc::calc.mul", {"mul"}, True),
    ("calc::calc.mul", {"add"}, False),
    ("calc::calc.C.mul", {"C.mul"}, True),
    ("calc::calc", {""}, True),
    ("calc::calc.add", {"*"}, True),
    ("src.calc::calc.mul", {"mul"}, True),  # rootdir at the tree's root, the module imported from src/
    ("tests.test_calc::test_mul", {"*"}, False),
    ("other::other.mul", {"mul"}, False),
])
def test_a_base_case_is_a_rewritten_doctest_of_its_module(case, names, theirs):
    from harness.core.doctests import is_doctest_of

    assert is_doctest_of(case, "src/calc.py" if case.startswith("src.") else "calc.py", names) is theirs
