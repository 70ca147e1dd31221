"""A worktree run reads no pytest configuration above its worktree (read 81's F-0294).

The worktree PASS_TO_PASS (and CI's re-run) measures in is made in tempfile's folder, which the caller's TMPDIR
chooses, and pytest looks for its configuration in every folder above the one it starts from when the tree's root
holds none: a pytest.ini and conftest.py in that folder made the base's tests pass on broken code. The harness ends
pytest's search at the worktree's root; a root configuration the tree holds is still the one pytest reads.
"""

from __future__ import annotations

import os
import tempfile
import textwrap
from pathlib import Path

import pytest

from support.gitrepo import commit_all_ok
from support.protected_project import BUGGY, CALC, CHANGED, TESTS, base_commit, pass_to_pass_record, protect, write

# A conftest.py that passes every test, its ids written as if pytest had run from the worktree (its rootdir is the
# folder above it, where this file is).
PASS_ALL = textwrap.dedent('''\
    import pytest


    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(item, call):
        outcome = yield
        rep = outcome.get_result()
        rep.nodeid = rep.nodeid.split("/tree/", 1)[-1]
        if rep.failed:
            rep.outcome, rep.longrepr = "passed", None
    ''')


@pytest.fixture
def tmpdir_under_config(repo, monkeypatch) -> Path:
    """A TMPDIR the caller chose, in the repository's git folder (no file of the tree), holding a pytest.ini and a
    conftest.py that passes every test."""
    scratch = repo / ".git" / "scratch"
    scratch.mkdir()
    (scratch / "pytest.ini").write_text("[pytest]\n")
    (scratch / "conftest.py").write_text(PASS_ALL)
    monkeypatch.setenv("TMPDIR", str(scratch))
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))  # tempfile's memo of the folder, read once per process
    return scratch


def _started(h, repo: Path, files: dict[str, str]) -> str:
    write(repo, {"calc.py": CALC, "tests/test_calc.py": TESTS, **files})
    protect(repo)
    commit_all_ok(repo, "calc with tests")
    return h.ok("task", "new", "Make mul faster").out.strip()


def _p2p(h, repo: Path, tid: str) -> tuple[int, dict[str, str]]:
    code, rec = pass_to_pass_record(h, repo, tid)
    return code, {item["case"]: item["how"] for item in rec["pass_to_pass"]["lost"]}


# The base's root holds no file pytest takes as its configuration: none, a pyproject.toml without a pytest table,
# a tox.ini and a setup.cfg without a pytest section; pytest would search the folders above the worktree.
@pytest.mark.parametrize("root", [{}, {"pyproject.toml": "[project]\nname = 'calc'\nversion = '0'\n"},
                                  {"tox.ini": "[tox]\nenvlist = py3\n", "setup.cfg": "[metadata]\nname = calc\n"}],
                         ids=["none", "pyproject-without-pytest", "tox-and-setup-cfg-without-pytest"])
def test_a_configuration_in_the_callers_tmpdir_hides_no_lost_case(h, repo, tmpdir_under_config, root):
    tid = _started(h, repo, root)
    write(repo, {"calc.py": BUGGY})
    code, lost = _p2p(h, repo, tid)
    assert code == 1 and set(lost) == set(CHANGED)


def test_ci_re_measures_with_no_configuration_above_its_worktrees(h, repo, tmpdir_under_config):
    # CI's re-run measures the base's suite and the commit's in worktrees made the same way (F-0294): a file an
    # earlier command of the job wrote into the temporary folder is above them too.
    from harness.evidence.pass_to_pass import remeasure
    from harness.gitio.git import Git
    from harness.store import settings
    from harness.store.layout import Layout

    tid = _started(h, repo, {})
    write(repo, {"calc.py": BUGGY})
    sha = commit_all_ok(repo, "the change")
    layout = Layout(repo)
    outcome, lost = remeasure(Git(repo), sha, base_commit(repo, tid), settings.load_gate(layout).suite,
                              settings.load_config(layout), dict(os.environ), set())
    assert outcome == "failed" and {c for c, _ in lost} == set(CHANGED)


def test_an_honest_change_passes_with_a_configuration_above_the_worktree(h, repo, tmpdir_under_config):
    tid = _started(h, repo, {"pyproject.toml": "[project]\nname = 'calc'\nversion = '0'\n"})
    write(repo, {"calc.py": CALC.replace("return a * b", "return b * a")})
    assert _p2p(h, repo, tid) == (0, {})


