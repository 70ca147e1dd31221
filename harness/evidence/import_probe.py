"""Asking an interpreter where it imports from, with no code of the trees asked about running in it (read 89's F-0306).

Shared by the worktree runs of PASS_TO_PASS and FAIL_TO_PASS (:mod:`harness.evidence.tree_imports`) and CI's re-run
(:mod:`harness.history.rerun.isolation`). The answer decides what a run hides and refuses, so it must not come from
the code under test: an interpreter started as usual runs `site`, which imports a `sitecustomize` (or
`usercustomize`) from any folder on the import path — the checkout's src/, named by an editable install's `.pth` —
before the probe's first line, and that module could print the answer the harness read (F-0306). So:

- the interpreter starts with `-S`: `site` is not run, nothing but the standard library is imported;
- the probe's first statements drop the working directory from the import path and install an audit hook that
  refuses every file of the guarded folders (the repository's checkout, the worktree), outside the interpreter's own
  prefixes (a `.venv/` in the checkout is the environment), and notes it: a file opened (a module's source or
  bytecode, a zip archive on the import path, a `.pth`) and a library loaded with dlopen, which opens nothing the
  `open` event shows — an extension module (the `import` event names its file) or a library ctypes loads (read 97's
  F-0330: a `sitecustomize.<tag>.so` of the checkout's src/ ran in the probe and answered for it);
- only then is `site` run as at any start-up (`site.main()`: the site folders and their `.pth` files, the
  environment's sitecustomize and usercustomize), with the start-up modules decided by listing the import path's
  folders first: where the first to hold one, in any form (a module, a package, bytecode, an extension), is a guarded
  folder, it is not imported at all (as if absent) and is named in the answer — the hook refusing its file is the
  second wall, not the only one;
- the answer is written to a file the harness names and reads; what the interpreter prints is never read (a
  start-up module of the environment may print).

What is asked never imports a tree's package either: top-level names are looked up, not imported, and a dotted name
is asked only under namespace packages (the audit hook would refuse an `__init__.py` of the trees anyway).
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path

from harness import runner
from harness.errors import HarnessError

# The key of a shadow environment's `pyvenv.cfg` that names the real environment it is made from
# (:mod:`harness.findings.shadow_env`, F-0376): the shadow's interpreter imports the real one's packages, so its
# files are the interpreter's own, as they were when the environment was lent as a link. Only a folder that is a
# virtual environment itself is taken.
SHADOW_OF = "harness-shadow-of"

# Run first, before anything is imported; `_GUARDED` (real paths) and `_ANSWER` are set above it. The working
# directory (`-c` puts it first) would let a `json.py` of the folder the probe runs in answer for the standard
# library's. The interpreter's own folders are its prefixes and its virtualenv (`site` finds it as `_VENV` is found;
# under `-S` sys.prefix is still the base's); one that holds a guarded folder (a virtualenv made at the repository's
# root) is not the interpreter's alone.
START = """import sys
if sys.path and sys.path[0] == '':
    del sys.path[0]
import os
def _within(path, folder):
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)
_VENV = os.path.dirname(os.path.dirname(os.path.abspath(sys.executable)))
_VENV = [_VENV] if any(os.path.isfile(os.path.join(f, 'pyvenv.cfg')) for f in (_VENV, os.path.join(_VENV, 'bin'))) else []
def _shadowed(venv):
    try:
        with open(os.path.join(venv, 'pyvenv.cfg'), encoding='utf-8', errors='replace') as cfg:
            lines = cfg.read(65536).splitlines()
    except OSError:
        return []
    named = [line.partition('=')[2].strip() for line in lines if line.partition('=')[0].strip() == '@SHADOW_OF@']
    return [f for f in named if os.path.isabs(f) and os.path.isfile(os.path.join(f, 'pyvenv.cfg'))]
_VENV = _VENV + [f for v in _VENV for f in _shadowed(v)]
_OWN = {os.path.realpath(p) for p in (sys.prefix, sys.exec_prefix, sys.base_prefix, sys.base_exec_prefix, *_VENV)}
_OWN = [p for p in _OWN if not any(_within(g, p) for g in _GUARDED)]
_BLOCKED = []
def _refused(where):
    try:
        path = os.path.realpath(os.fsdecode(where))
    except (TypeError, ValueError, OSError):
        return
    if path != _ANSWER and any(_within(path, g) for g in _GUARDED) and not any(_within(path, p) for p in _OWN):
        _BLOCKED.append(path)
        raise PermissionError('not run while the harness asks where imports come from: ' + path)
def _guard(event, args):
    if event == 'open' and args and not isinstance(args[0], int):
        _refused(args[0])
    elif event == 'import' and len(args) > 1 and isinstance(args[1], (str, bytes)):
        _refused(args[1])
    elif event == 'ctypes.dlopen' and args and isinstance(args[0], (str, bytes)) and os.sep in os.fsdecode(args[0]):
        _refused(args[0])
