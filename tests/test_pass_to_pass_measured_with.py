"""PASS_TO_PASS's kept base result counts only for a run that would have measured the same thing (read 110's F-0389).

The base's cases are kept under the account's home and read by every later PASS_TO_PASS of that base. One run with a
`python` wrapper first on PATH (or a wrapper rewritten for one run, or a `.pth` added to the interpreter's environment
and removed) measured a base without the test it deselects; every later honest run read that result, so the test could
be deleted. Each such run now measures the base again, and the test command's run in the checkout is reused only when
the base was measured by the program that ran it.
"""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from support.gitrepo import commit_all_ok
from support.paths import PY
from support.protected_project import CALC, TESTS, protect, write
from support.records import record

# The configured command names its program by name: whichever `python` comes first on PATH runs it.
BY_NAME = ["python", "-m", "pytest", "-q", "-p", "no:cacheprovider", "--junitxml=.harness/local/junit.xml"]
# The weakening: mul() broken for the one case test_mul checks, and test_mul deleted (the plain run then passes).
BROKEN = CALC.replace("return a * b", "return 5 if (a, b) == (2, 3) else a * b")
WITHOUT_MUL = TESTS.replace("def test_mul():\n    assert mul(2, 3) == 6\n", "")
DESELECT = "--deselect tests/test_calc.py::test_mul"


def p2p(h, repo, tid) -> tuple[int, dict]:
    r = h("evidence", "pass_to_pass")
    assert r.code in (0, 1), r.text
    return r.code, record(repo, tid, "pass_to_pass")


def lost(rec: dict) -> set[str]:
    return {item["case"] for item in rec["pass_to_pass"]["lost"]}


def wrapper(folder: Path, extra: str = "") -> Path:
    """A `python` in ``folder`` that runs the test interpreter, with ``extra`` arguments after the caller's."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "python"
    path.write_text(f'#!/bin/sh\nexec {PY} "$@" {extra}\n')
    path.chmod(0o755)
    return path


@pytest.fixture
def kept(repo):
    """The kept base results this test's own base makes, removed after it (each test's base tree is its own)."""
    made: list[Path] = []
    yield made
    for folder in made:
        for path in folder.parent.glob(f"{folder.name}-*"):
            path.unlink()


def own_base(h, repo, kept, monkeypatch, python_bin: Path) -> str:
    """A protected project run by `python` from ``python_bin`` (first on PATH), with a base tree no other test shares
    (so no other test's kept result is read, nor this one's by another); a task started on it."""
    from harness.evidence.pass_to_pass import kept_results
    from harness.gitio.git import Git

    monkeypatch.setenv("PATH", f"{python_bin}{os.pathsep}{os.environ['PATH']}")
    write(repo, {"calc.py": CALC, "tests/test_calc.py": TESTS, "tests/own.py": f"# {uuid.uuid4().hex}\n"})
    protect(repo, command=BY_NAME)
    commit_all_ok(repo, "calc with tests")
    git = Git(repo)
    kept.append(kept_results(git, git.head() or "") / git.source_tree(git.head() or ""))
    return h.ok("task", "new", "Refactor calc").out.strip()


def test_a_base_measured_through_a_path_wrapper_is_not_read_by_a_later_run(h, repo, kept, monkeypatch, tmp_path):
    honest_path = os.environ["PATH"]
    tid = own_base(h, repo, kept, monkeypatch, Path(PY).parent)
    write(repo, {"calc.py": BROKEN, "tests/test_calc.py": WITHOUT_MUL})
    monkeypatch.setenv("PATH", f"{wrapper(tmp_path / 'bin', DESELECT).parent}{os.pathsep}{os.environ['PATH']}")
    h("evidence", "pass_to_pass")  # the wrapper measures the base without test_mul
    monkeypatch.setenv("PATH", f"{Path(PY).parent}{os.pathsep}{honest_path}")
    code, rec = p2p(h, repo, tid)
    assert code == 1 and lost(rec) == {"tests.test_calc::test_mul"}, rec["pass_to_pass"]
    assert rec["program"] == str(Path(PY).parent / "python")


def test_a_wrapper_rewritten_for_one_run_poisons_no_later_run(h, repo, kept, monkeypatch, tmp_path):
    tid = own_base(h, repo, kept, monkeypatch, wrapper(tmp_path / "bin").parent)
    write(repo, {"calc.py": BROKEN, "tests/test_calc.py": WITHOUT_MUL})
    wrapper(tmp_path / "bin", DESELECT)  # the same program, rewritten for one run
    h("evidence", "pass_to_pass")
    wrapper(tmp_path / "bin")  # and put back
    code, rec = p2p(h, repo, tid)
    assert code == 1 and lost(rec) == {"tests.test_calc::test_mul"}, rec["pass_to_pass"]


def small_venv(where: Path) -> Path:
    """A virtualenv whose site-packages names the test interpreter's (pytest imports from there); its bin/ folder."""
    subprocess.run([PY, "-m", "venv", "--without-pip", str(where)], check=True, capture_output=True)
    site = next(where.glob("lib/python*/site-packages"))
    (site / "borrowed.pth").write_text("".join(f"{p}\n" for p in sys.path if p.endswith("site-packages")))
    return where / "bin"


