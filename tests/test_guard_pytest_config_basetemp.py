"""pytest's `--basetemp` written into its configuration (`addopts` of pytest.ini, pyproject.toml, tox.ini,
setup.cfg) is judged as on the command line: a plain `pytest` would empty the folder (#25's task F-0023)."""

from __future__ import annotations

import pytest

from support.agent_guard import guard_answer

INI = "[pytest]\naddopts = -q --basetemp={}\n"


@pytest.mark.parametrize("name", ["pytest.ini", "tox.ini", "setup.cfg", "pyproject.toml"])
@pytest.mark.parametrize("folder", [".harness", ".", "..", ".git"])
def test_a_config_that_empties_the_record_is_refused(h, task, repo, name, folder):
    assert guard_answer(repo, "Write", {"file_path": name, "content": INI.format(folder)}) == "deny"


def test_an_edit_that_adds_it_is_refused_too(h, task, repo):
    (repo / "pytest.ini").write_text("[pytest]\naddopts = -q\n")
    edit = {"file_path": "pytest.ini", "old_string": "-q", "new_string": "-q --basetemp .harness/tasks"}
    assert guard_answer(repo, "Edit", edit) == "deny"


@pytest.mark.parametrize("content", [INI.format("/tmp/scratch-basetemp"), INI.format("build/tmp"),
                                     "[pytest]\naddopts = -q\ntestpaths = tests\n"])
def test_a_config_that_empties_a_scratch_folder_is_allowed(h, task, repo, content):
    assert guard_answer(repo, "Write", {"file_path": "pytest.ini", "content": content}) == "allow"
