"""PASS_TO_PASS's kept base result counts only for a run that would have measured the same thing (read 110's F-0389).

The base's cases are kept under the account's home and read by every later PASS_TO_PASS of that base. One run with a
`python` wrapper first on PATH (or a wrapper rewritten for one run, or a `.pth` added to the interpreter's environment
and removed) measured a base without the test it deselects; every later honest run read that result, so the test could
be deleted. Each such run now measures the base again, and the test command's run in the checkout is reused only when
the base was measured by the program that ran it.
"""

from __future__ import annotations

import os
import sys
import uuid
from pathlib import Path

import pytest

from support.gitrepo import commit_all_ok
from support.paths import PY
from support.protected_project import CALC, TESTS, protect, small_venv, write
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


def own_base(h, repo, kept, monkeypatch, python_bin: Path, command: list[str] = BY_NAME,
             files: dict[str, str] | None = None) -> str:
    """A protected project run by ``command`` (by default `python` from ``python_bin``, first on PATH), with a base
    tree no other test shares (so no other test's kept result is read, nor this one's by another); a task started on
    it."""
    from harness.evidence.pass_to_pass import kept_results
    from harness.gitio.git import Git

    monkeypatch.setenv("PATH", f"{python_bin}{os.pathsep}{os.environ['PATH']}")
    write(repo, {"calc.py": CALC, "tests/test_calc.py": TESTS, "tests/own.py": f"# {uuid.uuid4().hex}\n",
                 **(files or {})})
    protect(repo, command=command)
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
    tid = own_base(h, repo, kept, monkeypatch, small_venv(tmp_path / "venv"))
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


def test_the_test_run_is_reused_against_a_base_its_own_program_measured(h, repo, kept, monkeypatch, tmp_path):
    """Still allowed: the checkout's test run and the base's, by one program, are compared without a third run. The
    program is a virtualenv of the test's own: the suite's, which other tests' processes may write into while
    this one runs, is keyed too, and a key changed between the two runs rightly stops the reuse."""
    tid = own_base(h, repo, kept, monkeypatch, small_venv(tmp_path / "venv"))
    from support.protected_project import NO_CACHES, as_a_developer_runs

    as_a_developer_runs(monkeypatch)  # a run under a variable the clean run lacks is never reused (F-0391)
    write(repo, {"calc.py": CALC.replace("return a * b", "return b * a"), **NO_CACHES})
    h.ok("evidence", "unit_test")
    code, rec = p2p(h, repo, tid)
    assert code == 0 and rec["pass_to_pass"]["reused_run"] == record(repo, tid, "unit_test")["run_id"]


# -- F-0413: the interpreter a run really uses, when the command's first program is no Python --------------------

POISON = f"import os; os.environ['PYTEST_ADDOPTS'] = os.environ.get('PYTEST_ADDOPTS', '') + ' {DESELECT}'\n"
PYTEST_ARGS = ["-q", "-p", "no:cacheprovider", "--junitxml=.harness/local/junit.xml"]


def site_of(venv: Path) -> Path:
    return next(venv.glob("lib/python*/site-packages"))


def test_a_script_running_python_keeps_no_base_a_pth_poisoned(h, repo, kept, monkeypatch, tmp_path):
    """`sh run_tests.sh` (as `make test`, `tox`, a pyenv shim) starts the interpreter itself: nothing of it was keyed."""
    venv = tmp_path / "venv"
    script = {"run_tests.sh": f"exec python -m pytest {' '.join(PYTEST_ARGS)}\n"}
    tid = own_base(h, repo, kept, monkeypatch, small_venv(venv), ["sh", "run_tests.sh"], script)
    write(repo, {"calc.py": BROKEN, "tests/test_calc.py": WITHOUT_MUL})
    (site_of(venv) / "poison.pth").write_text(POISON)
    h("evidence", "pass_to_pass")  # the interpreter the script starts deselects test_mul in the base's run
    (site_of(venv) / "poison.pth").unlink()
    code, rec = p2p(h, repo, tid)
    assert code == 1 and lost(rec) == {"tests.test_calc::test_mul"}, rec["pass_to_pass"]