def test_a_pth_file_added_to_the_interpreter_for_one_run_poisons_no_later_run(h, repo, kept, monkeypatch, tmp_path):
    venv_bin = small_venv(tmp_path / "venv")
    tid = own_base(h, repo, kept, monkeypatch, venv_bin)
    write(repo, {"calc.py": BROKEN, "tests/test_calc.py": WITHOUT_MUL})
    poison = next((tmp_path / "venv").glob("lib/python*/site-packages")) / "poison.pth"
    poison.write_text(f"import os; os.environ['PYTEST_ADDOPTS'] = os.environ.get('PYTEST_ADDOPTS', '') + ' {DESELECT}'\n")
    h("evidence", "pass_to_pass")  # the interpreter's start-up deselects test_mul in the base's run
    poison.unlink()
    code, rec = p2p(h, repo, tid)
    assert code == 1 and lost(rec) == {"tests.test_calc::test_mul"}, rec["pass_to_pass"]


def test_an_unchanged_program_reads_its_kept_base_result(h, repo, kept, monkeypatch, tmp_path):
    """Still allowed: the same program and environment read the base's result kept by the first run."""
    tid = own_base(h, repo, kept, monkeypatch, wrapper(tmp_path / "bin").parent)
    write(repo, {"calc.py": BROKEN, "tests/test_calc.py": WITHOUT_MUL})
    assert lost(p2p(h, repo, tid)[1]) == {"tests.test_calc::test_mul"}
    results = [p for p in kept[0].parent.glob(f"{kept[0].name}-*.cases")]
    assert len(results) == 1
    before = results[0].stat().st_mtime_ns
    code, rec = p2p(h, repo, tid)
    assert code == 1 and lost(rec) == {"tests.test_calc::test_mul"}
    assert [p for p in kept[0].parent.glob(f"{kept[0].name}-*.cases")] == results
    assert results[0].stat().st_mtime_ns == before  # read, not measured again


def test_the_test_run_is_not_reused_against_a_base_another_program_measured(h, repo, kept, monkeypatch, tmp_path):
    honest = os.environ["PATH"]
    tid = own_base(h, repo, kept, monkeypatch, Path(PY).parent)
    write(repo, {"calc.py": CALC.replace("return a * b", "return b * a")})  # no protected file changed
    h.ok("evidence", "unit_test")
    bent = wrapper(tmp_path / "bin", DESELECT)
    monkeypatch.setenv("PATH", f"{bent.parent}{os.pathsep}{honest}")
    code, rec = p2p(h, repo, tid)
    # the base measured by the wrapper is compared with a run of the wrapper, which the record names
    assert rec["pass_to_pass"]["reused_run"] is None and rec["program"] == str(bent), rec["pass_to_pass"]


def test_the_test_run_is_reused_against_a_base_its_own_program_measured(h, repo, kept, monkeypatch):
    """Still allowed: the checkout's test run and the base's, by one program, are compared without a third run."""
    tid = own_base(h, repo, kept, monkeypatch, Path(PY).parent)
    from support.protected_project import NO_CACHES, as_a_developer_runs

    as_a_developer_runs(monkeypatch)  # a run under a variable the clean run lacks is never reused (F-0391)
    write(repo, {"calc.py": CALC.replace("return a * b", "return b * a"), **NO_CACHES})
    h.ok("evidence", "unit_test")
    code, rec = p2p(h, repo, tid)
    assert code == 0 and rec["pass_to_pass"]["reused_run"] == record(repo, tid, "unit_test")["run_id"]
