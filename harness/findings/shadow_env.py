"""A shadow of the project's virtual environment inside a throw-away checkout: every interpreter started from it,
whatever its flags, imports the checkout's code (F-0376).

Lent as a link (F-0350), the environment kept its own site-packages, whose editable install (a `.pth` line naming the
working tree, as `pip install -e .` writes it) puts the working tree's code on the import path. The checkout's code
came first only through PYTHONPATH (:func:`harness.evidence.tree_imports.worktree_env`), which an interpreter started
with -E or -I ignores — as this project's own git hooks start it (`python -E -P -m harness`) and as a reproducer may.
Such a run tested the working tree's code at the commit named: the commit before the fix was refused as holding it,
and with the bug put back in the working tree only, a fixed commit was taken. No variable of the run's environment
reaches that interpreter: only the environment's files decide its import path. So the checkout gets an environment
of its own at the same name, made from the real one:

- `pyvenv.cfg` copied (it makes the folder the interpreter's prefix, so its site folder is the shadow's), with a line
  naming the real environment (:data:`harness.evidence.import_probe.SHADOW_OF`): the import probe counts the real
  environment's files as the interpreter's own, as it did through the link;
- `bin/` (`Scripts/`): the interpreters recreated as the real ones are (links to the same base interpreter), each text
  file that names the real environment (a console script's `#!<real>/bin/python`, the activate scripts) copied with
  the shadow named instead, every other entry a link to the real one;
- each site folder (sysconfig's `lib/pythonX.Y/site-packages` for that layout): a path line to the real one — its
  packages import from there, and a path line adds a folder without reading the `.pth` files in it, so the real
  editable install is never read — and the real `.pth` files copied, each path line into the repository remapped to
  the checkout's counterpart (the editable install of `.` or of `packages/lib/src`) and read before the real
  site-packages line, so the checkout's folders come before it on the import path. Every other line is read after it,
  in its file's order, as in the real environment (an `import` line may import a module of the real site-packages);
  the shadow's interpreter writes no bytecode, which would land beside the real site-packages' modules. An entry of
  the real site folder that is a link into the repository (`flit install --symlink`) is linked to the checkout's
  counterpart in the shadow's folder, ahead of the real one (read 159's F-0555); one below a package folder is refused
  (read 160's F-0558); no other entry is linked there: an install in the checkout would write through it into the
  real environment (read 159's F-0556);
  An `import` line that refers to the repository (names a path inside it, or imports a module of the site-packages
  that does: an editable finder mapping a package into it) runs code that cannot be pointed at the checkout without
  guessing: the run is refused with the remedy;
- every other file a link to the real one (a relative link, `lib64 -> lib`, recreated as it is), and every other folder (`share/`, `include/`, `etc/`, where an installer puts data files and headers) the shadow's own and empty (read 160's F-0559).

The shadow is a real folder inside the checkout, removed with it. Nothing is written into the real environment: a
`pip install` in the checkout installs into the shadow. An environment without `pyvenv.cfg` (a `bin/python` link) or
without a site folder has no `.pth` its interpreter reads: it is lent as a link.
"""

from __future__ import annotations

import glob
import os
import re
import shutil
import sys
import sysconfig
from pathlib import Path

from harness.errors import HarnessError
from harness.evidence.finder_names import inside
from harness.evidence.import_probe import SHADOW_OF
from harness.evidence.tree_imports import REMEDY_EDITABLE

# An interpreter of the environment, as venv names it (`python`, `python3`, `python3.11`, `pythonw.exe`); not a
# console script whose name starts so (`python-argcomplete-check-easy-install-script`).
_INTERPRETER = re.compile(r"pythonw?(\d+(\.\d+)?)?(\.exe)?$", re.IGNORECASE)
_TEXT_READ = 1 << 20  # bytes of a program read to find the environment's path in it: scripts are far smaller
# `site` reads a site folder's `.pth` files in sorted order: the checkout's folders, then the real site-packages,
# then every other line of the real `.pth` files, each group in the real files' order.
_AHEAD, _REAL, _AFTER = "0-", "1-", "2-"
# Read before the first module of the real site-packages is imported: its bytecode would be written beside it, into
# the real environment. The checkout's is thrown away with it, and the standard library's is still read.
_NO_BYTECODE = "import sys; sys.dont_write_bytecode = True"


