"""What pytest loads as it starts, from the tree, is the base's in PASS_TO_PASS (read 74): configuration in any
folder, a plugin the configuration names with `-p`, a module the change adds in place of an installed one or in a
`pythonpath` folder; and no bytecode cache the suite's run did not write shapes a run PASS_TO_PASS reuses."""

from __future__ import annotations

import os
import time

import pytest

from harness.core import suite

from support.gitrepo import git


@pytest.mark.parametrize("name", ["calc/pytest.ini", "pkg/.pytest.ini", "pkg/tox.ini", "pkg/setup.cfg",
                                  "packages/a/pyproject.toml", "pkg/pytest.toml"])
def test_a_pytest_configuration_in_any_folder_is_protected(name):
    # F-0265: pytest reads the configuration of the command's paths' common folder first.
    assert name in suite.protected([name], [], set())


def test_a_module_the_change_adds_in_place_of_an_installed_one_is_taken_out():
    # F-0260: pytest imports its installed plugins' modules as it starts; the tree's root comes first.
    added = {"_hypothesis_pytestplugin.py": "b", "calc.py": "b"}
    assert suite.changed_protected({"calc.py": "a"}, added, [], set(), frozenset({"_hypothesis_pytestplugin"})) == [
        "_hypothesis_pytestplugin.py"]


def test_a_module_the_change_adds_in_a_pythonpath_folder_is_judged_as_at_the_root():
    # F-0261: `pythonpath = src` puts src/ first on the import path before pytest imports pdb.
    current = {"src/pdb.py": "b", "src/calc.py": "b", "src/stats.py": "b"}
    assert suite.changed_protected({"src/calc.py": "a"}, current, [], set(), folders=["src"]) == ["src/pdb.py"]
    assert suite.changed_protected({"src/calc.py": "a"}, current, [], set()) == []  # src/ on no path: code


@pytest.mark.parametrize(("rel", "text"), [
    ("pyproject.toml", '[tool.pytest.ini_options]\naddopts = "-q -p calc_fixtures -p no:cacheprovider"\n'
                       'pythonpath = ["src"]\n'),
    ("pytest.ini", "[pytest]\naddopts = -pcalc_fixtures\npythonpath = src\n"),
    ("setup.cfg", "[tool:pytest]\naddopts =\n    -p calc_fixtures\npythonpath = src\n"),
    ("tox.ini", "[pytest]\naddopts = -p calc_fixtures\npythonpath = src\n"),
])
def test_the_plugins_and_folders_a_configuration_names_are_read(rel, text):
    # F-0264: `-p NAME` loads the module NAME at start-up, as a conftest.py is loaded.
    from harness.core import pytest_startup

    files, folders = pytest_startup.startup({rel: text})
    assert "calc_fixtures.py" in files and "src/calc_fixtures.py" in files and folders == ["src"]


@pytest.mark.parametrize("text", ["[pytest]\naddopts = -p no:cacheprovider\n", "[other]\naddopts = -p x\n",
                                  "not an ini file [", ""])
def test_a_configuration_naming_no_plugin_names_none(text):
    from harness.core import pytest_startup

    assert pytest_startup.startup({"pytest.ini": text}) == ([], [])


