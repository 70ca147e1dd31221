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
from support.protected_project import TESTS, base_commit, pass_to_pass_record, protect, sign_suite_change, write

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
    code, rec = pass_to_pass_record(h, repo, tid)
    return code, rec["pass_to_pass"]


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


# -- what doctest runs under a name, and what sets a docstring (read 85) ----------------------------
# doctest's finder names a test after the module attribute (a class's, for a member) it finds bound at import, not
# after the def whose docstring the examples are written in (F-0299): `mul = _fast_mul` made calc::calc.mul run
# _fast_mul's examples while mul's own docstring stayed as it was.

FAST_E2E = '\n\ndef _fast_mul(a, b):\n    """Multiply, fast.\n\n    >>> mul(3, 3)\n    6\n    """\n' \
           "    return a + b if a == b == 3 else a * b\n"


def test_a_doctested_function_rebound_to_the_broken_value_is_a_lost_case(h, repo, doctested):
    write(repo, {"calc.py": DOCTESTED + FAST_E2E + "\n\nmul = _fast_mul\n"})
    assert h("evidence", "unit_test").code == 0  # mul(3, 3) == 6 and calc::calc.mul now says so
    code, rec = _p2p(h, repo, doctested)
    assert code == 1 and list(_lost(rec)) == ["calc::calc.mul"] and "calc.py" in _lost(rec)["calc::calc.mul"]


def test_a_doctested_function_cached_keeps_its_doctest(h, repo, doctested):
    # The legitimate change a careless guard would refuse: a decorator known to keep the function's docstring
    # (functools.lru_cache copies it) added, and the code rewritten; the examples doctest runs are the same.
    cached = DOCTESTED.replace("def mul", "@functools.lru_cache(maxsize=None)\ndef mul").replace("a * b", "b * a")
    write(repo, {"calc.py": cached.replace('"""Arithmetic."""\n', '"""Arithmetic."""\n\nimport functools\n')})
    unit = h("evidence", "unit_test")
    assert unit.code == 0, unit.text
    code, rec = _p2p(h, repo, doctested)
    assert code == 0 and rec["lost"] == [] and rec["protected_changed"] == []


def test_a_command_line_described_by_the_module_docstring_stays_code(h, repo, doctested):
    # Reading a docstring sets none (F-0302): `description=__doc__` rewrote no example, yet lost every doctest.
    cli = ("\n\ndef main(argv=None):\n    import argparse\n\n    parser = argparse.ArgumentParser(description=__doc__)\n"
           '    parser.add_argument("a", type=int)\n    parser.add_argument("b", type=int)\n'
           "    args = parser.parse_args(argv)\n    print(mul(args.a, args.b))\n")
    write(repo, {"calc.py": DOCTESTED + cli})
    code, rec = _p2p(h, repo, doctested)
    assert code == 0 and rec["lost"] == [] and rec["protected_changed"] == []


FAST = 'def _fast_mul(a, b):\n    """F.\n\n    >>> mul(2, 3)\n    5\n    """\n    return a + b\n\n\n'
CLASS = 'class C:\n    def mul(self, a, b):\n        """M.\n\n        >>> C().mul(2, 3)\n        6\n        """\n' \
        "        return a * b\n"
META = ("class _Swap(type):\n    def __new__(mcs, name, bases, namespace):\n        namespace['mul'] = _fast_mul\n"
        "        return super().__new__(mcs, name, bases, namespace)\n\n\n")
REBOUND_AT_BASE = FAST + BASE + "\nmul = _fast_mul\n"