def shadowable(env: Path) -> bool:
    """Whether ``env`` is a virtual environment whose interpreter reads `.pth` files: a `pyvenv.cfg`, a site folder."""
    return (env / "pyvenv.cfg").is_file() and bool(site_folders(env))


def site_folders(env: Path) -> list[Path]:
    """The site folders of ``env`` (real paths inside it): sysconfig's purelib and platlib for its layout
    (`lib/pythonX.Y/site-packages`, `Lib/site-packages` on Windows), for any Python version."""
    real = os.path.realpath(env)
    scheme = "nt" if (env / "Scripts").is_dir() and not (env / "bin").is_dir() else "posix_prefix"
    base = glob.escape(real)
    found: list[str] = []
    for libdir in dict.fromkeys([sys.platlibdir, "lib"]):
        values = {"base": base, "platbase": base, "installed_base": base, "installed_platbase": base,
                  "py_version_short": "*", "py_version_nodot": "*", "abi_thread": "", "platlibdir": libdir}
        for key in ("purelib", "platlib"):
            found.extend(sorted(glob.glob(sysconfig.get_path(key, scheme, vars=values))))
    return [Path(p) for p in dict.fromkeys(os.path.realpath(f) for f in found) if os.path.isdir(p) and inside(p, real)]


def build(env: Path, shadow: Path, root: Path, checkout: Path) -> None:
    """``shadow``, the shadow of the virtual environment ``env`` of the repository ``root`` for its ``checkout``.
    Refused (HarnessError) before anything is written when a `.pth` line refers to the repository in a way that
    cannot be remapped."""
    real = Path(os.path.realpath(env))
    forms = list(dict.fromkeys([os.path.abspath(env), str(real)]))
    folders = site_folders(env)
    sites = {site: _site_files(site, root, checkout, real) for site in folders}
    links = {site: _repository_links(site, root, checkout, real) for site in folders}
    _Mirror(real, shadow, forms, sites, links).folder(real, shadow)


class _Mirror:
    """The shadow ``shadow`` of the real environment ``real`` (named by ``forms``), its site folders' files ``sites``."""

    def __init__(self, real: Path, shadow: Path, forms: list[str], sites: dict[Path, dict[str, list[str]]],
                 links: dict[Path, dict[str, Path]]) -> None:
        self.real, self.shadow, self.sites, self.links = real, shadow, sites, links
        alternatives = b"|".join(re.escape(os.fsencode(f)) for f in sorted(forms, key=len, reverse=True))
        self.named = re.compile(b"(?:" + alternatives + rb")(?![\w.-])")
        self.forms = forms

    def folder(self, src: Path, dst: Path) -> None:
        dst.mkdir()
        for entry in sorted(os.scandir(src), key=lambda e: e.name):
            path, into = Path(entry.path), dst / entry.name
            if entry.is_symlink():
                os.symlink(self.target(os.readlink(path)), into)
            elif path in self.sites:
                _write_site(into, self.sites[path])
                for name, target in self.links[path].items():  # ahead of the real folder's path line
                    os.symlink(target, into / name, target_is_directory=target.is_dir())
            elif entry.is_dir() and any(inside(str(site), str(path)) for site in self.sites):
                self.folder(path, into)
            elif src == self.real and entry.name in ("bin", "Scripts") and entry.is_dir():
                self.programs(path, into)
            elif src == self.real and entry.name == "pyvenv.cfg":
                text = path.read_bytes()
                into.write_bytes(text + (b"" if text.endswith(b"\n") or not text else b"\n")
                                 + os.fsencode(f"{SHADOW_OF} = {self.real}\n"))
            elif entry.is_dir():
                # an installer's data folder (share/, include/, etc/): the shadow's own and empty, so nothing an install
                # in the checkout writes there reaches the real environment (read 160's F-0559)
                into.mkdir()
            else:
                os.symlink(path, into)

    def programs(self, src: Path, dst: Path) -> None:
        """`bin/`: interpreters as the real ones are, scripts naming the environment renamed, the rest linked."""
        dst.mkdir()
        for entry in sorted(os.scandir(src), key=lambda e: e.name):
            path, into = Path(entry.path), dst / entry.name
            if entry.is_symlink():
                os.symlink(self.target(os.readlink(path)), into)
            elif _INTERPRETER.match(entry.name) and entry.is_file():
                shutil.copy2(path, into)  # a copied interpreter (`venv --copies`, Windows): it finds pyvenv.cfg beside it
            elif entry.is_file() and (text := self.renamed(path)) is not None:
                into.write_bytes(text)
                shutil.copymode(path, into)
            else:
                os.symlink(path, into, target_is_directory=entry.is_dir())

    def renamed(self, path: Path) -> bytes | None:
        """``path``'s bytes with the shadow named where they name the real environment; None for a binary or a file
        that does not name it (linked instead)."""
        try:
            with path.open("rb") as f:
                data = f.read(_TEXT_READ + 1)
        except OSError:
            return None
        if len(data) > _TEXT_READ or b"\0" in data or not self.named.search(data):
            return None
        return self.named.sub(os.fsencode(str(self.shadow)).replace(b"\\", b"\\\\"), data)

    def target(self, link: str) -> str:
        """A link's target in the shadow: the same, but the shadow's counterpart of one inside the real environment."""
        for form in self.forms:
            if os.path.isabs(link) and inside(link, form):
                return str(self.shadow / os.path.relpath(link, form))
        return link


