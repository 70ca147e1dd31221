"""One audit job's re-runs kept apart from each other, and each kept on its commit's own code.

Two things a re-run's verdict must not rest on:

- **Another re-run.** The re-runs of one CI job share its interpreter, user, PATH and HOME, one
  after the other. What the next one relies on is fingerprinted (:mod:`harness.guard.fingerprint`)
  before the first run and after each; a run that changed it is reported as poisoning ("could not
  run", exit 2, naming the commit and the command), and nothing later in the job is run.
- **The repository's checkout.** An editable install or a `.pth` file can point an interpreter at
  the checkout's code (:mod:`harness.guard.python_site`). Each such folder is put first on the run's
  PYTHONPATH from the re-run's own tree (and a PATH folder of the checkout is swapped for the
  tree's); every interpreter the commands start is then asked where it finds the tree's top-level
  names, and a name still found in the checkout is refused ("could not run", with the remedy).
"""

from __future__ import annotations

import contextlib
import os
import shlex
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from harness import context, runner
from harness.errors import HarnessError
from harness.guard import fingerprint, python_site
from harness.guard.fingerprint import Spots

if TYPE_CHECKING:
    from harness.gitio.git import Git

REMEDY_LEAK = ("run the audit with an interpreter that does not import the project from this checkout: install only "
               "its dependencies, or the project itself non-editable from the commit audited; or fan the re-run out "
               "with each job's checkout at its commit (docs/ci.md)")
REMEDY_COPY = ("install only the project's dependencies before `harness audit --rerun` (or install it editable: the "
               "re-run then imports each commit's own tree); or fan the re-run out with each job's checkout at its "
               "commit (docs/ci.md)")
# Imported before the first run: what the audit loads after a run comes from before any run could
# rewrite it (the harness's own files are fingerprinted too, so such a rewrite is also reported).
PRELOAD = ("harness.evidence", "harness.junit", "harness.pass_to_pass", "harness.core.cases", "harness.core.findings",
           "harness.core.suite", "harness.core.states", "harness.core.limits", "harness.guard.stamp",
           "harness.guard.rerun_suite")


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

    @contextlib.contextmanager
    def current(self) -> Iterator[Job]:
        """Within this block, :func:`job_guard` is this job's guard."""
        ctx = context.current()
        before, ctx.rerun_job = ctx.rerun_job, self
        try:
            yield self
        finally:
            ctx.rerun_job = before


def job_guard(git: Git) -> RerunGuard:
    """The guard of the audit job running now (:meth:`Job.current`), or one for a lone re-run."""
    job = context.current().rerun_job
    return job.get() if job is not None else RerunGuard(git)


def program_of(command: list[str] | str, shell: bool) -> str | None:
    """The program a command starts (a shell string's first word, when it splits)."""
    if isinstance(command, list):
        return command[0] if command else None
    try:
        words = shlex.split(command)
    except ValueError:
        return None
    words = [w for w in words if "=" not in w.split("/")[0]]  # VAR=value before the program
    return words[0] if words else None


def configured_programs(git: Git, commits: Sequence[str]) -> list[str]:
    """The programs of the evidence commands configured at any of ``commits``."""
    from harness.gitio.tree_source import TreeSource
    from harness.store import settings

    seen: set[str] = set()
    out: list[str] = []
    for commit in commits:
        src = TreeSource(git, git.commit_tree(commit), f"commit {commit[:12]}")
        oid = src.oid(".harness/config.yaml")
        if oid is None or oid in seen:
            continue
        seen.add(oid)
        try:
            commands = settings.config_of(src).commands
        except HarnessError:
            continue
        out.extend(p for c in commands.values() if (p := program_of(c.to_run(), c.shell)))
    return out


