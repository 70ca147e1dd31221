"""The import probe (harness/evidence/import_probe.py) runs no code of the trees it guards, whatever loads it, and
says what an editable finder maps by name (read 97's F-0330, F-0332).

- F-0330: its audit hook refused every file *opened* in the checkout, but an extension module is loaded with dlopen,
  which opens nothing the hook sees: a `sitecustomize.<tag>.so` of the checkout's src/ ran inside the probe as `site`
  started, and could answer for it. Each loader is tried here: an extension (module or package), a sourceless
  `.pyc`, a package, a zip archive on the import path, a `.pth` living in the checkout, and a library an environment's
  `.pth` loads with ctypes; none runs, each is named as refused. The environment's own extension still runs.
- F-0332: the probe said which folders an editable finder maps, not which names: a package mapped to a folder of
  another name (`package-dir = {"calcpkg" = "src"}`) was never asked about. The names it maps are in its answer.

The probes are asked directly, of a bare virtualenv (no code of this suite in it).
"""

from __future__ import annotations

import os
import py_compile
import zipfile

import pytest

from harness.evidence import import_probe

from support.editable_project import finder
from support.extension import extension, library, needs_compiler
from support.rerun_range import needs_a_site_sitecustomize, venv

MARK = "open({mark!r}, 'w').close()\n"


@pytest.fixture
def trees(tmp_path):
    """(a bare interpreter, its site-packages, the checkout it must not run code of, the file a run of it makes)."""
    python, site = venv(tmp_path / "venv")
    checkout = tmp_path / "checkout"
    (checkout / "src").mkdir(parents=True)
    return python, site, checkout, tmp_path / "ran"


def ask(python, checkout, body=import_probe.RESOLVE, names=("sitecustomize",), path=()):
    env = {"PATH": os.environ["PATH"], "HOME": os.environ["HOME"],
           **({"PYTHONPATH": os.pathsep.join(str(p) for p in path)} if path else {})}
    return import_probe.ask(str(python), checkout, env, body, list(names), [checkout], "remedy")


def real(path) -> str:
    return os.path.realpath(path)


# -- F-0330: no loader runs a file of the guarded trees ----------------------------------------------------------

@needs_compiler
def test_f0330_an_extension_sitecustomize_of_the_checkout_does_not_run_in_the_probe(trees):
    python, _, checkout, mark = trees
    so = extension(checkout / "src", "sitecustomize", MARK.format(mark=str(mark)))
    found, blocked = ask(python, checkout, path=[checkout / "src"])
    assert not mark.exists(), "the checkout's extension module ran in the probe"
    assert real(so) in blocked, blocked
    assert found == {"sitecustomize": str(so)}, found  # where it would be imported from, found without running it


@needs_compiler
def test_f0330_an_extension_package_sitecustomize_of_the_checkout_does_not_run_in_the_probe(trees):
    python, _, checkout, mark = trees
    so = extension(checkout / "src" / "sitecustomize", "sitecustomize", MARK.format(mark=str(mark)), init=True)
    found, blocked = ask(python, checkout, path=[checkout / "src"])
    assert not mark.exists(), "the checkout's extension package ran in the probe"
    assert real(so) in blocked, blocked
    assert found == {"sitecustomize": str(so)}, found


@needs_compiler
def test_f0330_an_extension_module_of_the_checkout_an_environments_pth_imports_does_not_run(trees):
    """Not a start-up module, so no listing stands before it: the audit hook's `import` event, which names the
    extension's file before dlopen, refuses it."""
    python, site, checkout, mark = trees
    so = extension(checkout / "src", "calcext", MARK.format(mark=str(mark)))
    (site / "zz_calcext.pth").write_text("import calcext\n")
    _, blocked = ask(python, checkout, path=[checkout / "src"])
    assert not mark.exists(), "the checkout's extension module ran in the probe"
    assert real(so) in blocked, blocked


@needs_compiler
def test_f0330_a_library_an_environments_pth_loads_from_the_checkout_with_ctypes_is_refused(trees):
    python, site, checkout, mark = trees
    lib = library(checkout / "tools" / "libboot.so", mark)
    (site / "zz_boot.pth").write_text(f"import ctypes; ctypes.CDLL({str(lib)!r})\n")
    _, blocked = ask(python, checkout)
    assert not mark.exists(), "a library of the checkout was loaded in the probe"
    assert real(lib) in blocked, blocked


@pytest.mark.parametrize("form", ["package", "bytecode"])
def test_f0330_a_sitecustomize_of_the_checkout_in_any_form_does_not_run_in_the_probe(trees, form):
    python, _, checkout, mark = trees
    src = checkout / "src"
    if form == "package":
        (src / "sitecustomize").mkdir()
        (src / "sitecustomize" / "__init__.py").write_text(MARK.format(mark=str(mark)))
    else:  # sourceless: only the .pyc, where a source would be
        (src / "sc.py").write_text(MARK.format(mark=str(mark)))
        py_compile.compile(str(src / "sc.py"), cfile=str(src / "sitecustomize.pyc"))
        (src / "sc.py").unlink()
    found, blocked = ask(python, checkout, path=[src])
    assert not mark.exists(), f"the checkout's sitecustomize ({form}) ran in the probe"
    assert blocked and all(real(b).startswith(real(src)) for b in blocked), blocked
    assert found["sitecustomize"].startswith(str(src)), found


def test_f0330_a_zip_archive_of_the_checkout_on_the_import_path_is_never_read(trees):
    python, _, checkout, mark = trees
    archive = checkout / "src" / "bundle.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("sitecustomize.py", MARK.format(mark=str(mark)))
    _, blocked = ask(python, checkout, path=[archive])
    assert not mark.exists(), "a module of the checkout's zip archive ran in the probe"
    assert real(archive) in blocked, blocked


