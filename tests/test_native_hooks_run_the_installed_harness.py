"""The native git hooks run the installed harness whatever the work tree holds: a `harness/` package an
agent writes at the top of the work tree is never what answers for them (python -m would put the
current folder first on sys.path)."""

from __future__ import annotations

import subprocess

import pytest

from support.gitrepo import git

pytestmark = pytest.mark.e2e  # real git hooks run


def _plant(h, repo) -> None:
    """The hooks installed, a harness/ package at the top of the work tree that says it ran, a change staged."""
    assert h("install").code == 0
    planted = repo / "harness"
    planted.mkdir()
    (planted / "__init__.py").write_text("")
    (planted / "__main__.py").write_text("import sys\nprint('PLANTED ran')\nsys.exit(0)\n")
    (repo / "code.py").write_text("x = 1\n")
    git(repo, "add", "code.py")


def test_a_planted_harness_package_does_not_answer_for_the_hooks(h, repo, task):
    _plant(h, repo)
    proc = subprocess.run(["git", "commit", "-m", "code"], cwd=repo, capture_output=True, text=True)
    assert "PLANTED ran" not in proc.stdout + proc.stderr, proc.stdout + proc.stderr


def test_the_agent_hook_command_does_not_run_a_planted_package():
    from harness.agent.hook_settings import hook_command

    command = hook_command("claude", "pre-tool-use", python="/usr/bin/python3")
    assert " -m harness" not in command or " -P " in command or " -I " in command


def test_pythonpath_pointing_at_the_work_tree_does_not_plant_a_harness(h, repo, task):
    import os

    _plant(h, repo)
    for value in (".", str(repo), "/nowhere:"):  # an empty entry is the current folder too
        proc = subprocess.run(["git", "commit", "--allow-empty", "-m", "code"], cwd=repo, capture_output=True,
                              text=True, env={**os.environ, "PYTHONPATH": value})
        assert "PLANTED ran" not in proc.stdout + proc.stderr, (value, proc.stdout + proc.stderr)
