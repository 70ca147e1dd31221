"""Extension modules and shared libraries compiled for a test: what the import system (and ctypes) loads with
dlopen, which opens no file an `open` audit hook sees (read 97's F-0330). A test needs a C compiler and Python's
headers (:data:`needs_compiler` skips it otherwise), and a temporary folder the system lets it load code from."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

import pytest

SUFFIX = sysconfig.get_config_var("EXT_SUFFIX") or ".so"


def _compiler() -> str | None:
    cc = shutil.which("gcc") or shutil.which("cc")
    return cc if cc and (Path(sysconfig.get_paths()["include"]) / "Python.h").is_file() else None


needs_compiler = pytest.mark.skipif(_compiler() is None, reason="a C compiler and Python.h are needed")


def _build(source: str, out: Path) -> Path:
    cc = _compiler()
    assert cc is not None
    with tempfile.TemporaryDirectory(prefix="ext-") as folder:
        c = Path(folder) / "module.c"
        c.write_text(source, "ascii")
        subprocess.run([cc, "-shared", "-fPIC", f"-I{sysconfig.get_paths()['include']}", str(c), "-o", str(out)],
                       check=True, capture_output=True)
    loads = subprocess.run([sys.executable, "-S", "-c", "import ctypes, sys; ctypes.CDLL(sys.argv[1])", str(out)],
                           capture_output=True)
    if loads.returncode != 0:  # a temporary folder mounted noexec: nothing could be shown here
        pytest.skip(f"this system loads no library from {out.parent}")
    return out


def extension(folder: Path, name: str, code: str, init: bool = False) -> Path:
    """An extension module ``name`` in ``folder`` (``init``: the `__init__` of the package ``folder``) whose
    initialisation runs the Python ``code`` (ASCII)."""
    leaf = name.rsplit(".", 1)[-1]
    source = ("#include <Python.h>\n"
              f'static struct PyModuleDef d = {{PyModuleDef_HEAD_INIT, "{name}", NULL, -1, NULL}};\n'
              f"PyMODINIT_FUNC PyInit_{leaf}(void) {{ PyRun_SimpleString({json.dumps(code)}); "
              "return PyModule_Create(&d); }\n")
    folder.mkdir(parents=True, exist_ok=True)
    return _build(source, folder / f"{'__init__' if init else leaf}{SUFFIX}")


def library(path: Path, mark: Path) -> Path:
    """A shared library at ``path`` whose loading (its constructor) creates the file ``mark``."""
    source = ("#include <stdio.h>\n"
              "__attribute__((constructor)) static void loaded(void) {\n"
              f"    FILE *f = fopen({json.dumps(str(mark))}, \"w\");\n"
              "    if (f) fclose(f);\n}\n")
    path.parent.mkdir(parents=True, exist_ok=True)
    _build(source, path)
    mark.unlink(missing_ok=True)  # made by the check that the library loads
    return path