# The legitimate case a careless fix breaks: the base's own root configuration, of whichever file, is the one the
# worktree run reads (here it makes pytest collect `check_*` functions too), never shadowed by the harness's stop.
ROOT_CONFIGS = {
    "pyproject.toml": '[tool.pytest.ini_options]\npython_functions = "test_* check_*"\n',
    "tox.ini": "[tox]\nenvlist = py3\n\n[pytest]\npython_functions = test_* check_*\n",
    "setup.cfg": "[metadata]\nname = calc\n\n[tool:pytest]\npython_functions = test_* check_*\n",
    ".pytest.ini": "[pytest]\npython_functions = test_* check_*\n",
}


@pytest.mark.parametrize("name", list(ROOT_CONFIGS))
def test_the_bases_root_configuration_is_the_one_the_worktree_run_reads(h, repo, tmpdir_under_config, name):
    check = "\n\ndef check_mul():\n    assert mul(2, 3) == 6\n"
    tid = _started(h, repo, {name: ROOT_CONFIGS[name], "tests/test_calc.py": TESTS + check})
    write(repo, {"calc.py": BUGGY})
    code, lost = _p2p(h, repo, tid)
    assert code == 1 and set(lost) == {*CHANGED, "tests.test_calc::check_mul"}


# -- the rule, pure --------------------------------------------------------------------------------

@pytest.mark.parametrize(("root", "stop"), [
    ({}, "pytest.ini"),
    ({"pyproject.toml": "[project]\nname = 'x'\n"}, "pytest.ini"),
    ({"pyproject.toml": "[tool.pytest]\n"}, "pytest.ini"),  # an empty table configures nothing
    ({"tox.ini": "[tox]\n", "setup.cfg": "[metadata]\n"}, "pytest.ini"),
    ({"pytest.toml": "[pytest]\n"}, "pytest.ini"),  # pytest 9 reads it before pytest.ini; pytest 8 never
    ({"pytest.ini": ""}, None),
    ({".pytest.ini": "[other]\n"}, None),
    ({"pyproject.toml": "[tool.pytest.ini_options]\n"}, None),
    ({"tox.ini": "[pytest]\n"}, None),
    ({"setup.cfg": "[tool:pytest]\n"}, None),
    ({"setup.cfg": "[pytest]\n"}, None),  # pytest stops the run on it
])
def test_the_stop_is_written_only_where_the_root_holds_no_configuration_pytest_takes(root, stop):
    from harness.core.pytest_search import stop_file

    assert stop_file(root) == stop


# -- read as pytest reads them (read 86's F-0297) ----------------------------------------------------------------
# pytest reads tox.ini and setup.cfg with iniconfig, not configparser: a line that starts with `[` is a section only
# when it ends in `]` (cut at a `#` or `;`), else it continues the value before it; and a file configparser gives up
# on may be one iniconfig reads, finding no [pytest] section. Where the rule cannot tell what pytest reads, or pytest
# 8 and 9 read the root differently, the stop is written: pytest 9 alone reads a [tool.pytest] table of its own keys,
# and the stop for pytest 8 then comes after pyproject.toml (a setup.cfg), so pytest 9 keeps the tree's table.
IGNORED_BY_PYTEST = {
    "tox-section-line-with-text": {"tox.ini": "[tox]\nenvlist = py3\n[pytest] x\n"},
    "tox-configparser-cannot-parse": {"tox.ini": "[tox]\nenvlist = py3\n[x\n"},
    "setup-cfg-section-line-with-text": {"setup.cfg": "[metadata]\nname = calc\n[tool:pytest] x\n"},
}


@pytest.mark.parametrize("root", list(IGNORED_BY_PYTEST.values()), ids=list(IGNORED_BY_PYTEST))
def test_a_root_file_iniconfig_reads_no_pytest_section_in_ends_no_search_above(h, repo, tmpdir_under_config, root):
    tid = _started(h, repo, root)
    write(repo, {"calc.py": BUGGY})
    code, lost = _p2p(h, repo, tid)
    assert code == 1 and set(lost) == set(CHANGED)


# The legitimate case: a section line iniconfig reads as one (a comment after it), and pytest 9's own [tool.pytest]
# table, stay the configuration the worktree run reads.
READ_BY_PYTEST = {
    "tox-section-line-with-a-comment": "tox.ini",
    "pyproject-tool-pytest-of-pytest-9": "pyproject.toml",
}
READ_BY_PYTEST_TEXTS = {
    "tox.ini": "[tox]\nenvlist = py3\n\n[pytest]  # the suite's options\npython_functions = test_* check_*\n",
    "pyproject.toml": '[tool.pytest]\npython_functions = ["test_*", "check_*"]\n',
}


@pytest.mark.parametrize("name", list(READ_BY_PYTEST.values()), ids=list(READ_BY_PYTEST))
def test_a_root_configuration_iniconfig_or_pytest_9_reads_is_the_one_the_worktree_run_reads(h, repo,
                                                                                              tmpdir_under_config, name):
    check = "\n\ndef check_mul():\n    assert mul(2, 3) == 6\n"
    tid = _started(h, repo, {name: READ_BY_PYTEST_TEXTS[name], "tests/test_calc.py": TESTS + check})
    write(repo, {"calc.py": BUGGY})
    code, lost = _p2p(h, repo, tid)
    assert code == 1 and set(lost) == {*CHANGED, "tests.test_calc::check_mul"}