@pytest.mark.parametrize(("before", "after", "case"), [
    (BASE, FAST + BASE + "\nmul = _fast_mul\n", "calc::calc.mul"),
    (BASE, FAST + "def _faster(f):\n    return _fast_mul\n\n\n" + BASE.replace("def mul", "@_faster\ndef mul"),
     "calc::calc.mul"),
    (BASE, "import functools\n\n" + FAST + BASE.replace("def mul", "@functools.wraps(_fast_mul)\ndef mul"),
     "calc::calc.mul"),
    (BASE, BASE + "\nfrom calc_fast import mul\n", "calc::calc.mul"),
    (BASE, BASE + "\ntry:\n    from _calc import mul\nexcept ImportError:\n    pass\n", "calc::calc.mul"),
    (BASE, FAST + BASE + '\nglobals()["mul"] = _fast_mul\n', "calc::calc.mul"),
    (BASE, FAST + BASE + '\nvars()["mul"] = _fast_mul\n', "calc::calc.mul"),
    (BASE, FAST + BASE + '\nexec("mul = _fast_mul")\n', "calc::calc.mul"),
    (BASE, "import sys\n\n" + FAST + BASE + '\nsetattr(sys.modules[__name__], "mul", _fast_mul)\n', "calc::calc.mul"),
    (BASE, "import sys\n\n" + FAST + BASE + "\nsys.modules[__name__].mul = _fast_mul\n", "calc::calc.mul"),
    (BASE, FAST + BASE + "\n\ndef _swap():\n    global mul\n    mul = _fast_mul\n\n\n_swap()\n", "calc::calc.mul"),
    (CLASS, FAST + CLASS + "\n    mul = _fast_mul\n", "calc::calc.C.mul"),
    (CLASS, FAST + CLASS + "\n\nC.mul = _fast_mul\n", "calc::calc.C.mul"),
    (CLASS, FAST + "def _swap(cls):\n    return cls\n\n\n@_swap\n" + CLASS, "calc::calc.C.mul"),
    (CLASS, FAST + META + CLASS.replace("class C:", "class C(metaclass=_Swap):"), "calc::calc.C.mul"),
    (REBOUND_AT_BASE, REBOUND_AT_BASE.replace("    5\n", "    4\n"), "calc::calc.mul"),
    (REBOUND_AT_BASE, REBOUND_AT_BASE + "\n\ndef sub(a, b):\n    return a - b\n", "calc::calc.mul"),
], ids=["assigned", "decorated", "wraps-another", "imported", "imported-if-available", "globals", "vars", "exec",
        "setattr", "module-attribute", "global-statement", "class-attribute", "class-attribute-set-outside",
        "class-decorated", "metaclass", "rebound-at-base-examples-changed", "rebound-at-base-code-changed"])
def test_a_name_bound_to_other_examples_rewrites_its_doctest(before, after, case):
    # What static reading cannot resolve counts as rewritten (the last two: once a name is rebound, any change of
    # the module's code may change what its doctest runs).
    from harness.core.doctests import is_doctest_of, rewritten_doctests

    assert is_doctest_of(case, "calc.py", rewritten_doctests(before, after))


DOCTESTED_CASES = ("calc::calc", "calc::calc.mul", "calc::calc.C", "calc::calc.C.mul", "calc::calc.C.total")
PROPERTY = ('class C:\n    def __init__(self):\n        self.total = 0\n\n    @property\n    def total(self):\n'
            '        """T.\n\n        >>> C().total\n        0\n        """\n        return self._total\n\n'
            "    @total.setter\n    def total(self, value):\n        self._total = value\n\n    @staticmethod\n"
            '    def mul(a, b):\n        """M.\n\n        >>> C.mul(2, 3)\n        6\n        """\n        return a * b\n')
LOGGED = ("import functools\n\n\ndef logged(f):\n    @functools.wraps(f)\n    def inner(*args):\n"
          "        return f(*args)\n\n    return inner\n\n\n")
ORDINARY = ('"""Calc.\n\n>>> 1 + 1\n2\n"""\n\nimport logging\n\nlogger = logging.getLogger(__name__)\n'
            "__all__ = ['mul', 'Config']\n\n\nclass Config:\n    def __init__(self, **options):\n"
            "        for key, value in options.items():\n            setattr(self, key, value)\n"
            "        self.mul = options.get('mul')\n\n\n")
DATACLASS = ('from dataclasses import dataclass\n\n\n@dataclass(frozen=True)\nclass C:\n    """C.\n\n'
             '    >>> C(3).mul(2, 3)\n    6\n    """\n\n    a: int\n\n    def mul(self, a, b):\n'
             '        """M.\n\n        >>> C(1).mul(2, 3)\n        6\n        """\n        return a * b\n')


