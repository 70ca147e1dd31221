"""A src/ layout project installed into an interpreter of its own, for the tests of what the PASS_TO_PASS and
FAIL_TO_PASS worktree runs import (read 85's F-0300, F-0301).

The interpreter is a bare virtualenv (`venv --without-pip`) that finds pytest through the suite's own site folders.
An install is written by hand, as the installers write it (no build backend, no network): an editable install of a
src/ layout is a `.pth` naming the checkout's src/ (pip's, hatchling's `dev-mode-dirs`), with the distribution's
metadata beside it (its `entry_points.txt` hands pytest the project's `pytest11` plugin); a non-editable one is a
copy of the package in site-packages.
"""

from __future__ import annotations

import shutil
import site
import subprocess
import sys
import textwrap
from pathlib import Path

from support.protected_project import protect, write

CALC = "def add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return a * b\n"
BROKEN = CALC.replace("return a * b", "return a + b")  # mul(2, 3) == 5
PLUGIN = '"""The project\'s pytest plugin."""\nimport pytest\n\n\n@pytest.fixture\ndef two():\n    return 2\n'
# The plugin rewritten to turn every failure into a pass.
ALL_PASS = PLUGIN + textwrap.dedent("""


    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(item, call):
        outcome = yield
        report = outcome.get_result()
        if report.failed:
            report.outcome, report.longrepr = "passed", None
    """)
TESTS = ("from calcpkg.calc import add, mul\n\n\ndef test_add(two):\n    assert add(two, 3) == 5\n\n\n"
         "def test_mul(two):\n    assert mul(two, 3) == 6\n")
WEAKENED = TESTS.replace("== 6", "== 5")
PYPROJECT = ('[project]\nname = "calcpkg"\nversion = "0.1"\n\n'
             '[project.entry-points.pytest11]\ncalc = "calcpkg.plugin"\n')
FILES = {"src/calcpkg/__init__.py": "", "src/calcpkg/calc.py": CALC, "src/calcpkg/plugin.py": PLUGIN,
         "tests/test_calc.py": TESTS, "pyproject.toml": PYPROJECT, ".gitignore": "__pycache__/\n.harness/local/\n"}


def interpreter(where: Path) -> tuple[Path, Path]:
    """A bare virtualenv that imports pytest from the suite's own site folders: (its python, its site-packages)."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(where)], check=True)
    python = where / "bin" / "python"
    folder = Path(subprocess.run([str(python), "-c", "import site; print(site.getsitepackages()[0])"], check=True,
                                 capture_output=True, text=True).stdout.strip())
    suite_sites = "".join(f"import site; site.addsitedir({s!r})\n" for s in site.getsitepackages())
    (folder / "zz-suite.pth").write_text(suite_sites)
    return python, folder


def distribution(folder: Path) -> None:
    """calcpkg's metadata in site-packages, its `pytest11` entry point naming `calcpkg.plugin`."""
    info = folder / "calcpkg-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: calcpkg\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[pytest11]\ncalc = calcpkg.plugin\n")


def editable(folder: Path, pth: str) -> None:
    """An editable install: the distribution and the `.pth` an installer writes (``pth``, its text)."""
    distribution(folder)
    (folder / "_calcpkg.pth").write_text(pth)


# An editable finder as setuptools writes one for a `package-dir` its `.pth` cannot express (`{"calcpkg" = "src"}`): a
# module a `.pth` imports, holding `MAPPING` (top-level name -> folder) and `NAMESPACES`, whose finder is asked after
# the import path (appended to sys.meta_path).
FINDER = '''import importlib.util, sys
MAPPING = {mapping!r}
NAMESPACES = {namespaces!r}
{extra}
class _EditableFinder:
    @classmethod
    def find_spec(cls, fullname, path=None, target=None):
        where = MAPPING.get(fullname)
        if where is None:
            return None
        if where.endswith(".py"):
            return importlib.util.spec_from_file_location(fullname, where)
        return importlib.util.spec_from_file_location(fullname, where + "/__init__.py",
                                                      submodule_search_locations=[where])
def install():
    if _EditableFinder not in sys.meta_path:
        sys.meta_path.append(_EditableFinder)
'''


def finder(folder: Path, mapping: dict[str, str], namespaces: dict[str, list[str]] | None = None,
           extra: str = "") -> None:
    """An editable install through a finder module (``mapping``: name -> folder or module file), as setuptools
    writes it into site-packages ``folder``."""
    (folder / "__editable___calcpkg_0_1_finder.py").write_text(
        FINDER.format(mapping=mapping, namespaces=namespaces or {}, extra=extra))
    (folder / "__editable__.calcpkg-0.1.pth").write_text(
        "import __editable___calcpkg_0_1_finder; __editable___calcpkg_0_1_finder.install()\n")


def copied(folder: Path, repo: Path) -> None:
    """A non-editable install: the distribution and a copy of the checkout's package."""
    distribution(folder)
    shutil.copytree(repo / "src" / "calcpkg", folder / "calcpkg")


def project(repo: Path, python: Path, files: dict[str, str | None] | None = None) -> None:
    """The project (``files`` over the src/ layout's; None: a file left out) written and protected, its tests run by
    ``python``."""
    merged = {**FILES, **(files or {})}
    write(repo, {rel: text for rel, text in merged.items() if text is not None})
    protect(repo, command=[str(python), "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "--junitxml=.harness/local/junit.xml"])


def moved(folder: str) -> dict[str, str | None]:
    """The package's files under ``folder`` instead of src/calcpkg (a flat layout: `calcpkg`)."""
    package = {rel: text for rel, text in FILES.items() if rel.startswith("src/calcpkg/")}
    return {**{rel: None for rel in package}, **{rel.replace("src/calcpkg", folder, 1): text for rel, text in package.items()}}