@pytest.mark.parametrize(("root", "stop"), [
    ({"tox.ini": "[tox]\nenvlist = py\n[pytest] x\n"}, "pytest.ini"),  # a continuation of envlist to iniconfig
    ({"tox.ini": "[tox]\nenvlist = py\n[x\n"}, "pytest.ini"),  # configparser gives up, iniconfig reads it
    ({"tox.ini": "[tox]\n[pytest]x\n"}, "pytest.ini"),  # iniconfig: a continuation after a section, an error
    ({"tox.ini": "[pytest]\n[pytest]\n"}, "pytest.ini"),  # iniconfig refuses a repeated section: unread, stopped
    ({"tox.ini": "[pytest\n"}, "pytest.ini"),
    ({"setup.cfg": "[metadata]\nname = x\n[tool:pytest] y\n"}, "pytest.ini"),
    ({"tox.ini": "[tox]\nenvlist = py\n[pytest] # its options\naddopts = -q\n"}, None),
    ({"tox.ini": "[tox]\nenvlist = py\n\n  ; a comment\n[pytest] ; note\n"}, None),
    ({"tox.ini": "\N{BYTE ORDER MARK}[pytest]\r\naddopts = -q\r\n  -x\r\n"}, None),
    ({"setup.cfg": "[tool:pytest]  # ok\n"}, None),
    # pytest 8 and 9: a [tool.pytest] table of pytest 9's own keys is read by pytest 9 alone
    ({"pyproject.toml": "[tool.pytest]\nminversion = '9'\n"}, "setup.cfg"),
    ({"pyproject.toml": "[tool.pytest]\nminversion = '9'\n", "setup.cfg": "[metadata]\n"}, "pytest.ini"),
    ({"pyproject.toml": "[tool.pytest]\nminversion = '9'\n", "tox.ini": "[pytest]\n"}, None),
    ({"pyproject.toml": "[tool.pytest]\nminversion = '9'\n", "pytest.toml": "[pytest]\n"}, "pytest.ini"),
    ({"pyproject.toml": "[tool.pytest.ini_options]\n[tool.pytest]\nminversion = '9'\n"}, None),
    ({"pyproject.toml": "[tool.pytest]\nini_options = 1\n"}, "pytest.ini"),
    ({"pyproject.toml": "not toml ["}, "pytest.ini"),  # another TOML reader may read it and search on
], ids=["tox-section-line-with-text", "tox-configparser-cannot-parse", "tox-text-after-a-section-line",
        "tox-repeated-section", "tox-unclosed-section", "setup-cfg-section-line-with-text", "tox-section-hash-comment",
        "tox-section-semicolon-comment", "tox-bom-crlf-continuation", "setup-cfg-section-comment", "pytest-9-table",
        "pytest-9-table-beside-setup-cfg", "pytest-9-table-beside-tox-section", "pytest-9-table-beside-pytest-toml",
        "pyproject-ini-options-and-pytest-9-table", "pyproject-ini-options-no-table", "pyproject-unparsable"])
def test_the_stop_rule_reads_a_root_file_as_iniconfig_and_every_pytest_do(root, stop):
    from harness.core.pytest_search import stop_file

    assert stop_file(root) == stop


@pytest.mark.parametrize("text", ["[tox]\nenvlist = py\n[pytest] x\n", "[tox]\n[x\n", "[a]\n[a]\n", "[]\n",
                                  "x = 1\n[a]\n", "[a]\nx = 1\nx = 2\n", "[a]\nno separator\n", "  x\n[a]\n",
                                  "[a]\n; c\n# c\nk: v\n  more\n\n  more\n[b] #\nk = v\n", "[a\n",
                                  "[a]\nk = v\n[b ; ]\n", "\N{BYTE ORDER MARK}[a]\r\nk=v\r\n", "[a]\nk=v\x0c[b]\n"],
                         ids=["text-after-section", "unclosed-after-section", "repeated-section", "empty-section",
                              "value-before-section", "repeated-name", "no-separator", "continuation-first",
                              "comments-and-continuations", "unclosed-alone", "comment-inside-brackets",
                              "bom-and-crlf", "form-feed"])
def test_the_sections_the_rule_reads_are_iniconfig_s(text):
    iniconfig = pytest.importorskip("iniconfig")
    from harness.core.pytest_search import ini_sections

    try:
        expected = set(iniconfig.IniConfig("tox.ini", data=text).sections)
    except iniconfig.ParseError:
        expected = None
    assert ini_sections(text) == expected
