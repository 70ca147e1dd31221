"""CI's interpreter and a range of DONE commits, for the tests of `harness audit --rerun`'s isolation.

Interpreters are bare virtualenvs (`venv --without-pip`, ~0.1 s) a test may write into; commits are
tasks taken to DONE on the configured build and unit_test (forged, when the run failed).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from support.cli import TO_VERIFYING, walk_to
from support.flows import gate_to_converged
from support.gitrepo import commit_all_ok
from support.records import forge_passing

PY = sys.executable


def _interpreters_own_sitecustomize() -> str | None:
    """The sitecustomize in the interpreter's own import folders (Debian's python ships one in /usr/lib/python3.X),
    found before any site-packages: a virtualenv's, a project's src/ on a .pth, never runs at start-up beside it."""
    from importlib.machinery import PathFinder

    own = [p for p in sys.path if p.startswith(sys.base_prefix) and not p.endswith(("site-packages", "dist-packages"))]
    spec = PathFinder.find_spec("sitecustomize", own)
    return spec.origin if spec is not None else None


# A test whose premise is a sitecustomize an environment or a project holds running at start-up: on an interpreter
# with a sitecustomize of its own (Debian's), there is no such thing to stage.
needs_a_site_sitecustomize = pytest.mark.skipif(
    _interpreters_own_sitecustomize() is not None,
    reason=f"this interpreter's own sitecustomize ({_interpreters_own_sitecustomize()}) runs instead of any other")
# What a poisoner leaves in CI's interpreter: every exit of every later Python becomes a pass.
EVERY_EXIT_PASSES = "import atexit, os\natexit.register(lambda: os._exit(0))\n"
FAILS = "import sys\nsys.exit(1)\n"


def venv(where: Path) -> tuple[Path, Path]:
    """A bare virtualenv, CI's interpreter for one test: (its python, its site-packages)."""
    subprocess.run([PY, "-m", "venv", "--without-pip", str(where)], check=True)
    python = where / "bin" / "python"
    site = subprocess.run([str(python), "-c", "import site; print(site.getsitepackages()[0])"], check=True,
                          capture_output=True, text=True).stdout.strip()
    return python, Path(site)


def writes(path: Path, text: str) -> str:
    """A Python script that writes ``text`` into ``path`` and passes: an honest-looking check."""
    return f"from pathlib import Path\nPath({str(path)!r}).write_text({text!r})\n"


def done(h, repo: Path, title: str, forge: bool = False, after_build=None, after_unit_test=None) -> str:
    """A task taken to DONE on the configured build and unit_test, committed; ``forge``: the unit_test
    run failed and its record is rewritten as passed. ``after_*``: what the laptop does after that run."""
    tid = h.ok("task", "new", title).out.strip()
    h.ok("requirement", "add", "It works", "--priority", "must")
    walk_to(h, *TO_VERIFYING)
    h.ok("evidence", "build")
    if after_build:
        after_build()
    r = h("evidence", "unit_test")
    if after_unit_test:
        after_unit_test()
    assert r.code == (1 if forge else 0), r.text
    if forge:
        forge_passing(repo, tid, "unit_test")
        h.ok("replay", "--write")
    h.ok("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "unit_test")
    gate_to_converged(h)
    h.ok("transition", "DONE")
    return commit_all_ok(repo, title)


def rerun(h, base: str, *extra: str) -> tuple[int, dict, str]:
    r = h("audit", "--json", "--rerun", "--from", base, "--to", "HEAD", *extra)
    return r.code, json.loads(r.out), r.err


def reruns(doc: dict, commit: str) -> dict[str, dict]:
    (row,) = [r for r in doc["results"] if r["commit"] == commit]
    return {r["what"]: r for r in row["reruns"]}


PKG = "src/calcpkg/__init__.py"
CHECK = "import calcpkg, sys; sys.exit(calcpkg.answer() != 42)"


def answer(repo: Path, value: int) -> None:
    (repo / PKG).parent.mkdir(parents=True, exist_ok=True)
    (repo / PKG).write_text(f"def answer():\n    return {value}\n")


def editable(tmp_path: Path, repo: Path, pth: str | None = None) -> Path:
    """CI's interpreter with the project installed editable, as `pip install -e .` does for a src/
    layout: a .pth naming the checkout's src/. Returns the interpreter."""
    python, site = venv(tmp_path / "ci-venv")
    (site / "__editable__.calcpkg-0.1.pth").write_text(pth or f"{repo / 'src'}\n")
    return python


# A conftest.py that turns every failed test report into a pass: what a poisoner writes above the worktrees.
PASSES_EVERY_FAILURE = """import pytest


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    report = (yield).get_result()
    if report.failed:
        report.outcome, report.longrepr = "passed", None
"""