@pytest.mark.parametrize(("before", "after"), [
    ("import functools\n\n" + BASE.replace("def mul", "@functools.lru_cache(maxsize=None)\ndef mul"),
     "import functools\n\n" + BASE.replace("def mul", "@functools.lru_cache(maxsize=None)\ndef mul")
     .replace("a * b", "b * a")),
    (BASE, "from functools import cache\n\n" + BASE.replace("def mul", "@cache\ndef mul")),
    (PROPERTY, PROPERTY.replace("a * b", "b * a").replace("self._total = value", "self._total = int(value)")),
    (LOGGED + BASE.replace("def mul", "@logged\ndef mul"),
     LOGGED.replace("return f(*args)", "print(args)\n        return f(*args)") + BASE.replace("def mul", "@logged\ndef mul")),
    ("from typing import overload\n\n\n@overload\ndef mul(a: int, b: int) -> int: ...\n\n\n" + BASE,
     "from typing import overload\n\n\n@overload\ndef mul(a: int, b: int) -> int: ...\n\n\n" + BASE.replace("a * b", "b * a")),
    ("import pytest\n\n\n" + BASE.replace("def mul", "@pytest.fixture\ndef mul"),
     "import pytest\n\n\n" + BASE.replace("def mul", "@pytest.fixture\ndef mul").replace("a * b", "b * a")),
    (ORDINARY + BASE, ORDINARY.replace("logging.getLogger(__name__)", "logging.getLogger('calc')") + BASE),
    (DATACLASS, DATACLASS.replace("return a * b", "return b * a")),
    (REBOUND_AT_BASE, REBOUND_AT_BASE.replace("mul = _fast_mul", "mul = _fast_mul  # the fast path")),
], ids=["lru_cache", "cache-added", "property-staticmethod", "wraps-decorator", "overload", "fixture",
        "ordinary-module", "dataclass", "comment"])
def test_bindings_that_keep_the_examples_leave_the_doctests_as_they_were(before, after):
    # The legitimate changes a careless guard would refuse: decorators known to return the function or one copying
    # its docstring (functools.wraps), a property's setter, an overload's stub, names that hold no doctest, an
    # instance's own attributes, and a comment beside a rebinding the base already had.
    from harness.core.doctests import is_doctest_of, rewritten_doctests

    names = rewritten_doctests(before, after)
    assert not [case for case in DOCTESTED_CASES if is_doctest_of(case, "calc.py", names)], names


@pytest.mark.parametrize("after", [
    BASE + "\n\ndef main():\n    import argparse\n\n    return argparse.ArgumentParser(description=__doc__)\n",
    BASE + "\n\ndef usage():\n    return mul.__doc__.strip()\n",
    BASE + '\n\ndef documented(f):\n    return getattr(f, "__doc__", None) or ""\n',
    BASE + '\n\nif __doc__ is None and mul.__doc__:\n    raise SystemExit("run without -OO")\n',
], ids=["description", "attribute", "getattr", "condition"])
def test_reading_a_docstring_rewrites_no_doctest(after):
    from harness.core.doctests import rewritten_doctests

    assert rewritten_doctests(BASE, after) == set()


@pytest.mark.parametrize("after", [
    BASE + '\nmul.__doc__ = "M.\\n\\n>>> mul(2, 3)\\n5\\n"\n',
    BASE + '\nmul.__doc__ += "\\n>>> mul(2, 2)\\n4\\n"\n',
    BASE + '\nsetattr(mul, "__doc__", ">>> mul(2, 3)\\n5\\n")\n',
    BASE + "\ndel mul.__doc__\n",
    '"""Calc."""\n\n' + BASE + '\n__doc__ = ">>> 1\\n2\\n"\n',
    BASE + '\n__test__ = {"mul": ">>> mul(2, 3)\\n5\\n"}\n',
    BASE + '\n__test__["mul"] = ">>> mul(2, 3)\\n5\\n"\n',
    "import functools\n\n" + BASE + "\n\ndef _fast(a, b):\n    return a + b\n\n\nfunctools.update_wrapper(_fast, mul)\n",
], ids=["assigned", "augmented", "setattr", "deleted", "module", "test-dict", "test-entry", "update_wrapper"])
def test_writing_a_docstring_at_run_time_rewrites_every_doctest(after):
    from harness.core.doctests import EVERY, rewritten_doctests

    assert EVERY in rewritten_doctests(BASE, after)


@pytest.mark.parametrize(("case", "names", "theirs"), [
    ("calc::calc.C.mul", {"C.*"}, True),
    ("calc::calc.C", {"C.*"}, False),
    ("calc::calc.D.mul", {"C.*"}, False),
    ("calc::calc.C.mul", {"*.mul"}, True),
    ("calc::calc.mul", {"*.mul"}, True),
    ("calc::calc.C.mul", {"mul"}, False),
    ("pkg.calc::pkg.calc.C.mul", {"C.*"}, True),
], ids=["member-of-unknown", "the-class-itself", "another-class", "attribute-stored", "attribute-stored-module",
        "module-level-only", "package"])
def test_a_member_pattern_names_the_doctests_under_it(case, names, theirs):
    from harness.core.doctests import is_doctest_of

    assert is_doctest_of(case, case.partition("::")[0].replace(".", "/") + ".py", names) is theirs
