"""One audit job's re-runs kept apart from each other, and each kept on its commit's own code.

Two things a re-run's verdict must not rest on:

- **Another re-run.** The re-runs of one CI job share its interpreter, user, PATH and HOME, one
  after the other. What the next one relies on is fingerprinted (:mod:`harness.history.rerun.fingerprint`)
  before the first run and after each; a run that changed it is reported as poisoning ("could not
  run", exit 2, naming the commit and the command), and nothing later in the job is run.
- **The repository's checkout.** An editable install, a `.pth` file or a symlink can point an
  interpreter at the checkout's code (:mod:`harness.history.rerun.python_site`). Each such folder is
  replaced on the import path, where it stood, by the re-run's own tree's (:mod:`harness.history.rerun.tree_site`;
  and a PATH folder of the checkout is swapped for the tree's); a name only the checkout's folder
  provides, still imported from there, is made absent until the tree provides it
  (:mod:`harness.history.rerun.absent_modules`); a package a finder maps to a folder of another name is imported
  from the tree's counterpart under its name (:mod:`harness.evidence.finder_names`); every interpreter the commands
  start is then asked where it finds the tree's top-level names and the names its finders map, and a name still found
  in the checkout is refused ("could not run", with the remedy). The interpreters are every Python on PATH and the
  commands' programs.
- **The repository's object store.** Before anything runs in a worktree, it is checked to hold
  exactly its commit's tree (:mod:`harness.gitio.checkout_check`): a re-run may have rewritten an
  object a later commit's checkout reads.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from harness import descendants, paths
from harness.errors import HarnessError
from harness.evidence import finder_names, tree_imports, tree_names
from harness.evidence.tree_imports import first_word  # shared with the local worktree runs
from harness.history.rerun import absent_modules, fingerprint, python_site, sealed, tree_site
from harness.history.rerun.fingerprint import Spots

if TYPE_CHECKING:
    from harness.gitio.git import Git

REMEDY_LEAK = ("run the audit with an interpreter that does not import the project from this checkout: install only "
               "its dependencies, or the project itself non-editable from the commit audited; or fan the re-run out "
               "with each job's checkout at its commit (docs/ci.md)")
REMEDY_COPY = ("install only the project's dependencies before `harness audit --rerun` (or install it editable: the "
               "re-run then imports each commit's own tree); or fan the re-run out with each job's checkout at its "
               "commit (docs/ci.md)")
UNWATCHED = ("this system offers no child subreaper (Linux's prctl): a process a re-run leaves running outside its "
             "process group (setsid, a double fork) is neither ended nor found when the run ends, only what it changes "
             "of what the job relies on; fan the re-run out, one job per commit on a fresh runner (docs/ci.md)")
EXPOSED = ("nothing on this system keeps a process from debugging another process of its user (Linux's Yama sets "
           "kernel.yama.ptrace_scope to 1 on Ubuntu and on GitHub's runners): the shell or runner that started the "
           "audit is no process of the audit's to seal, and a re-run could attach to it and change what it does "
           "with the verdict; run the audit where ptrace_scope is 1 or more, as root (docs/ci.md)")
# Imported before the first run: what the audit loads after a run comes from before any run could
# rewrite it (the harness's own files are fingerprinted too, so such a rewrite is also reported).
PRELOAD = ("harness.evidence.record", "harness.evidence.junit", "harness.evidence.pass_to_pass", "harness.core.cases", "harness.core.findings",
           "harness.core.suite", "harness.core.states", "harness.core.limits", "harness.history.stamp",
           "harness.history.rerun.base_suite")


class Job:
    """One audit job: its one guard, made by ``make`` when a re-run first needs it (a job that
    re-runs nothing probes and fingerprints nothing)."""

    def __init__(self, make: Callable[[], RerunGuard]) -> None:
        self.make = make
        self.guard: RerunGuard | None = None

    def get(self) -> RerunGuard:
        if self.guard is None:
            self.guard = self.make()
        return self.guard


def configured_programs(git: Git, commits: Sequence[str]) -> list[str]:
    """The programs of the evidence commands configured at any of ``commits``."""
    from harness.gitio.tree_source import TreeSource
    from harness.store import settings

    seen: set[str] = set()
    out: list[str] = []
    for commit in commits:
        src = TreeSource(git, git.commit_tree(commit), f"commit {commit[:12]}")
        oid = src.oid(paths.CONFIG)
        if oid is None or oid in seen:
            continue
        seen.add(oid)
        try:
            commands = settings.config_of(src).commands
        except HarnessError:
            continue
        out.extend(p for c in commands.values() if (p := first_word(c.to_run())))
    return out


class RerunGuard:
    """Made once per audit job, before its first re-run."""

    def __init__(self, git: Git, programs: Iterable[str] = (), environ: Mapping[str, str] | None = None,
                 poisoned: str | None = None) -> None:
        from harness.runner import clean_env

        self.git = git
        self.checkout = Path(git.root)
        self.environ = dict(clean_env() if environ is None else environ)
        self.pythons: dict[str, python_site.Python] = {}  # program -> what it says of itself
        self.groups: list[Spots] = []  # the job's, then each learned interpreter's: fingerprinted each on its own
        self.baseline: dict[str, fingerprint.Signature] | None = None
        self.poisoned = poisoned  # why nothing (more) runs in this job: then nothing is probed either
        self._tracked: dict[str, bool] = {}
        self._imports_from: dict[str, list[str]] = {}  # worktree -> the tree's folders put in the checkout's place
        self._left_running()  # what reaping runs before this job left is not this job's
        self.said: list[str] = []  # the notes said to this job, each once, in order (the --json document lists them)
        self.learn(programs)

    # -- what the re-runs rely on --------------------------------------------------------
    def learn(self, programs: Iterable[str]) -> None:
        """Probe the interpreters ``programs`` start that are not known yet, and fingerprint what they
        rely on (the first call: everything else the job relies on too). A poisoned job learns nothing: a probe
        starts the interpreter, which may be the checkout's own file (read 171's F-0580)."""
        from concurrent.futures import ThreadPoolExecutor

        if self.poisoned is not None:
            return

        fresh = [c for c in python_site.candidates(list(programs), self.environ, self.checkout)
                 if c not in self.pythons]
        with ThreadPoolExecutor(max_workers=4) as pool:  # every Python on PATH: each start waits on its own
            for program, described in zip(fresh, pool.map(self._probe, fresh)):
                if described is not None:
                    self.pythons[program] = described
        spots = interpreter_spots([self.pythons[c] for c in fresh if c in self.pythons])
        if self.baseline is None:
            _preload()
            spots.update(self._job_spots())
            self.groups, self.baseline = [spots], fingerprint.take_each([spots])
            return
        if not any(c in self.pythons for c in fresh):
            return
        # What the job relies on is compared first (a change since the last run was judged is poisoning, not taken
        # in), then fingerprinted again as every later fingerprint is, the new spots a group of their own: merged
        # into one fingerprint, a folder two names reach (/bin, /usr/bin) was named and signed otherwise than the
        # whole set names it (self-found 32's F-0576); taken whole, under one cap, a big environment learned later
        # pushed what was watched past it (read 170's F-0578).
        if self.left_behind("the interpreters a later commit's commands start were fingerprinted"):
            return
        self.groups.append(spots)
        self.baseline = fingerprint.take_each(self.groups)

    def notes(self) -> list[str]:
        """What the job cannot watch or protect here, each said once a job: where a process a run leaves outside its
        group cannot be found (F-0296), where a re-run could debug what started the audit (read 169), where the
        fingerprint stopped at its cap (read 170)."""
        now = [UNWATCHED if not descendants.available() else None,
               EXPOSED if sealed.ancestors_exposed() else None,
               _stopped() if self.baseline is not None and fingerprint.truncated(self.baseline) else None]
        fresh = [note for note in now if note is not None and note not in self.said]
        self.said.extend(fresh)
        return fresh

    def after(self, commit: str, what: str) -> list[str]:
        """What the run just made (``what`` at ``commit``) changed of what later runs rely on, and the processes
        it left running outside its process group (killed as it ended: F-0296)."""
        return self._changed(f"the re-run of {what} at {commit[:12]} changed what every later re-run relies on",
                             f"the re-run of {what} at {commit[:12]} left a process running outside its process group "
                             "(killed as the run ended)")

    def left_behind(self, before: str) -> list[str]:
        """What changed since the last run was judged, found ``before`` the audit's next step: no run was going,
        so a process an earlier one left did it (read 68's F-0230); and what a reaping run the guard did not judge
        (a PASS_TO_PASS run's) left running outside its group."""
        return self._changed(f"a process an earlier re-run left running changed what the audit relies on (found before "
                             f"{before})", f"a re-run left a process running outside its process group (killed as the "
                             f"run ended; found before {before})")

    def _changed(self, who: str, who_left: str) -> list[str]:
        assert self.baseline is not None
        left = [f"left running: {p}" for p in self._left_running()]
        found = [*left, *fingerprint.changes(self.baseline, fingerprint.take_each(self.groups))]
        if found and self.poisoned is None:
            more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
            self.poisoned = f"{who_left if left else who}: {found[0]}{more}"
        return found

    @staticmethod
    def _left_running() -> list[str]:
        """What reaping runs killed outside their group since last asked (harness.runner's record), taken."""
        from harness import context

        record = context.process().left_running
        taken, record[:] = list(record), []
        return taken

    def _probe(self, program: str) -> python_site.Python | None:
        own = os.path.abspath(sys.executable)
        if os.path.dirname(program) == os.path.dirname(own) and os.path.realpath(program) == os.path.realpath(own):
            return python_site.own_python()  # the harness's own interpreter (its bin/, its binary): asked in-process
        import tempfile

        from harness.evidence import import_probe
        from harness.history.rerun.execute import own_folders

        try:  # in an empty folder of the harness's, no code of the checkout running (read 89's F-0306)
            with own_folders(self.environ) as env, tempfile.TemporaryDirectory(prefix="harness-probe-") as cwd:
                said, _ = import_probe.ask(program, Path(cwd), env, python_site.PROBE, [], [self.checkout], REMEDY_LEAK)
            return python_site.describe(said) if isinstance(said, dict) else None
        except (HarnessError, ValueError, TypeError):
            return None

    def _job_spots(self) -> Spots:
        import tempfile

        import harness

        spots = interpreter_spots([python_site.own_python()])
        spots.walked.add(os.path.dirname(os.path.abspath(harness.__file__)))
        spots.listed.update(p for p in self.environ.get("PATH", "").split(os.pathsep) if p)
        spots.update(fingerprint.home_spots(self.environ.get("HOME")))
        spots.update(fingerprint.upward_spots(tempfile.gettempdir()))  # where the worktrees are made (F-0298)
        spots.update(fingerprint.git_spots(str(self.git.common_dir)))
        return spots

    # -- the commit's own code -------------------------------------------------------------
    def verified_env(self, worktree: Path, environ: Mapping[str, str]) -> dict[str, str]:
        """:meth:`tree_env`, once ``worktree`` is checked to hold exactly its commit's tree (an earlier
        run may have rewritten an object of the repository's store: HarnessError, a "could not run")."""
        self.git.verify_checkout(worktree)
        return self.tree_env(worktree, environ)

    def tree_env(self, worktree: Path, environ: Mapping[str, str]) -> dict[str, str]:
        """``environ`` for a run in ``worktree``, the repository's own code importing from the tree;
        HarnessError (a "could not run") when it cannot be made to."""
        import tempfile

        from harness.history.rerun.execute import TEMP_VARS

        env = dict(environ)
        env["PATH"] = self._path_in_tree(worktree, env.get("PATH", ""))
        # A bytecode cache folder of the worktree's own (removed with it; see fingerprint's docstring), and a temporary
        # folder: beside the worktree, above no other (read 86's F-0298; a command run there gets one of its own).
        env["PYTHONPYCACHEPREFIX"] = tempfile.mkdtemp(prefix=f"{worktree.name}.pycache-", dir=worktree.parent)
        env.update(dict.fromkeys(TEMP_VARS, tempfile.mkdtemp(prefix=f"{worktree.name}.tmp-", dir=worktree.parent)))
        leaking = {program: python_site.leaks(python_site.pointers(py.sites), self.checkout, worktree,
                                              lambda rel: self._owned(worktree, rel))
                   for program, py in self.pythons.items()}
        self._refuse_copies(worktree, [k.pointer for found in leaking.values() for k in found if k.pointer.kind == "copy"])
        leaking = {program: kept for program, found in leaking.items()
                   if (kept := [k for k in found if k.pointer.kind != "copy"])}
        by_name = self._mapped_names(worktree)
        if not leaking and not by_name:
            return env
        _refuse_renamed_links([k for found in leaking.values() for k in found])
        leaks = [k for found in leaking.values() for k in found if k.pointer.kind in ("path", "finder", "link")
                 and k.rel is not None]
        mapped = self._put_tree_in(worktree, env, leaks)
        # A package a finder maps to a folder of another name, imported from the tree's folder under its name, from
        # the stubs' folder, which stands ahead of the finder (read 97's F-0332).
        finder_names.link_renamed(stubs_folder(worktree), {n: w for m in by_name.values() for n, w in m.items()},
                                  self.checkout, worktree)
        rels = list(dict.fromkeys(k.rel for k in leaks if k.rel is not None))
        names = list(dict.fromkeys(n for folder in [*mapped, str(worktree), str(worktree / "src")]
                                   for n in python_site.importable(Path(folder))))
        # What only the checkout's folders hold, at any depth of a namespace package; past the listing's limits, refused
        # (the worktree runs' listing: read 89's F-0308, whose CI twin stopped three levels down and at 200 names).
        absent = [n for n in tree_names.lacking([worktree / r for r in rels], [self.checkout / r for r in rels],
                                                tree_names.Listings(), REMEDY_LEAK) if n not in names]
        absent += [n for m in by_name.values() for n in finder_names.missing(m, self.checkout, worktree)
                   if n not in absent]
        for program in dict.fromkeys([*leaking, *by_name]):
            self._hide_absent(program, worktree, env, absent)
        for program in dict.fromkeys([*leaking, *by_name]):
            self._refuse_outside(program, worktree, env, [*names, *absent, *by_name.get(program, {})],
                                 leaking.get(program, []))
        return env

    def _mapped_names(self, worktree: Path) -> dict[str, dict[str, str]]:
        """program -> the names its import finders map into the checkout's own code (tracked, or in the commit:
        an ignored folder is the environment, as for :func:`python_site.leaks`), name -> path (read 97's F-0332)."""
        root = os.path.realpath(self.checkout)
        out: dict[str, dict[str, str]] = {}
        for program, py in self.pythons.items():
            own = [p for p in (py.prefix, py.base_prefix) if not python_site.inside(root, os.path.realpath(p))]
            found = finder_names.mapped_into([list(n) for n in py.names], self.checkout, worktree, own)
            found = {n: w for n, w in found.items()
                     if self._owned(worktree, os.path.relpath(os.path.realpath(w), root).split(os.sep)[0])}
            if found:
                out[program] = found
        return out

    def _put_tree_in(self, worktree: Path, env: dict[str, str], leaks: list[python_site.Leak]) -> list[str]:
        """Put the tree's folder of each leak where the checkout's stood on the import path
        (:mod:`harness.history.rerun.tree_site`), behind the stubs of absent modules; the tree's folders put in."""
        stubs = str(stubs_folder(worktree))
        place: dict[str, list[str]] = {}
        early: list[str] = []
        last: list[str] = []
        mapped: list[str] = []
        for leak in leaks:
            assert leak.rel is not None
            folder = worktree / leak.rel
            ours = [stubs, *([str(folder)] if folder.is_dir() else [])]
            mapped.extend(ours[1:])
            if leak.pointer.kind == "path":  # where the .pth line put it
                place[os.path.realpath(self.checkout / leak.rel)] = ours
            else:  # a link (site-packages, a link tree): after the standard library; a finder's mapping: last
                (early if leak.pointer.kind == "link" else last).extend(ours)  # (a path a .pth's code
                # inserts stays: the tree is not put ahead of it, and that is refused below)
        sites = {os.path.realpath(s) for py in self.pythons.values() for s in py.sites}
        # Last, also for an interpreter the checkout's folder is not on (a script's other `python`): the
        # project's code it imports is the tree's, as the old PYTHONPATH made it, now behind the standard library.
        last = list(dict.fromkeys([*last, stubs, *mapped]))
        folder = tree_site.write(worktree.parent / f"{worktree.name}.site", place, sorted(sites),
                                 list(dict.fromkeys(early)), last)
        rest = env.get("PYTHONPATH")
        env["PYTHONPATH"] = os.pathsep.join([str(folder), *([rest] if rest else [])])
        mapped = list(dict.fromkeys(mapped))
        self._imports_from[str(worktree)] = mapped
        return mapped

    def imports_from(self, worktree: Path) -> list[str]:
        """The folders of ``worktree`` a run there imports the repository's code from instead of the
        checkout's (after the folder of absent-module stubs, when any was written); [] when none."""
        mapped = self._imports_from.get(str(worktree), [])
        stubs = stubs_folder(worktree)
        return [*([str(stubs)] if mapped and stubs.is_dir() and any(stubs.iterdir()) else []), *mapped]

    def release_built(self, worktree: Path) -> None:
        """Before each command: a stub of a module the tree now provides (the build generated it there,
        in place) is removed, and the tree's own module is imported."""
        mapped = self._imports_from.get(str(worktree), [])
        if mapped:
            absent_modules.release(stubs_folder(worktree), [Path(f) for f in mapped])

    def _hide_absent(self, program: str, worktree: Path, env: dict[str, str], absent: list[str]) -> None:
        """Of ``absent`` (names the checkout's leaking folders provide and the tree's do not), those
        ``program`` would import from the checkout are made absent for the run, as they are on a fresh
        runner at the commit: a stub of each, first on PYTHONPATH, raises ModuleNotFoundError."""
        leaked = python_site.outside(self._resolve(program, worktree, env, absent), self.checkout, worktree)
        if not leaked:
            return
        absent_modules.write(stubs_folder(worktree), leaked)

    def _refuse_outside(self, program: str, worktree: Path, env: dict[str, str], names: list[str],
                        leaks: list[python_site.Leak]) -> None:
        """Refuse when ``program`` still finds one of the tree's ``names`` in the checkout."""
        bad = python_site.outside(self._resolve(program, worktree, env, names, strict=True), self.checkout,
                                  worktree)
        if bad:
            name, where = next(iter(bad.items()))
            via = ", ".join(sorted({k.pointer.file for k in leaks})) or "an import finder of its environment"
            raise HarnessError(f"{program} imports `{name}` from {where}, in the repository's checkout, not from the "
                               f"re-run's tree (pointed there by {via}): the run would test the checkout's code, not "
                               "the commit's", hint=REMEDY_LEAK)

    def _resolve(self, program: str, worktree: Path, env: Mapping[str, str], names: list[str],
                 strict: bool = False) -> dict:
        """``strict``: the run's final environment, whose start-up may not run a file of the checkout."""
        return tree_imports.resolve(program, worktree, self.checkout, env, names, REMEDY_LEAK, strict=strict)

    def _refuse_copies(self, worktree: Path, copies: list[python_site.Pointer]) -> None:
        """A copy pip installed from the checkout is the checkout's commit: another commit may not use it."""
        if not copies:
            return
        head = self.git.head()
        here = self.git.run(["-C", str(worktree), "rev-parse", "HEAD"]).strip()
        if head is not None and self.git.source_tree(head) == self.git.source_tree(here):
            return
        where = copies[0].file
        raise HarnessError(f"the project is installed from this checkout ({where}): its code there is the checkout's "
                           f"commit ({(head or 'none')[:12]}), not {here[:12]}'s, and an import would load it",
                           hint=REMEDY_COPY)

    def _path_in_tree(self, worktree: Path, path: str) -> str:
        """PATH with each folder of the repository's own code in the checkout swapped for the tree's
        (dropped when the commit has none); an ignored folder there (`.venv/bin`) is kept."""
        root, tree = os.path.realpath(self.checkout), os.path.realpath(worktree)
        out = []
        for folder in path.split(os.pathsep):
            real = os.path.realpath(folder) if folder else folder
            inside = folder and python_site.inside(real, root) and not python_site.inside(real, tree)
            rel = os.path.relpath(real, root) if inside else ""
            if not inside or not self._owned(worktree, rel):
                out.append(folder)
            elif (worktree / rel).is_dir():
                out.append(str(worktree / rel) if rel != "." else str(worktree))
        return os.pathsep.join(out)

    def _owned(self, worktree: Path, rel: str) -> bool:
        """Whether ``rel`` (a path in the checkout) is the repository's code: in the commit, or
        tracked at the checkout's HEAD. ("" and "." are the root: always.)"""
        first = rel.split(os.sep)[0] if rel not in ("", ".") else ""
        if not first or (worktree / first).exists():
            return True
        if first not in self._tracked:
            head = self.git.head()
            self._tracked[first] = bool(head and self.git.run(["ls-tree", "--name-only", head, "--", first],
                                                              check=False).strip())
        return self._tracked[first]


def _stopped() -> str:
    return (f"the fingerprint of what the re-runs rely on stops at {fingerprint.ENTRY_CAP:,} entries of one "
            "interpreter's or the job's folders: what lies past them is not watched, and a re-run could change it "
            "unseen; fan the re-run out, one job per commit on a fresh runner (docs/ci.md)")


def stubs_folder(worktree: Path) -> Path:
    """The folder of the stubs of modules absent at ``worktree``'s commit (beside the worktree, removed with it)."""
    return worktree.parent / f"{worktree.name}.absent"


def _refuse_renamed_links(found: list[python_site.Leak]) -> None:
    """A link into the checkout under another name than its target's: no folder of the tree stands for it."""
    for leak in found:
        if leak.rel is None:
            raise HarnessError(f"{leak.pointer.file} links `{leak.pointer.linked}` to {leak.pointer.target}, in the "
                               "repository's checkout, under another name: the run would import the checkout's "
                               "code, not the commit's, and no folder of the re-run's tree stands for it",
                               hint=REMEDY_LEAK)


def _preload() -> None:
    import importlib

    for name in PRELOAD:
        try:
            importlib.import_module(name)
        except ImportError:
            pass


SITE_FOLDERS = ("site-packages", "dist-packages")


def interpreter_spots(pythons: Sequence[python_site.Python]) -> Spots:
    """What the interpreters ``pythons`` import and start from, to fingerprint."""
    spots = Spots()
    for py in pythons:
        spots.walked.update(py.sites)
        # The interpreter's own import folders (the standard library, lib-dynload, its zip), read in full as
        # site-packages is: a run that rewrites unittest/case.py decides every later one as a .pth would (read 134's
        # F-0474). A folder elsewhere is a source checkout installed editable, the project's own or another's.
        prefixes = [p.rstrip(os.sep) + os.sep for p in (py.prefix, py.base_prefix)]
        for folder in py.path:
            if folder.startswith(tuple(prefixes)) and not os.path.isdir(folder):
                spots.files.add(folder)
            elif folder.startswith(tuple(prefixes)):
                spots.walked.add(folder)
                # Another environment's packages kept below it (a base interpreter's own site-packages, which a
                # virtualenv does not import): fifty thousand files no run reads, by name only.
                spots.pruned.update(os.path.join(folder, n) for n in SITE_FOLDERS)
        for prefix in (py.prefix, py.base_prefix):  # the interpreter itself, its scripts: small files
            spots.listed.add(os.path.join(prefix, "bin"))
            spots.hashed.add(os.path.join(prefix, "bin"))
    return spots