def measure(command: list[str] | str, environ: dict[str, str], root: Path, shell: bool = False):
    from harness.evidence.measured_with import measured_with

    return measured_with(command, shell, root, environ, lambda rel: None)


def script(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(0o755)
    return path


@pytest.mark.parametrize("case", ["make", "tox", "python wrapper", "shell list", "shell expansion", "env PATH",
                                  "not pytest", "long shebang"])
def test_a_run_whose_interpreter_cannot_be_told_keeps_nothing(tmp_path, case):
    """No key (nothing kept, nothing reused: the base is measured each time) when the interpreter that runs the tests
    is not the command's Python: another program starts it, or another one runs after it."""
    venv_bin = small_venv(tmp_path / "venv")
    env = {"PATH": f"{tmp_path / 'tools'}{os.pathsep}{venv_bin}{os.pathsep}/usr/bin:/bin", "HOME": str(tmp_path)}
    script(tmp_path / "tools" / "mk", "#!/bin/sh\nexec python -m pytest \"$@\"\n")
    script(tmp_path / "tools" / "tox", f"#!{venv_bin / 'python'}\nimport subprocess\n")  # a console script, no pytest
    script(tmp_path / "wrap" / "python", f"#!/bin/sh\nexec {venv_bin / 'python'} \"$@\"\n")
    script(tmp_path / "long" / "pytest", f"#!/bin/sh\n'''exec' {venv_bin / 'python'} \"$0\" \"$@\"\n' '''\n")
    command: list[str] | str = {
        "make": ["mk", *PYTEST_ARGS], "tox": ["tox", "-e", "py"],
        "python wrapper": [str(tmp_path / "wrap" / "python"), "-m", "pytest"],
        "shell list": "python -m pytest -q && python -m pytest -q -k mul",
        "shell expansion": "$HOME/venv/bin/python -m pytest -q",
        "env PATH": ["env", f"PATH={tmp_path / 'wrap'}", "python", "-m", "pytest"],
        "not pytest": ["python", "run_tests.py"], "long shebang": [str(tmp_path / "long" / "pytest")]}[case]
    assert measure(command, env, tmp_path, shell=isinstance(command, str)) is None


@pytest.mark.parametrize("case", ["python -m pytest", "console script", "timeout", "shell line"])
def test_a_run_by_the_commands_own_python_is_keyed_by_that_pythons_files(tmp_path, case):
    """A key holding the site folders of the interpreter that runs the tests (a `.pth` added there is another key):
    still allowed for `python -m pytest`, a `pytest` console script and a shell line; behind `timeout`, whose
    interpreter nothing keyed before, too."""
    venv_bin = small_venv(tmp_path / "venv")
    script(venv_bin / "pytest", f"#!{venv_bin / 'python'}\nfrom pytest import console_main\nconsole_main()\n")
    env = {"PATH": f"{venv_bin}{os.pathsep}/usr/bin:/bin", "HOME": str(tmp_path)}
    command: list[str] | str = {
        "python -m pytest": ["python", "-m", "pytest", *PYTEST_ARGS], "console script": ["pytest", *PYTEST_ARGS],
        "timeout": ["timeout", "600", "python", "-m", "pytest"], "shell line": "python -m pytest -q -k 'add or mul'"}[case]
    before = measure(command, env, tmp_path, shell=isinstance(command, str))
    assert before is not None and before == measure(command, env, tmp_path, shell=isinstance(command, str))
    (site_of(tmp_path / "venv") / "poison.pth").write_text(POISON)
    assert measure(command, env, tmp_path, shell=isinstance(command, str)).digest != before.digest


# -- F-0414: every pyvenv.cfg the interpreter reads, and the site folders it turns on ------------------------------

def user_site(base: Path) -> Path:
    return base / "lib" / f"python{sys.version_info[0]}.{sys.version_info[1]}" / "site-packages"


def test_a_pyvenv_cfg_beside_the_interpreter_for_one_run_poisons_no_later_run(h, repo, kept, monkeypatch, tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    venv = tmp_path / "venv"
    tid = own_base(h, repo, kept, monkeypatch, small_venv(venv))
    write(repo, {"calc.py": BROKEN, "tests/test_calc.py": WITHOUT_MUL})
    # site reads the pyvenv.cfg beside the interpreter first: this one turns the user site (under HOME) on
    cfg = (venv / "pyvenv.cfg").read_text().replace("include-system-site-packages = false",
                                                    "include-system-site-packages = true")
    (venv / "bin" / "pyvenv.cfg").write_text(cfg)
    user_site(home / ".local").mkdir(parents=True)
    (user_site(home / ".local") / "poison.pth").write_text(POISON)
    h("evidence", "pass_to_pass")  # the user site's .pth deselects test_mul in the base's run
    (venv / "bin" / "pyvenv.cfg").unlink()
    (user_site(home / ".local") / "poison.pth").unlink()
    code, rec = p2p(h, repo, tid)
    assert code == 1 and lost(rec) == {"tests.test_calc::test_mul"}, rec["pass_to_pass"]


def venv_env(tmp_path: Path, **extra: str) -> tuple[Path, dict[str, str]]:
    venv_bin = small_venv(tmp_path / "venv")
    (tmp_path / "home").mkdir()
    return venv_bin, {"PATH": f"{venv_bin}{os.pathsep}/usr/bin:/bin", "HOME": str(tmp_path / "home"), **extra}


def system_site(venv: Path, value: str | None) -> str:
    """``venv``'s pyvenv.cfg with include-system-site-packages set to ``value`` (None: the line left out)."""
    lines = (venv / "pyvenv.cfg").read_text().splitlines()
    return "".join(f"{line}\n" for line in lines if not line.startswith("include-system-site-packages")) + (
        "" if value is None else f"include-system-site-packages = {value}\n")


@pytest.mark.parametrize("case", ["beside, true", "above, no such line", "PYTHONUSERBASE"])
def test_a_user_site_the_interpreter_reads_is_in_the_key(tmp_path, case):
    """The user site (under HOME, or PYTHONUSERBASE) is keyed when a pyvenv.cfg turns system site-packages on: one
    beside the interpreter (read first), or one without the line (site's default is true); made later or not."""
    venv_bin, env = venv_env(tmp_path, **({"PYTHONUSERBASE": str(tmp_path / "ub")} if case == "PYTHONUSERBASE" else {}))
    venv = venv_bin.parent
    if case == "beside, true":
        (venv_bin / "pyvenv.cfg").write_text(system_site(venv, "true"))
    else:
        (venv / "pyvenv.cfg").write_text(system_site(venv, "true" if case == "PYTHONUSERBASE" else None))
    base = tmp_path / "ub" if case == "PYTHONUSERBASE" else tmp_path / "home" / ".local"
    command = ["python", "-m", "pytest"]
    first = measure(command, env, tmp_path)
    user_site(base).mkdir(parents=True)  # a user site made after the first measure
    made = measure(command, env, tmp_path)
    (user_site(base) / "poison.pth").write_text(POISON)
    poisoned = measure(command, env, tmp_path)
    assert first is not None and made is not None and poisoned is not None
    assert len({first.digest, made.digest, poisoned.digest}) == 3


def test_a_pyvenv_cfg_written_beside_the_interpreter_is_another_key(tmp_path):
    venv_bin, env = venv_env(tmp_path)
    first = measure(["python", "-m", "pytest"], env, tmp_path)
    (venv_bin / "pyvenv.cfg").write_text(system_site(venv_bin.parent, "false"))
    second = measure(["python", "-m", "pytest"], env, tmp_path)
    assert first is not None and second is not None and first.digest != second.digest


def test_a_venv_without_system_site_packages_does_not_key_the_user_site(tmp_path):
    """Still allowed: with include-system-site-packages = false (site turns the user site off), a file the user adds
    under ~/.local changes no key, and an unchanged venv measures to one key."""
    venv_bin, env = venv_env(tmp_path)
    first = measure(["python", "-m", "pytest"], env, tmp_path)
    assert first is not None and first == measure(["python", "-m", "pytest"], env, tmp_path)
    user_site(tmp_path / "home" / ".local").mkdir(parents=True)
    (user_site(tmp_path / "home" / ".local") / "other.pth").write_text("\n")
    assert measure(["python", "-m", "pytest"], env, tmp_path).digest == first.digest