def _write_site(folder: Path, files: dict[str, list[str]]) -> None:
    folder.mkdir()
    for name, lines in files.items():
        (folder / name).write_text("".join(f"{line}\n" for line in lines), "utf-8", errors="surrogateescape")


def _repository_links(site: Path, root: Path, checkout: Path, env: Path) -> dict[str, Path]:
    """Each entry of the real site folder ``site`` that is a link into the repository ``root`` (outside its
    environment ``env``: `flit install --symlink`, a hand-made link), name -> its counterpart in ``checkout``: put in
    the shadow's site folder, ahead of the real folder's path line, so the shadow imports the checkout's code, not the
    working tree's through the real link (read 159's F-0555). Only these are linked: a link to the real folder's own
    packages would let an install in the checkout write through it into the real environment (read 159's F-0556, of
    self-found 27's F-0548 fix, reverted). HarnessError when the checkout has no counterpart: the working tree's would
    be imported, and nothing stands in for it without guessing."""
    repo, out = os.path.realpath(root), {}
    for entry in sorted(os.scandir(site), key=lambda e: e.name):
        if not entry.is_symlink():
            continue
        target = os.path.realpath(entry.path)
        if not inside(target, repo) or inside(target, str(env)):
            continue
        counterpart = checkout / os.path.relpath(target, repo)
        if not os.path.lexists(counterpart):
            raise HarnessError(f"{entry.path} links into the repository ({target}), and the checkout has no "
                               f"{os.path.relpath(target, repo)}: an interpreter of the environment would import the "
                               "working tree's code there (nothing run, nothing recorded)", hint=REMEDY_EDITABLE)
        out[entry.name] = counterpart
    _refuse_nested_links(site, repo, env)
    return out


def _refuse_nested_links(folder: Path, repo: str, env: Path, top: bool = True) -> None:
    """Refuse (HarnessError) a link into the repository ``repo`` below the site folder's top (a package of a namespace
    package installed as a link: `acme/calc -> <repo>/acme/calc`, read 160's F-0558): the shadow reads that folder
    through the real one's path line, and standing the checkout's in for it would need the package's folders mirrored
    and guessed. A scan of the folder's entries, links not followed (a large environment's 25,000 in ~50 ms)."""
    for entry in os.scandir(folder):
        if entry.is_symlink():
            target = os.path.realpath(entry.path)
            if not top and inside(target, repo) and not inside(target, str(env)):
                raise HarnessError(f"{entry.path} links into the repository ({target}) inside a package folder: an "
                                   "interpreter of the environment would import the working tree's code there, and "
                                   "what stands in for it in the checkout cannot be told without guessing (nothing "
                                   "run, nothing recorded)", hint=REMEDY_EDITABLE)
        elif entry.is_dir(follow_symlinks=False):
            _refuse_nested_links(Path(entry.path), repo, env, top=False)