def _caches_repo(repo):
    (repo / ".gitignore").write_text("__pycache__/\n")
    (repo / "calc.py").write_text("X = 1\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "code")


def test_a_linked_cache_folder_or_a_tracked_cache_stops_reuse(repo, tmp_path):
    # F-0262: the walk did not follow a linked __pycache__, which the interpreter follows; F-0263: a tracked cache
    # survived the clearing, and a chmod after the run gave it a change time after the run's start.
    from harness.evidence import suite_caches
    from harness.gitio.process_git import ProcessGit

    _caches_repo(repo)
    since = time.time() - 60
    assert suite_caches.shaped_by(ProcessGit(repo), repo, [], since) is None
    (tmp_path / "forged").mkdir()
    os.symlink(tmp_path / "forged", repo / "__pycache__")
    assert suite_caches.shaped_by(ProcessGit(repo), repo, [], since) == "__pycache__"
    os.unlink(repo / "__pycache__")
    (repo / "__pycache__").mkdir()
    (repo / "__pycache__/calc.cpython-311.pyc").write_bytes(b"forged")
    git(repo, "add", "-f", "__pycache__/calc.cpython-311.pyc")
    assert suite_caches.shaped_by(ProcessGit(repo), repo, [], since) == "__pycache__/calc.cpython-311.pyc"
    suite_caches.clear(ProcessGit(repo), repo)
    assert (repo / "__pycache__/calc.cpython-311.pyc").exists()  # the project's own file: kept, and stops reuse


def test_the_base_s_configuration_decides_what_is_protected_as_a_plugin(repo):
    # F-0264 end to end through the adapter: the base's pyproject.toml names `-p calc_fixtures`; the module it loads
    # is protected, whatever the change does to the configuration.
    from harness.evidence.pass_to_pass import _startup
    from harness.gitio.git import Git

    (repo / "pyproject.toml").write_text('[tool.pytest.ini_options]\naddopts = "-p calc_fixtures"\npythonpath = ["src"]\n')
    (repo / "calc_fixtures.py").write_text("X = 1\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "a plugin the configuration loads")
    g = Git(repo)
    base = g.head()
    files, folders = _startup(g, base, g.files_of(g.source_tree(base)))[:2]
    assert "calc_fixtures.py" in files and folders == ["src"]


def test_a_root_org_package_copy_tries_as_pytest_starts_is_taken_out():
    # Read 76's F-0266: copy.py and pickle.py try `from org.python.core import …` when pytest is imported.
    assert suite.changed_protected({}, {"org/__init__.py": "b"}, [], set()) == ["org/__init__.py"]


def test_the_names_are_the_test_interpreter_s_whatever_runs_the_harness(tmp_path):
    # Read 76's F-0267: with the harness installed apart (pipx), its own interpreter's names missed the project's
    # plugins; the test command's interpreter is asked.
    import subprocess
    import sys

    from harness.evidence.runner_names import installed_names

    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(tmp_path / "venv")], check=True)
    python = tmp_path / "venv/bin/python"
    site = subprocess.run([str(python), "-c", "import site; print(site.getsitepackages()[0])"], check=True,
                          capture_output=True, text=True).stdout.strip()
    dist = os.path.join(site, "pytest_projx-1.0.dist-info")
    os.makedirs(dist)
    with open(os.path.join(dist, "METADATA"), "w") as fh:
        fh.write("Metadata-Version: 2.1\nName: pytest-projx\nVersion: 1.0\n")
    with open(os.path.join(dist, "top_level.txt"), "w") as fh:
        fh.write("pytest_projx\n")
    assert "pytest_projx" in installed_names([str(python), "-m", "pytest"], tmp_path)
    assert "pytest_projx" in installed_names(["venv/bin/python", "-m", "pytest"], tmp_path)  # relative to the tree


def test_pytest_toml_s_own_table_is_read():
    # Read 76's F-0268: pytest.toml keeps its settings in a top-level [pytest] table, not pyproject's.
    from harness.core import pytest_startup

    files, folders = pytest_startup.startup({"pytest.toml": '[pytest]\naddopts = ["-p", "qa_plugin"]\npythonpath = ["src"]\n'})
    assert "qa_plugin.py" in files and folders == ["src"]


