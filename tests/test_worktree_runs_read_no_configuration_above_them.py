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
from support.protected_project import BUGGY, CALC, CHANGED, TESTS, base_commit, protect, write
from support.records import record

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
    r = h("evidence", "pass_to_pass")
    assert r.code in (0, 1), r.text
    return r.code, {item["case"]: item["how"] for item in record(repo, tid, "pass_to_pass")["pass_to_pass"]["lost"]}


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
    ({"pyproject.toml": "[tool.pytest]\nminversion = '9'\n"}, None),
    ({"tox.ini": "[pytest]\n"}, None),
    ({"setup.cfg": "[tool:pytest]\n"}, None),
    ({"setup.cfg": "[pytest]\n"}, None),  # pytest stops the run on it
    ({"pyproject.toml": "not toml ["}, None),  # nor does pytest read past a file it cannot parse
])
def test_the_stop_is_written_only_where_the_root_holds_no_configuration_pytest_takes(root, stop):
    from harness.core.pytest_search import stop_file

    assert stop_file(root) == stop
