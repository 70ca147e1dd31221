"""A small protected Python project for PASS_TO_PASS and FAIL_TO_PASS tests: calc.py with tests,
the bug the tampering families hide, and the steps that protect it and measure it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import yaml

from support.cli import gate_json
from support.paths import PY
from support.records import record, tdir

CALC = "def add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return a * b\n"


# The bug the tampering hides: mul(2, 3) == 5 and mul(2, 5) == 7 (test_mul and one parametrize case fail).
BUGGY = CALC.replace("return a * b", "return a + b if a == 2 else a * b")


TESTS = textwrap.dedent("""\
    import pytest

    from calc import add, mul


    def test_add():
        assert add(2, 3) == 5


    def test_mul():
        assert mul(2, 3) == 6


    @pytest.mark.parametrize("a, b, want", [(1, 1, 1), (2, 5, 10)])
    def test_mul_cases(a, b, want):
        assert mul(a, b) == want
    """)


# A change's `iniconfig.py` in a folder first on the import path (read 151's F-0530, 153's F-0540): the real iniconfig,
# re-exported, with a plugin (loaded through PYTEST_PLUGINS) that reports every case passed.
FAKE_INICONFIG = """\
import os
import sys

import pluggy

here = os.path.dirname(os.path.abspath(__file__))
saved = sys.path[:]
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != here]
sys.modules.pop("iniconfig", None)
import iniconfig as real  # noqa: E402

sys.path[:] = saved


@pluggy.HookimplMarker("pytest")(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    out = yield
    report = out.get_result()
    report.outcome, report.longrepr = "passed", None


real.pytest_runtest_makereport = pytest_runtest_makereport
os.environ["PYTEST_PLUGINS"] = "iniconfig"
"""

TEST_CMD = [PY, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--junitxml=.harness/local/junit.xml"]


def write(repo: Path, files: dict[str, str | None]) -> None:
    for rel, text in files.items():
        path = repo / rel
        if text is None:
            path.unlink()
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(textwrap.dedent(text))


def protect(repo: Path, paths=("tests/**", "**/conftest.py", "pytest.ini", "pyproject.toml"),
            command: list[str] | None = None) -> None:
    """``repo``'s suite protected, run by ``command`` (by default this module's TEST_CMD as it is at the call: a
    module whose tests expect reuse points it at a virtualenv of its own, :func:`small_venv`)."""
    config = repo / ".harness/config.yaml"
    doc = yaml.safe_load(config.read_text())
    doc["evidence"] = {"unit_test": {"command": command or TEST_CMD, "junit": ".harness/local/junit.xml"}}
    config.write_text(yaml.safe_dump(doc, sort_keys=False))
    gate = repo / ".harness/gate.yaml"
    doc = yaml.safe_load(gate.read_text())
    doc["gate"]["verification"]["pass_to_pass"] = "required"
    doc["gate"]["suite"] = {"paths": list(paths)}
    gate.write_text(yaml.safe_dump(doc, sort_keys=False))


def base_commit(repo: Path, tid: str) -> str:
    first = json.loads((tdir(repo, tid) / "events.jsonl").read_text().splitlines()[0])
    return first["data"]["base_commit"]


SPEC_CHANGE = {"calc.py": BUGGY, "tests/test_calc.py": TESTS.replace("== 6", "== 5").replace("(2, 5, 10)", "(2, 5, 7)")}


CHANGED = ["tests.test_calc::test_mul", "tests.test_calc::test_mul_cases[2-5-10]"]


def sign_suite_change(repo: Path, tid: str, cases: list[str], key: Path | None, base: str | None = None) -> None:
    from harness.core.suite import approval_subject

    from support.gitrepo import git
    from support.ssh_keys import approval_line

    base = base or base_commit(repo, tid)
    root = min(git(repo, "rev-list", "--max-parents=0", "HEAD").stdout.split())
    line = approval_line("suite-change", approval_subject(root, base, cases), key, changes=cases)
    path = repo / ".harness/approvals.jsonl"
    path.write_text((path.read_text() if path.exists() else "") + line)


SUB = CALC + "\n\ndef sub(a, b):\n    return a - b\n"


SUB_TEST = "\n\ndef test_sub():\n    from calc import sub\n    assert sub(5, 3) == 2\n"


def f2p_blockers(h) -> list[str]:

    return [b for b in gate_json(h)[1]["blockers"] if b.startswith("REQ-001")]


# A developer's plain shell: what its bookkeeping sets beside what PASS_TO_PASS's clean environment keeps.
PLAIN_SHELL = {"PWD": "/home/dev/calc", "OLDPWD": "/home/dev", "SHLVL": "1", "_": "/usr/local/bin/harness",
               "HOSTNAME": "dev", "SSH_AUTH_SOCK": "/tmp/ssh-dev/agent.1", "LS_COLORS": "di=01;34"}
# Without PYTHONDONTWRITEBYTECODE a run writes its caches: ignored, as a project has them (not a protected change).
NO_CACHES = {".gitignore": "__pycache__/\n"}


def as_a_developer_runs(monkeypatch, **extra: str) -> None:
    """The environment of a developer's plain shell (and ``extra``), whatever runs this test (pytest-xdist's
    PYTEST_XDIST_* and PYTEST_CURRENT_TEST, the suite's GIT_* identity, a throw-away checkout on PYTHONPATH): a test
    run PASS_TO_PASS may reuse is one whose environment held nothing its clean one lacks (read 110's F-0391)."""
    from harness.runner import KEPT_ENV

    for name in list(os.environ):
        if name not in KEPT_ENV:
            monkeypatch.delenv(name)
    for name, value in {**PLAIN_SHELL, **extra}.items():
        monkeypatch.setenv(name, value)


def small_venv(where: Path) -> Path:
    """A virtualenv whose site-packages names the test interpreter's (pytest imports from there); its bin/ folder.

    A test that expects PASS_TO_PASS to reuse the checkout's run needs one: the kept base and the reuse are keyed by
    every file of the running interpreter's site-packages, and the suite's own is written into while it runs (a run
    under PYTHONOPTIMIZE compiles `.opt-1.pyc` files there), which rightly changes the key between the test's two
    runs. Here only the top level of the suite's site-packages is keyed, which no test writes."""
    subprocess.run([PY, "-m", "venv", "--without-pip", str(where)], check=True, capture_output=True)
    site = next(where.glob("lib/python*/site-packages"))
    (site / "borrowed.pth").write_text("".join(f"{p}\n" for p in sys.path if p.endswith("site-packages")))
    return where / "bin"


def pass_to_pass_record(h, repo: Path, tid: str) -> tuple[int, dict]:
    """`harness evidence pass_to_pass` run for ``tid``: its exit code (0 passed, 1 failed; anything else fails the
    test) and the record it wrote, whose outcome agrees with the code."""
    r = h("evidence", "pass_to_pass")
    assert r.code in (0, 1), r.text
    rec = record(repo, tid, "pass_to_pass")
    assert (r.code == 0) == (rec["outcome"] == "passed"), r.text
    return r.code, rec