def _site_files(site: Path, root: Path, checkout: Path, env: Path) -> dict[str, list[str]]:
    """The `.pth` files of the shadow of the real site folder ``site`` (name -> lines): the real folder's path line,
    and each real `.pth` file's lines, those naming a folder of the repository (outside its environment ``env``)
    remapped into ``checkout`` and put first. HarnessError for an `import` line that refers to the repository."""
    files: dict[str, list[str]] = {f"{_REAL}site-packages.pth": [_NO_BYTECODE, str(site)]}
    repo = os.path.realpath(root)
    for name in sorted(os.listdir(site)):
        if not name.endswith(".pth") or name.startswith("."):
            continue
        ahead: list[str] = []
        after: list[str] = []
        for line in _read(site / name).splitlines():
            if line.startswith(("import ", "import\t")):
                _refuse_repository_import(line, site, name, root, env)
                after.append(line)
            elif line.strip() and not line.startswith("#"):
                folder = os.path.realpath(os.path.join(site, line.rstrip()))  # a relative line is the real folder's
                if inside(folder, repo) and not inside(folder, str(env)):
                    ahead.append(str(checkout / os.path.relpath(folder, repo)))
                else:
                    after.append(os.path.abspath(os.path.join(site, line.rstrip())))
        files |= {_AHEAD + name: ahead} if ahead else {}
        files |= {_AFTER + name: after} if after else {}
    return files


def _refuse_repository_import(line: str, site: Path, pth: str, root: Path, env: Path) -> None:
    """Refuse (HarnessError) the `import` line ``line`` of ``site``/``pth`` when it, or a module of ``site`` it imports
    (an editable finder: its mapping), names a path of the repository ``root`` outside its environment ``env``."""
    for module in _imported(line):
        source = next((s for s in (_read(site / f"{module}.py"), _read(site / module / "__init__.py")) if s), "")
        named_there = _repository_paths(source, root, env)
        if named_there:
            raise HarnessError(f"{site / pth}: its `import` line imports {module} of the environment's site-packages, "
                               f"which names {named_there[0]} in the repository's checkout: "
                               "in the throw-away checkout it would import the working tree's code, and where it "
                               "would point there cannot be told without guessing (nothing run, nothing recorded)",
                               hint=REMEDY_EDITABLE)
    named = _repository_paths(line, root, env)
    if named:
        raise HarnessError(f"{site / pth}: its `import` line names {named[0]} in the repository's checkout: in the "
                           "throw-away checkout it would import the working tree's code, and what it would do there "
                           "cannot be told without guessing (nothing run, nothing recorded)", hint=REMEDY_EDITABLE)


def _imported(line: str) -> list[str]:
    """The top-level names an `import` line of a `.pth` imports (`import a, b.c`, `__import__('d')`, `from e import`)."""
    found = [n for group in re.findall(r"\bimport\s+([\w.]+(?:\s*,\s*[\w.]+)*)", line) for n in group.split(",")]
    found += re.findall(r"__import__\(\s*['\"]([\w.]+)['\"]", line) + re.findall(r"\bfrom\s+([\w.]+)\s+import\b", line)
    return list(dict.fromkeys(n.strip().split(".")[0] for n in found if n.strip()))


def _repository_paths(text: str, root: Path, env: Path) -> list[str]:
    """The paths inside the repository ``root``, outside its environment ``env``, that ``text`` spells out."""
    forms = dict.fromkeys([os.path.abspath(root), os.path.realpath(root)])
    alternatives = "|".join(re.escape(f) for f in sorted(forms, key=len, reverse=True))
    spelled = re.findall(rf"(?:{alternatives})(?![\w.-])[^\s'\"(),;]*", text)
    return [p for p in spelled if not inside(os.path.realpath(p), str(env))]


def _read(path: Path) -> str:
    try:
        with path.open("rb") as f:
            return f.read(_TEXT_READ).decode("utf-8", errors="surrogateescape")
    except OSError:
        return ""