sys.addaudithook(_guard)
from importlib.machinery import all_suffixes as _suffixes
def _startup_file(folder, name):
    forms = [name + s for s in _suffixes()]
    for init in [os.path.join(folder, name, '__init__' + s) for s in _suffixes()] + [os.path.join(folder, f) for f in forms]:
        if os.path.isfile(init):
            return init
    return None
class _StartupGuard:
    @classmethod
    def find_spec(cls, name, path=None, target=None):
        if path is not None or name not in ('sitecustomize', 'usercustomize'):
            return None
        for folder in sys.path:
            found = _startup_file(folder or os.getcwd(), name) if isinstance(folder, str) else None
            if found is not None:
                try:
                    _refused(found)
                except PermissionError:
                    raise ModuleNotFoundError('not run while the harness asks where imports come from', name=name)
                return None
        return None
sys.meta_path.insert(0, _StartupGuard)
import site
site.main()
sys.meta_path.remove(_StartupGuard)
""".replace("@SHADOW_OF@", SHADOW_OF)
FINISH = """
import json
with open(_ANSWER, 'w', encoding='utf-8') as _out:
    json.dump({'answer': answer, 'blocked': list(dict.fromkeys(_BLOCKED))}, _out)
"""

# What an interpreter says of itself: its prefixes, its site folders (as `site` computed them), its import path, the
# absolute paths its import finders name, and the names they map to them — each a value of a finder's module or of the
# finder itself: an editable install's finder maps each package to its folder, off the import path (setuptools'
# `MAPPING` and `NAMESPACES`, `editables`' redirections), and a package mapped to a folder of another name
# (`package-dir = {"calcpkg" = "src"}`) is known only by that name (read 97's F-0332). Run in the harness's own
# interpreter too, as it is (python_site.own_python): one reading for both.
DESCRIBE = """
def _paths(value):
    if isinstance(value, str):
        return [value] if value.startswith(os.sep) and len(value) < 4096 else []
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, (list, tuple, set, frozenset)):
        return [v for v in value if isinstance(v, str) and v.startswith(os.sep) and len(v) < 4096][:1000]
    return []
def _values(finder):
    module = sys.modules.get(getattr(finder, '__module__', None) or '')
    if module is None or module.__name__ in ('importlib._bootstrap', 'importlib._bootstrap_external',
                                             '_frozen_importlib', '_frozen_importlib_external', 'site'):
        return []
    try:
        own = list(vars(finder).values())
    except TypeError:
        own = []
    return list(vars(module).values()) + own
_values_all = [v for f in list(sys.meta_path) for v in _values(f)]
_mapped = [p for v in _values_all for p in _paths(v)]
_names = [[k, p] for v in _values_all if isinstance(v, dict) for k, w in list(v.items())[:1000]
          if isinstance(k, str) and 0 < len(k) < 256 for p in _paths(w)][:1000]
answer = {'executable': sys.executable, 'prefix': sys.prefix, 'base_prefix': sys.base_prefix,
          'site': site.getsitepackages() if hasattr(site, 'getsitepackages') else [],
          'user': site.getusersitepackages() if site.ENABLE_USER_SITE else None,
          'path': [p for p in sys.path if p], 'finders': list(dict.fromkeys(_mapped)), 'names': _names}
"""

# Where each name resolves, without importing it: the file (or a namespace package's first folder).
RESOLVE = """
import importlib.util
answer = {}
for name in sys.argv[1:]:
    try:
        spec = importlib.util.find_spec(name)
    except Exception:
        continue
    if spec is None:
        continue
    where = list(spec.submodule_search_locations or [])
    answer[name] = spec.origin if spec.has_location and spec.origin else (where[0] if where else None)
"""


def ask(program: str, cwd: Path, env: Mapping[str, str], body: str, args: Sequence[str], guarded: Sequence[Path],
        hint: str) -> tuple[object, list[str]]:
    """(what ``body`` leaves in `answer`, the files under ``guarded`` the interpreter tried to open and was refused)
    of ``program`` started in ``cwd`` with ``env`` and ``args``. HarnessError, with ``hint``, when it cannot say."""
    from harness.core.limits import decode_json

    with tempfile.TemporaryDirectory(prefix="harness-probe-") as folder:
        out = os.path.realpath(os.path.join(folder, "answer.json"))
        code = (f"_GUARDED = {sorted({os.path.realpath(g) for g in guarded})!r}\n_ANSWER = {out!r}\n"
                + START + body + FINISH)
        result = runner.run_command([program, "-S", "-c", code, *args], cwd=cwd, env=dict(env), timeout=60,
                                    echo=False)
        try:
            doc = decode_json(Path(out).read_text("utf-8")) if result.outcome == "passed" else None
        except (OSError, ValueError):
            doc = None
    if not isinstance(doc, dict) or "answer" not in doc or not isinstance(doc.get("blocked"), list):
        raise HarnessError(f"{program} could not say where it imports the tree's modules from "
                           f"({result.outcome}, exit {result.exit_code})", hint=hint)
    return doc["answer"], [str(p) for p in doc["blocked"]]