def test_a_name_the_tree_itself_provides_is_the_project_s_code(tmp_path):
    # Read 79's F-0277 (its first part): the project installed editable made its own new module an "installed" name,
    # protected as a start-up hook.
    import subprocess
    import sys

    from harness.evidence.runner_names import installed_names

    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "mine.py").write_text("X = 1\n")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(tmp_path / "venv")], check=True)
    python = tmp_path / "venv/bin/python"
    site = subprocess.run([str(python), "-c", "import site; print(site.getsitepackages()[0])"], check=True,
                          capture_output=True, text=True).stdout.strip()
    for dist, top in (("mine-1.0.dist-info", "mine"), ("theirs-1.0.dist-info", "theirs")):
        os.makedirs(os.path.join(site, dist))
        with open(os.path.join(site, dist, "METADATA"), "w") as fh:
            fh.write(f"Metadata-Version: 2.1\nName: {top}\nVersion: 1.0\n")
        with open(os.path.join(site, dist, "top_level.txt"), "w") as fh:
            fh.write(f"{top}\n")
    with open(os.path.join(site, "theirs.py"), "w") as fh:
        fh.write("Y = 1\n")
    with open(os.path.join(site, "__editable__.mine-1.0.pth"), "w") as fh:
        fh.write(f"{tree}\n")
    names = installed_names([str(python), "-m", "pytest"], tree)
    assert "theirs" in names and "mine" not in names


def _tracked_and_ignored(repo, tracked: dict[str, str], ignored: dict[str, str | bytes], excludes: str) -> None:
    """``tracked`` committed; ``ignored`` written and git-ignored by ``excludes`` (`.git/info/exclude`)."""
    for rel, text in {**tracked, **ignored}.items():
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            (repo / rel).write_bytes(text)
        else:
            (repo / rel).write_text(text)
    (repo / ".git/info/exclude").write_text(excludes)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "code")
    assert not git(repo, "status", "--porcelain").stdout, "every file written is tracked or ignored"


# An ignored file Python imports in place of a tracked module or package of the same name, in any folder the run
# imports from (the root, src/, a pythonpath or conftest folder): what the run tested is not the source tree's.
SHADOWS = {
    "a package over a module": ({"calc.py": "X = 1\n"}, "calc/__init__.py", "calc/\n"),
    "an extension beside its module": ({"calc.py": "X = 1\n"}, "calc.cpython-311-x86_64-linux-gnu.so", "*.so\n"),
    "a Windows extension": ({"calc.py": "X = 1\n"}, "calc.pyd", "*.pyd\n"),
    "sourceless bytecode in src/": ({"calc.py": "X = 1\n"}, "src/calc.pyc", "*.pyc\n"),
    "a subpackage over a submodule": ({"src/calc/__init__.py": "", "src/calc/ops.py": "X = 1\n"},
                                      "src/calc/ops/__init__.py", "ops/\n"),
    "a regular package over a namespace package": ({"ns/mod.py": "X = 1\n"}, "ns/__init__.py", "__init__.py\n"),
    "a module over a conftest folder's helper": ({"tests/helpers.py": "X = 1\n"}, "helpers.py", "/helpers.py\n"),
    "a package named build over a module": ({"mypkg/__init__.py": "", "mypkg/build.py": "X = 1\n"},
                                            "mypkg/build/__init__.py", "build/\n"),
}


@pytest.mark.parametrize(("tracked", "shadow", "excludes"), list(SHADOWS.values()), ids=list(SHADOWS))
def test_an_ignored_module_in_place_of_a_tracked_one_stops_reuse(repo, tracked, shadow, excludes):
    # Read 115's F-0411: an ignored calc/__init__.py shadowed the tracked calc.py, and the run tested it.
    from harness.evidence import suite_caches
    from harness.gitio.process_git import ProcessGit

    _tracked_and_ignored(repo, tracked, {shadow: b"\x7fELF" if shadow.endswith((".so", ".pyd")) else "X = 2\n"},
                         excludes)
    assert suite_caches.shaped_by(ProcessGit(repo), repo, [], time.time() - 60) == shadow