def test_f0330_a_pth_file_living_in_the_checkout_runs_no_import_line_in_the_probe(trees):
    """An environment that makes a checkout folder a site folder (`site.addsitedir`): its `.pth` files are read as
    `site` reads them, and their `import` lines run; the probe reads none of them."""
    python, site, checkout, mark = trees
    (site / "zz_addsite.pth").write_text(f"import site; site.addsitedir({str(checkout / 'src')!r})\n")
    (checkout / "src" / "evil.pth").write_text("import os; " + MARK.format(mark=str(mark)))
    _, blocked = ask(python, checkout)
    assert not mark.exists(), "an import line of a .pth in the checkout ran in the probe"
    assert real(checkout / "src" / "evil.pth") in blocked, blocked


@needs_compiler
@needs_a_site_sitecustomize
def test_f0330_the_environments_own_extension_sitecustomize_still_runs_in_the_probe(trees):
    """The honest neighbour: what the interpreter's own site-packages holds is the environment, run as at any
    start-up, extension modules included; nothing is refused."""
    python, site, checkout, mark = trees
    extension(site, "sitecustomize", MARK.format(mark=str(mark)))
    _, blocked = ask(python, checkout)
    assert mark.exists(), "the environment's own sitecustomize did not run"
    assert blocked == [], blocked


# -- F-0332: the names an editable finder maps -------------------------------------------------------------------

def test_f0332_the_probe_says_which_names_an_editable_finder_maps(trees):
    """setuptools' finder module keeps `MAPPING` (and `NAMESPACES`) as module dicts: name -> folder."""
    python, site, checkout, _ = trees
    finder(site, {"calcpkg": str(checkout / "src")}, namespaces={"acme": [str(checkout / "ns" / "acme")]})
    said, _ = ask(python, checkout, body=import_probe.DESCRIBE, names=())
    assert ["calcpkg", str(checkout / "src")] in said["names"], said
    assert ["acme", str(checkout / "ns" / "acme")] in said["names"], said


def test_f0332_the_probe_says_which_names_a_redirecting_finder_class_maps(trees):
    """`editables` keeps its redirections on the finder class itself (`RedirectingFinder._redirections`)."""
    python, site, checkout, _ = trees
    (site / "redirector_x.py").write_text(
        "import sys\nclass RedirectingFinder:\n    _redirections = {}\n"
        "    @classmethod\n    def find_spec(cls, name, path=None, target=None):\n        return None\n"
        "    @classmethod\n    def map_module(cls, name, where):\n        cls._redirections[name] = where\n"
        "sys.meta_path.append(RedirectingFinder)\n")
    (site / "_editable_impl_calcpkg.py").write_text(
        f"from redirector_x import RedirectingFinder\nRedirectingFinder.map_module('calcpkg', "
        f"{str(checkout / 'src' / '__init__.py')!r})\n")
    (site / "_editable_impl_calcpkg.pth").write_text("import _editable_impl_calcpkg\n")
    said, _ = ask(python, checkout, body=import_probe.DESCRIBE, names=())
    assert ["calcpkg", str(checkout / "src" / "__init__.py")] in said["names"], said


def test_f0332_a_finder_module_s_other_tables_name_nothing(trees):
    """The careful neighbour: a dict of the finder module that maps no name to a path (its `__builtins__`, a table of
    flags) gives no name."""
    python, site, checkout, _ = trees
    finder(site, {"calcpkg": str(checkout / "src")}, extra="FLAGS = {'strict': True, 'mode': 'lenient'}\n")
    said, _ = ask(python, checkout, body=import_probe.DESCRIBE, names=())
    assert [n for n, _ in said["names"]] == ["calcpkg"], said


# -- F-0376: a shadow of a virtual environment (harness/findings/shadow_env.py) -----------------------------------

@pytest.mark.parametrize("named", ["the real environment", "a folder of the checkout", "nothing"])
def test_f0376_a_shadow_environment_runs_the_real_ones_files_as_its_own_and_nothing_else(tmp_path, named):
    """A shadow's site folder names the real environment's site-packages (in the checkout, guarded) and runs its
    `.pth` import lines, as the real environment does at start-up: its `pyvenv.cfg` names the real environment, whose
    files are then the interpreter's own, as they were through a link. A folder that is not a virtual environment
    (the checkout's src/) is never taken for one: its files stay refused, as they are with no such line."""
    checkout = tmp_path / "checkout"
    (checkout / "src").mkdir(parents=True)
    _, real_site = venv(checkout / ".venv")
    mark = tmp_path / "ran"
    (real_site / "envhook.py").write_text(MARK.format(mark=str(mark)), "utf-8")
    shadow, site = venv(tmp_path / "shadow")
    (site / "1-site-packages.pth").write_text(f"{real_site}\n", "utf-8")
    (site / "2-hook.pth").write_text("import envhook\n", "utf-8")
    cfg = tmp_path / "shadow" / "pyvenv.cfg"
    target = {"the real environment": checkout / ".venv", "a folder of the checkout": checkout / "src"}.get(named)
    if target is not None:
        cfg.write_text(cfg.read_text("utf-8") + f"harness-shadow-of = {target}\n", "utf-8")
    _, blocked = ask(shadow, checkout)
    if named == "the real environment":
        assert mark.exists() and blocked == [], blocked
    else:
        assert not mark.exists() and real(real_site / "envhook.py") in blocked, blocked
