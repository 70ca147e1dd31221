"""The review packet's "Tests added or changed" names every changed test: by the file names the common
runners collect, and whatever the name, every file the gate protects as the suite — so a reviewer is
never told "a change without tests" about a change to a root `test.py` its test command names."""

from __future__ import annotations

import re

import yaml

from support.gitrepo import git
from support.protected_project import PY, protect, write


def _tests_section(text: str) -> str:
    m = re.search(r"^## Tests added or changed\n(.*?)(?=^## )", text, re.S | re.M)
    assert m, text
    return m.group(1)


def _packet(h, tmp_path) -> str:
    out = tmp_path / "packet.md"
    h.ok("review", "packet", "--out", str(out))
    return out.read_text()


def test_a_root_test_py_named_by_the_test_command_is_listed_as_a_test(h, repo, tmp_path):
    protect(repo, paths=("**/conftest.py",), command=[PY, "-m", "pytest", "-q", "checks.py",
                                                      "--junitxml=.harness/local/junit.xml"])
    write(repo, {"checks.py": "def test_one():\n    assert True\n", "app.py": "X = 1\n"})
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "base")
    h.ok("task", "new", "change app and its checks")
    write(repo, {"checks.py": "def test_one():\n    assert 1\n", "app.py": "X = 2\n"})
    section = _tests_section(_packet(h, tmp_path))
    assert "`checks.py`" in section, section
    assert "`app.py`" not in section and "(none" not in section, section


def test_test_files_by_their_runner_names_are_listed_and_other_files_are_not(h, repo, tmp_path):
    h.ok("task", "new", "a change")
    write(repo, {"test.py": "x = 1\n", "shop/tests.py": "x = 1\n", "latest.py": "x = 1\n",
                 "contest.py": "x = 1\n", "pkg/test_b.py": "x = 1\n"})
    section = _tests_section(_packet(h, tmp_path))
    for name in ("test.py", "shop/tests.py", "pkg/test_b.py"):
        assert f"`{name}`" in section, (name, section)
    for name in ("latest.py", "contest.py"):
        assert f"`{name}`" not in section, (name, section)


def test_a_change_without_tests_still_says_so(h, repo, tmp_path):
    h.ok("task", "new", "a change")
    write(repo, {"app.py": "X = 3\n"})
    assert "(none — a change without tests" in _tests_section(_packet(h, tmp_path))


def test_init_names_the_test_files_the_evidence_commands_name(repo):
    from support.cli import cli

    write(repo, {"test.py": "def test_one():\n    assert True\n", "tox.ini": "[tox]\n"})
    (repo / ".harness").mkdir()
    unit = {"command": [PY, "-m", "pytest", "-q", "test.py", "--junitxml=.harness/local/junit.xml"],
            "junit": ".harness/local/junit.xml"}
    (repo / ".harness/config.yaml").write_text(yaml.safe_dump({"version": 1, "evidence": {"unit_test": unit}}))
    r = cli(repo, "init")
    assert r.returncode == 0, r.stderr
    assert "and the files the evidence commands name (test.py)" in r.stdout, r.stdout