def test_an_ordinary_project_s_ignored_files_leave_the_run_reusable(repo):
    # Read 115's F-0411's legitimate neighbour: what builds, virtualenvs, editable installs, tools and the run itself
    # leave, git-ignored, holds copies of the project's modules that no run imports from, or names none of them.
    from harness.evidence import suite_caches
    from harness.gitio.process_git import ProcessGit

    tracked = {"calc.py": "X = 1\n", "src/mypkg/__init__.py": "", "src/mypkg/ops.py": "X = 1\n",
               "tests/test_calc.py": "def test_x():\n    pass\n"}
    ignored = {"build/lib/calc.py": "X = 2\n", "build/lib/mypkg/__init__.py": "", "dist/calc-1.0.tar.gz": b"gz",
               ".venv/lib/python3.11/site-packages/calc.py": "X = 2\n", "venv/lib/python3.11/site-packages/ops.py": "",
               "src/mypkg.egg-info/top_level.txt": "mypkg\n", "src/mypkg.egg-info/SOURCES.txt": "src/mypkg/ops.py\n",
               ".pytest_cache/v/cache/nodeids": "[]", ".mypy_cache/3.11/calc.data.json": "{}",
               "node_modules/x/calc.py": "", ".tox/py311/lib/python3.11/site-packages/mypkg/__init__.py": "",
               "src/mypkg/_version.py": "version = '1.0'\n", "scratch.py": "print(1)\n", "notes.txt": "calc\n"}
    _tracked_and_ignored(repo, tracked, ignored, "build/\ndist/\n.venv/\nvenv/\n*.egg-info/\n.pytest_cache/\n"
                                                 ".mypy_cache/\nnode_modules/\n.tox/\n_version.py\n/scratch.py\nnotes.txt\n"
                                                 "__pycache__/\n")
    since = time.time() - 60
    for rel in ("__pycache__/calc.cpython-311.pyc", "src/mypkg/__pycache__/ops.cpython-311.pyc"):  # the run's own
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_bytes(b"cache")
    assert suite_caches.shaped_by(ProcessGit(repo), repo, [], since) is None


@pytest.mark.parametrize("folder", ["build", "dist", "venv", "site-packages", "node_modules"])
def test_the_caches_of_a_tracked_subpackage_named_like_a_build_are_cleared_and_checked(repo, folder):
    # Read 115's F-0412: the walk skipped every folder named build (dist, venv…) at any depth, so a forged cache of
    # the tracked mypkg/build/ops.py was neither cleared before the run nor counted as older than it.
    from harness.evidence import suite_caches
    from harness.gitio.process_git import ProcessGit

    _tracked_and_ignored(repo, {"mypkg/__init__.py": "", f"mypkg/{folder}/__init__.py": "",
                                f"mypkg/{folder}/ops.py": "X = 1\n"}, {}, "__pycache__/\n")
    forged = f"mypkg/{folder}/__pycache__/ops.cpython-311.pyc"
    (repo / forged).parent.mkdir()
    (repo / forged).write_bytes(b"forged")
    assert suite_caches.shaped_by(ProcessGit(repo), repo, [], time.time() + 60) == forged
    suite_caches.clear(ProcessGit(repo), repo)
    assert not (repo / forged).exists()


def test_the_caches_of_a_build_or_a_virtualenv_holding_no_tracked_code_are_left_alone(repo):
    # Read 115's F-0412's legitimate neighbour: a build's copy of the package and a virtualenv are not the project's
    # source; their caches are neither removed nor stop reuse.
    from harness.evidence import suite_caches
    from harness.gitio.process_git import ProcessGit

    theirs = ["build/lib/mypkg/__pycache__/ops.cpython-311.pyc", "mypkg/build/__pycache__/gen.cpython-311.pyc",
              ".venv/lib/python3.11/site-packages/__pycache__/six.cpython-311.pyc"]
    _tracked_and_ignored(repo, {"mypkg/__init__.py": "", "mypkg/ops.py": "X = 1\n"},
                         {rel: b"cache" for rel in theirs}, "build/\n.venv/\n__pycache__/\n")
    assert suite_caches.shaped_by(ProcessGit(repo), repo, [], time.time() + 60) is None
    suite_caches.clear(ProcessGit(repo), repo)
    assert all((repo / rel).exists() for rel in theirs)