class RerunGuard:
    """Made once per audit job, before its first re-run."""

    def __init__(self, git: Git, programs: Iterable[str] = (), environ: Mapping[str, str] | None = None) -> None:
        from harness.guard.rerun import clean_env

        self.git = git
        self.checkout = Path(git.root)
        self.environ = dict(clean_env() if environ is None else environ)
        self.pythons: dict[str, python_site.Python] = {}  # program -> what it says of itself
        self.spots = Spots()
        self.baseline: dict[str, fingerprint.Signature] | None = None
        self.poisoned: str | None = None  # why nothing more runs in this job
        self._tracked: dict[str, bool] = {}
        self.learn(programs)

    # -- what the re-runs rely on --------------------------------------------------------
    def learn(self, programs: Iterable[str]) -> None:
        """Probe the interpreters ``programs`` start that are not known yet, and fingerprint what they
        rely on (the first call: everything else the job relies on too)."""
        fresh = [c for c in python_site.candidates(list(programs), self.environ, self.checkout)
                 if c not in self.pythons]
        for program in fresh:
            described = self._probe(program)
            if described is not None:
                self.pythons[program] = described
        spots = self._python_spots([self.pythons[c] for c in fresh if c in self.pythons])
        if self.baseline is None:
            _preload()
            spots.update(self._job_spots())
            self.spots, self.baseline = spots, fingerprint.take(spots)
            return
        self.baseline.update({k: v for k, v in fingerprint.take(spots).items() if k not in self.baseline})
        self.spots.update(spots)

    def after(self, commit: str, what: str) -> list[str]:
        """What the run just made (``what`` at ``commit``) changed of what later runs rely on."""
        assert self.baseline is not None
        found = fingerprint.changes(self.baseline, fingerprint.take(self.spots))
        if found and self.poisoned is None:
            more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
            self.poisoned = (f"the re-run of {what} at {commit[:12]} changed what every later re-run relies on: "
                             f"{found[0]}{more}")
        return found

    def _probe(self, program: str) -> python_site.Python | None:
        from harness.core.limits import decode_json

        own = os.path.abspath(sys.executable)
        if os.path.dirname(program) == os.path.dirname(own) and os.path.realpath(program) == os.path.realpath(own):
            return python_site.own_python()  # the harness's own interpreter (its bin/, its binary): asked in-process
        try:
            result = runner.run_command([program, "-c", python_site.PROBE], cwd=self.checkout, env=self.environ,
                                        timeout=60, echo=False)
            if result.outcome != "passed":
                return None
            return python_site.describe(decode_json(_last_line(result)))
        except (HarnessError, ValueError, TypeError):
            return None

    def _python_spots(self, pythons: Sequence[python_site.Python]) -> Spots:
        spots = Spots()
        for py in pythons:
            spots.walked.update(py.sites)
            # The interpreter's own import folders (the standard library, lib-dynload, its zip): a
            # folder elsewhere is a source checkout installed editable, the project's own or another's.
            prefixes = [p.rstrip(os.sep) + os.sep for p in (py.prefix, py.base_prefix)]
            for folder in py.path:
                if folder.startswith(tuple(prefixes)):
                    (spots.listed if os.path.isdir(folder) else spots.files).add(folder)
            for prefix in (py.prefix, py.base_prefix):  # the interpreter itself, its scripts: small files
                spots.listed.add(os.path.join(prefix, "bin"))
                spots.hashed.add(os.path.join(prefix, "bin"))
        return spots

    def _job_spots(self) -> Spots:
        import harness

        spots = self._python_spots([python_site.own_python()])
        spots.walked.add(os.path.dirname(os.path.abspath(harness.__file__)))
        spots.listed.update(p for p in self.environ.get("PATH", "").split(os.pathsep) if p)
        spots.update(fingerprint.home_spots(self.environ.get("HOME")))
        spots.update(fingerprint.git_spots(str(self.git.common_dir)))
        return spots

    # -- the commit's own code -------------------------------------------------------------
    def tree_env(self, worktree: Path, environ: Mapping[str, str]) -> dict[str, str]:
        """``environ`` for a run in ``worktree``, the repository's own code importing from the tree;
        HarnessError (a "could not run") when it cannot be made to."""
        env = dict(environ)
        env["PATH"] = self._path_in_tree(worktree, env.get("PATH", ""))
        leaking = {program: python_site.leaks(python_site.pointers(py.sites), self.checkout, worktree,
                                              lambda rel: self._owned(worktree, rel))
                   for program, py in self.pythons.items()}
        self._refuse_copies(worktree, [k.pointer for found in leaking.values() for k in found if k.pointer.kind == "copy"])
        leaking = {program: kept for program, found in leaking.items()
                   if (kept := [k for k in found if k.pointer.kind != "copy"])}
        if not leaking:
            return env
        rels = dict.fromkeys(k.rel for found in leaking.values() for k in found if k.pointer.kind in ("path", "finder"))
        mapped = [str(worktree / rel) if rel else str(worktree) for rel in rels if (worktree / rel).is_dir()]
        if mapped:
            rest = env.get("PYTHONPATH")
            env["PYTHONPATH"] = os.pathsep.join([*mapped, *([rest] if rest else [])])
        names = list(dict.fromkeys(n for folder in [*mapped, str(worktree), str(worktree / "src")]
                                   for n in python_site.importable(Path(folder))))
        for program, found in leaking.items():
            self._refuse_outside(program, worktree, env, names, found)
        return env

    def _refuse_outside(self, program: str, worktree: Path, env: dict[str, str], names: list[str],
                        leaks: list[python_site.Leak]) -> None:
        """Refuse when ``program`` still finds one of the tree's ``names`` in the checkout."""
        bad = python_site.outside(self._resolve(program, worktree, env, names), self.checkout, worktree)
        if bad:
            name, where = next(iter(bad.items()))
            via = ", ".join(sorted({k.pointer.file for k in leaks}))
            raise HarnessError(f"{program} imports `{name}` from {where}, in the repository's checkout, not from the "
                               f"re-run's tree (pointed there by {via}): the run would test the checkout's code, not "
                               "the commit's", hint=REMEDY_LEAK)

    def _resolve(self, program: str, worktree: Path, env: Mapping[str, str], names: list[str]) -> dict:
        from harness.core.limits import decode_json

        if not names:
            return {}
        result = runner.run_command([program, "-c", python_site.RESOLVE, *names], cwd=worktree, env=dict(env),
                                    timeout=60, echo=False)
        try:
            doc = decode_json(_last_line(result)) if result.outcome == "passed" else None
        except ValueError:
            doc = None
        if not isinstance(doc, dict):
            raise HarnessError(f"{program} could not say where it imports the tree's modules from "
                               f"({result.outcome}, exit {result.exit_code})", hint=REMEDY_LEAK)
        return doc

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


def _last_line(result: runner.RunResult) -> str:
    """What the probe printed last (a sitecustomize may print before it)."""
    lines = result.stdout.head.decode("utf-8", "replace").strip().splitlines()
    return lines[-1] if lines else ""


def _preload() -> None:
    import importlib

    for name in PRELOAD:
        try:
            importlib.import_module(name)
        except ImportError:
            pass
