"""`harness evidence pass_to_pass`: the current source judged by the tests as they were at the base.

The configured test command runs on the working tree's source with every protected file (see
:mod:`harness.core.suite`) as the task's base commit has it — added ones removed, deleted ones
restored — in a temporary worktree. It passes only when every case that passed at the base is
collected and passes: a test deleted, skipped, renamed out of collection, weakened, or a
conftest.py or pytest setting that narrows the run, is undone here, because the base's version of
it runs against the new code. When the change touches no protected file, the test command's own
fresh run on this very tree is that run, and nothing runs again.

Which cases passed at the base is computed by running the same command on the base commit (kept
outside the repository, under the account's home, by the base's source tree and the command's
digest: see :func:`kept_results`; CI's re-run recomputes it and trusts no such file).
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
from collections.abc import Callable, Collection, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from harness import paths, runner
from harness.core import doctests, suite
from harness.core.cases import cases_text, read_cases
from harness.core.value_class import dataclass
from harness.errors import HarnessError, Refused
from harness.evidence import tree_imports, tree_plugins
from harness.evidence.record import Plan, Site, collect, redactor_for, refuse_a_tree_runner, tree_relative
from harness.evidence.runner_names import installed_names, runner_folders
from harness.runner import clean_env
from harness.signatures import trust
from harness.store import bounded, fsio, settings
from harness.store.evidence_files import digest

if TYPE_CHECKING:
    from harness.core import pytest_startup
    from harness.core.redact import Redactor
    from harness.evidence.measured_with import Measured
    from harness.gitio.git import Git
    from harness.store.tasks import TaskStore

# A worktree and the environment a run there starts from -> the environment it runs in.
TreeEnv = Callable[[Path, Mapping[str, str]], dict[str, str]]
ETYPE = "pass_to_pass"
FAIL_TO_PASS = "fail_to_pass"


def run(s: TaskStore, task_id: str) -> tuple[dict, int]:
    """Run PASS_TO_PASS for ``task_id``: (the evidence record, the exit status: 0 passed, 1 not)."""
    from harness.gitio.worktree import ensure_recordable

    config = settings.load_config(s.layout)
    spec, test_type, conf = _suite(config, settings.load_gate(s.layout))
    base = s.load(task_id, docs=False).proj.base_commit
    git = ensure_recordable(s.git)
    refuse_a_tree_runner(git, ETYPE, conf.to_run(), conf.shell, s.layout.root, clean_env())
    tree = git.worktree_source_tree()
    base_tree, base_files, changed = protected_changes(git, tree, base, spec, config)
    kept = kept_for(git, base, conf, s.layout.root, clean_env()) if base else None
    base_cases = base_cases_at(git, base, conf, s.layout.root, kept, clean_env()) if base else {}
    rewritten, doctest_files = doctests_rewritten(git, base_tree, base_files, tree, changed, base_cases)
    dig = suite.digest(suite.identity(conf.identity(), test_type, base, spec["paths"]))

    signers = trust.Signers(lambda: git)  # the working tree's: the signers git config names, else HEAD's
    excusable = approved_cases(git, base, s.source.read(paths.APPROVALS), signers) if base else set()

    def assess(cases: dict[str, str], spell: Callable[[str], str] = str) -> tuple[bool, dict]:
        # ``spell``: how ``cases`` spell a case id (a reused run's listing: redacted, F-0392); the base's as they do
        spelled = {spell(c): o for c, o in base_cases.items()}
        redone = [(spell(c), how) for c, how in rewritten]
        lost, excused = suite.excuse(with_rewritten(suite.lost_cases(spelled, cases), redone), excusable)
        shown = sorted({*changed, *doctest_files})  # a module whose doctests changed is reported as a test file is
        return not lost, {"pass_to_pass": {
            "base": base, "base_tree": base_tree, "test_type": test_type,
            "protected_changed": shown[:suite.SHOWN_LOST], "protected_changed_total": len(shown),
            "base_passed": sum(1 for o in base_cases.values() if o == "passed"),
            "lost": [{"case": c, "how": h} for c, h in lost[:suite.SHOWN_LOST]], "lost_total": len(lost),
            "excused": excused[:suite.SHOWN_LOST], "excused_total": len(excused), "reused_run": None}}

    redactor = redactor_for(config)
    if not changed and _reusable(s, task_id, test_type, kept, base_cases, redactor):
        reused = _reuse(s, task_id, test_type, tree, config, lambda cases: assess(cases, redactor.redact), dig)
        if reused is not None:
            return reused
    commit = git.overlay_commit(tree, base_files, changed)
    with git.temp_worktree(commit) as checkout:
        path = without_caches(checkout)
        p = Plan(ETYPE, every_case(located(conf.to_run(), s.layout.root, path)), conf.shell, conf.junit, conf.timeout)
        env = local_env(path, {**clean_env(), **EVERY_CASE_ENV}, p.command, s.layout.root)
        return collect(s, task_id, p, Site(path, env, dig, assess))


def run_fail_to_pass(s: TaskStore, task_id: str) -> tuple[dict, int]:
    """FAIL_TO_PASS for ``task_id``: the test command on the base's source with the current protected
    files (the tests as the change wrote them) in a temporary worktree. Its case list is what the gate
    reads: a case that proves a requirement must not pass here. (Exit 0 when the run wrote its
    report, whatever its cases did: failing is what it is for.)"""
    from harness.gitio.worktree import ensure_recordable

    config = settings.load_config(s.layout)
    spec, test_type, conf = _suite(config, settings.load_gate(s.layout), FAIL_TO_PASS)
    base = s.load(task_id, docs=False).proj.base_commit
    git = ensure_recordable(s.git)
    refuse_a_tree_runner(git, FAIL_TO_PASS, conf.to_run(), conf.shell, s.layout.root, clean_env())
    tree = git.worktree_source_tree()
    base_tree, _base_files, changed = protected_changes(git, tree, base, spec, config)
    dig = suite.digest(suite.identity(conf.identity(), test_type, base, spec["paths"], FAIL_TO_PASS))

    judge = _Unproven(git, base, base_tree, tree, lambda: base_cases_at(
        git, base, conf, s.layout.root, kept_for(git, base, conf, s.layout.root, clean_env()), clean_env())
        if base else None)

    def assess(cases: dict[str, str]) -> tuple[bool, dict]:
        # Tests of unchanged behaviour pass on the base: when none does, they may not have run there at all (a
        # missing generated file), and every case would look like it fails without the change (see _Unproven).
        passed = sum(1 for o in cases.values() if o == "passed")
        why = None if passed else judge.why(path / (conf.junit or ""))
        return passed > 0 or why is None, {FAIL_TO_PASS: {
            "base": base, "test_type": test_type, "protected_changed": changed[:suite.SHOWN_LOST],
            "protected_changed_total": len(changed), "cases_passed": passed, **({"unproven": why} if why else {})}}

    commit = git.overlay_commit(base_tree, git.files_of(tree), changed)
    with git.temp_worktree(commit) as checkout:
        path = without_caches(checkout)
        p = Plan(FAIL_TO_PASS, every_case(located(conf.to_run(), s.layout.root, path)), conf.shell, conf.junit,
                 conf.timeout)
        env = local_env(path, {**clean_env(), **ON_THE_BASE}, p.command, s.layout.root)
        return collect(s, task_id, p, Site(path, env, dig, assess, judge.conftest_cases(path), judge.completed))


class _Unproven:
    """Why a FAIL_TO_PASS run of the change's tests on ``base_tree`` in which no case passed shows nothing
    (:mod:`harness.evidence.without_change`): the imports that failed there, checked against both trees."""

    def __init__(self, git: Git, base: str | None, base_tree: str, tree: str,
                 base_suite: Callable[[], dict[str, str] | None]):
        self.git, self.base, self.base_tree, self.tree, self.base_suite = git, base, base_tree, tree, base_suite
        self.failures: dict[str, str] = {}  # each module or conftest.py that could not import -> its error
        self._base_run: tuple[dict[str, str], HarnessError | None] | None = None

    def base_cases(self) -> dict[str, str]:
        """The base's own run (kept, or measured once: CI's re-measure runs it at most once); raises its refusal."""
        if self._base_run is None:
            try:
                self._base_run = (self.base_suite() or {}, None)
            except HarnessError as exc:
                self._base_run = ({}, exc)
        cases, refusal = self._base_run
        if refusal is not None:
            raise refusal
        return cases

    def completed(self, cases: dict[str, str]) -> dict[str, str]:
        """``cases`` with each case of a module that could not import here which the base's own run passed, as
        passing on the base (:func:`harness.core.cases.with_base_passes`): the local run and CI's judge alike."""
        from harness.core.cases import stopped_modules, with_base_passes

        if not stopped_modules(cases):
            return cases  # every module imported: nothing to look up, and the base's suite need not run
        try:
            base = self.base_cases()
        except HarnessError:
            # The base's own tests wrote no report or passed nothing here: no case is shown passing on it (a run
            # in which nothing passed is refused for that reason: see why).
            return cases
        return with_base_passes(cases, base)

    def conftest_cases(self, worktree: Path) -> Callable[[str], dict[str, str] | None]:
        from harness.evidence.without_change import conftest_cases

        return lambda output: conftest_cases(output, worktree, self.git.files_of(self.tree), self.failures)

    def why(self, report: Path) -> str | None:
        from harness.evidence.without_change import adds, base_run_check, report_failures, why_not
        from harness.gitio.tree_source import TreeSource

        if not self.base:
            return "the task has no base commit whose tests could run"
        sides = {"change": TreeSource(self.git, self.tree, "the change"), "base": TreeSource(self.git, self.base_tree, "the base")}
        files, base_files = self.git.files_of(self.tree), self.git.files_of(self.base_tree)
        return why_not({**report_failures(report), **self.failures},
                       lambda missing: adds(lambda side, rel: sides[side].read_or_none(rel), files, base_files, missing),
                       base_run_check(self.base_cases))


def approved_cases(git: Git, base: str, approvals: bytes | None, signers: trust.Signers,
                   trusted: list | None = None) -> set[str]:
    """The base cases a human's signed `harness approve suite-change` lets go, for this repository and
    base (checked against ``trusted``'s allowed signers, HEAD's by default, or the command's own root:
    the one git config or CI names, ``signers``)."""
    from harness.gitio.tree_source import TreeSource

    if trusted is None:
        head = git.head()
        trusted = [TreeSource(git, git.commit_tree(head), "HEAD")] if head else []
    if not approvals:
        return set()  # nothing to check, and nothing to name the repository for (a shallow clone cannot)
    return trust.approved_cases(approvals, git.repository_id(base), base, trusted, signers)


def _suite(config: settings.Config, policy: settings.GatePolicy,
           etype: str = ETYPE) -> tuple[dict, str, settings.Command]:
    spec = policy.suite
    what = etype.upper()
    if not spec:
        raise Refused(f"{what} needs the protected suite: .harness/gate.yaml has no `suite:` section",
                      hint="add `suite: {paths: [...]}` to gate.yaml (`harness init` in a fresh clone shows what it "
                           "would write); adding it tightens the gate, no approval needed")
    test_type = spec.get("test_type", suite.DEFAULT_TEST_TYPE)
    conf = config.commands.get(test_type)
    if conf is None or not conf.junit:
        why = "names no command for it" if conf is None else "names no `junit:` report for it"
        raise Refused(f"{what} runs the {test_type} command and compares its test cases, but config.yaml {why}",
                      hint=f"set evidence.{test_type}.command and evidence.{test_type}.junit in .harness/config.yaml "
                           "(pytest: --junitxml=.harness/local/junit.xml and junit: .harness/local/junit.xml; once "
                           ".harness/ is committed, adding a command needs a human's `harness approve config-change`)")
    return spec, test_type, conf


def inside(worktree: Path, environ: Mapping[str, str]) -> dict[str, str]:
    """The environment a run in ``worktree`` gets: ``environ``, with the worktree's import folders first on
    PYTHONPATH (its src/, its configuration's `pythonpath` folders, its root: :func:`tree_imports.import_folders`),
    so the project's own packages import from the tree being measured even where an editable install (or a .pth
    file) points at the repository's checkout (read 85's F-0300, F-0301) — there, the base would be measured on the
    change's code, a plugin put back would be loaded from the checkout, and a subprocess of the tests would import
    the working tree's code, not the tree under test."""
    rest = environ.get("PYTHONPATH")
    first = [str(folder) for folder in tree_imports.import_folders(worktree)]
    return {**environ, "PYTHONPATH": os.pathsep.join([*first, *([rest] if rest else [])])}


def local_env(worktree: Path, environ: Mapping[str, str], command: list[str] | str, root: Path) -> dict[str, str]:
    """:func:`inside`, checked: refused (HarnessError) when the run's interpreter would still import one of the tree's
    own names from the checkout ``root`` (a `.pth` line that puts it first, a finder asked before the import path),
    rather than measure the checkout's code (read 85's F-0300, F-0301); the worktree's counterparts of the checkout's
    folders the interpreter imports from come first too (read 89's F-0307); a name only the checkout holds is hidden
    first, as a machine with only the worktree would not find it (F-0277). The interpreter is asked with no code of
    the checkout running (F-0306). CI's re-run checks its own environment."""
    env = tree_imports.worktree_env(command, worktree, root, inside(worktree, environ), worktree.parent / "hidden-imports")
    return tree_plugins.kept_out(command, worktree, root, env)  # what the tree does not declare (read 133's F-0472)


def without_caches(worktree: Path) -> Path:
    """``worktree`` with the bytecode caches its commit holds (`git add -f`) removed: a run there reads only the
    caches it writes, never one in its source's place (read 71's F-0242). A throw-away checkout: nothing is lost."""
    from harness.evidence.suite_caches import caches

    for rel in list(caches(worktree)):
        with contextlib.suppress(OSError):
            os.unlink(worktree / rel)
    return worktree


def _tree_env(path: Path, environ: Mapping[str, str], tree_env: TreeEnv | None, command: list[str] | str,
              root: Path) -> dict[str, str]:
    if tree_env is None:
        return local_env(path, environ, command, root)
    return tree_plugins.kept_out(command, path, root, tree_env(path, inside(path, environ)))


# PASS_TO_PASS and FAIL_TO_PASS compare case lists: a run that stops at the first failure (`-x`, `--maxfail=N`,
# `--sw`, on the command line or in addopts) leaves every later case missing, read as lost or as never collected
# (read 93's F-0341). A pytest command gets these last (its last `--maxfail` wins; the stepwise plugin, blocked
# by the name it registers under, leaves `--sw` an option that does nothing); any command, through pytest's
# environment variable, for a pytest it starts itself whose `-x` comes from addopts.
EVERY_CASE = ("--maxfail=0", "-p", "no:stepwiseplugin")
EVERY_CASE_ENV = {"PYTEST_ADDOPTS": " ".join(EVERY_CASE)}


def every_case(command: list[str] | str) -> list[str] | str:
    """``command`` told to run every case when it is pytest (an argv that starts it: see
    :func:`harness.core.test_verdict.runs_pytest`); any other command, and a shell line, as given."""
    from harness.core.test_verdict import runs_pytest

    return [*command, *EVERY_CASE] if isinstance(command, list) and runs_pytest(command) else command


# FAIL_TO_PASS runs the change's tests on the base's source, where a new test module that imports
# the new code cannot import: pytest would stop the whole session at that collection error, and no
# case would run. Carrying on collects every other module and names the one that failed.
ON_THE_BASE = {"PYTEST_ADDOPTS": f"--continue-on-collection-errors {EVERY_CASE_ENV['PYTEST_ADDOPTS']}"}


def located(command: list[str] | str, root: Path, worktree: Path) -> list[str] | str:
    """The command as it runs in the worktree: a program named by a relative path that only the
    repository has (`.venv/bin/python`, an ignored tool folder, not part of the source) is taken
    from the repository."""
    if isinstance(command, str) or not command or "/" not in command[0] or os.path.isabs(command[0]):
        return command
    if not (worktree / command[0]).exists() and (root / command[0]).exists():
        return [str(root / command[0]), *command[1:]]
    return command


def protected_changes(git: Git, tree: str, base: str | None, spec: dict,
                      config: settings.Config) -> tuple[str, dict[str, str], list[str]]:
    """(the base's source tree, its files, the protected paths that differ from it in ``tree``)."""
    from harness.core import pytest_startup
    from harness.evidence.base_startup import base_configs

    current = git.files_of(tree)
    base_tree = git.source_tree(base) if base else git.empty_tree()
    base_files = git.files_of(base_tree)
    named = suite.named_files([c.argv for c in config.commands.values()], set(current) | set(base_files))
    start = _startup(git, base, base_files, spec["paths"])
    patterns = [*spec["paths"], *start.collected]  # the tests the base's configuration collects (read 81's F-0292)
    tests = [f for f in suite.protected(base_files, patterns, set()) if f.endswith(".py")]
    conf = config.commands.get(spec.get("test_type", suite.DEFAULT_TEST_TYPE))
    configs = base_configs(git, base, base_files)
    tests += _doctest_modules_named(configs, conf, named)
    modules = suite.test_modules(tests, start.collected)
    named = run_by_runners(git, base, named, set(current) | set(base_files), start.folders, tests,
                           [c.argv for c in config.commands.values()], base_files,
                           suite.package_inits(set(current) | set(base_files), modules))
    named |= {f for f in start.plugin_files if f in current or f in base_files}  # plugins: loaded as a conftest is
    named |= _doctest_files(configs, conf, set(current) | set(base_files))
    argv = list(conf.to_run()) if conf and not conf.shell else []
    names = installed_names(argv, git.root)
    # a test module's basedir comes first on the import path as a `pythonpath` folder does (read 148's F-0523), and so
    # does every folder the worktree run itself puts first on PYTHONPATH: src/ (read 151's F-0530), and the
    # counterparts of the checkout's folders the run's interpreters import from, an editable install's lib/ (read
    # 153's F-0540): the command's and the first `python3` on PATH, as the run asks them (read 157's F-0549)
    imported_from = runner_folders(conf.to_run(), git.root) if conf else []
    first = list(dict.fromkeys([*pytest_startup.first_on_the_path(configs),
                                *(Path(rel).as_posix() for rel in imported_from)]))
    return base_tree, base_files, suite.changed_protected(base_files, current, patterns, named, names, first,
                                                          start.collected)


RUNNER_TEXT_CAP = 1 << 20  # a runner's text read for what it runs; a larger file is no recipe


def run_by_runners(git: Git, base: str | None, named: set[str], files: set[str], folders: list[str], tests: list[str],
                   commands: Iterable[list[str]] = (), base_files: Mapping[str, str] | None = None,
                   walked: Iterable[str] = ()) -> set[str]:
    """``named`` (the files the configured ``commands`` name) with what the base's runners among them run
    (harness.core.runner_texts), and what that runs in turn: the words of a command run through a shell (read 131's
    F-0465), the files a runner text names (a Makefile `make` reads, a script the command names, one a recipe names
    after a `cd`: read 126's F-0450, read 127's F-0451), the modules a runner script imports and the paths it writes
    (F-0452, read 130's F-0460), read as the ``base`` has them (``base_files``: its files, when the caller listed them),
    since PASS_TO_PASS puts the base's runners
    back. Code the base's ``tests`` reach is the code under test, never a runner's: putting the base's back would
    leave the change untested (F-0453, read 129's F-0456, F-0457), whether a runner names it or a configured command
    does (read 130's F-0461). A runner the base lacks was added by the change, which the run removes: it names nothing
    here. ``walked``: the `__init__.py` files pytest runs on its way up to the test modules' packages
    (:func:`harness.core.suite.package_inits`), a runner's too unless the tests reach them (read 161's F-0561); what they
    import is not followed (a conftest.py's is not)."""
    from harness.core import runner_texts

    if base_files is None:
        base_files = git.files_of(git.source_tree(base)) if base else {}
    read = _reader(git, base_files)
    links = {path: (git.blob_bytes(entry[7:]) or b"").decode("utf-8", errors="replace")
             for path, entry in base_files.items() if entry.startswith("120000 ")}
    tree = runner_texts.TreeFiles(files, links)
    found = {f for argv in commands for f in runner_texts.named_by_runner(" ".join(argv), "", tree, folders)}
    todo, seen = sorted(named | found), set()
    while todo:
        rel = todo.pop()
        raw = read(rel) if rel not in seen else None
        seen.add(rel)
        if raw is None:
            continue
        text = raw.decode("utf-8", errors="replace")
        python = rel.endswith((".py", ".pyw")) and not runner_texts.is_runner_text(rel)
        if python or runner_texts.is_runner_text(rel) or raw.startswith(b"#!"):  # a script without a runner's name: `#!`
            new = runner_texts.named_by_runner(text, rel, tree, folders)
            if python:  # what a runner script imports runs as it does
                new |= tree.modules(runner_texts.imported(text) or set(), folders, rel.rpartition("/")[0])
        else:
            continue
        new -= found | named
        found |= new
        todo.extend(sorted(new))
    out = named | found | set(walked)
    if any(runner_texts.is_code(f) for f in out):
        tested = _Tested(read, tests, tree, folders, base_files)
        out = {f for f in out if not (runner_texts.is_code(f) and tested.reaches(f))}
    return out


def _reader(git: Git, files: Mapping[str, str]) -> Callable[[str], bytes | None]:
    """The bytes of a file ``files`` (path -> "MODE OID") lists, by its id (None: absent, no plain file, or over the
    size a runner's text or a module is read at); each read once, as the runners' walk and the tests' both ask."""
    kept: dict[str, bytes | None] = {}

    def read(rel: str) -> bytes | None:
        if rel not in kept:
            mode, _, oid = files.get(rel, "").partition(" ")
            raw = git.blob_bytes(oid) if mode in ("100644", "100755") else None
            kept[rel] = raw if raw is not None and len(raw) <= RUNNER_TEXT_CAP else None
        return kept[rel]
    return read


class _Tested:
    """The code the base's tests reach: the modules they import or run (`-m`) and those import in turn, found as the
    tests' own import path finds them (beside the importing file, the root, the `pythonpath` folders, src/), and every
    file a test names by its file name, as a word of its own (a script a test runs as a process; `conftest.py` names
    no `test.py`: read 131's F-0466). Files, not module names: a runner's `scripts/helpers.py` is not the tests'
    `tests/helpers.py` (read 129's F-0456), and a package's `__init__` brings in the modules it imports (F-0457). A
    relative import reaches its package's files (`from .. import average`: the root `__init__.py`, read 162's F-0565),
    as the ``base`` has them (its files; the tree's by default): a root `__init__.py` only the change adds is pytest's
    walk alone, never reached by the base's tests, and stays protected (read 161's F-0561)."""

    def __init__(self, read: Callable[[str], bytes | None], tests: list[str], tree: Any, folders: list[str],
                 base: Collection[str] | None = None) -> None:
        from harness.core.runner_texts import imported, relative_reached, run_modules

        base = tree.files if base is None else base

        self.files: set[str] = set()
        self.texts: list[str] = []
        todo, own = list(tests), set(tests)
        while todo:
            rel = todo.pop()
            raw = read(rel) if rel not in self.files else None
            self.files.add(rel)
            if raw is None:
                continue
            text = raw.decode("utf-8", errors="replace")
            if rel in own:
                self.texts.append(text)
            beside = rel.rpartition("/")[0]
            reached = tree.modules(imported(text) or set(), folders, beside)
            reached |= tree.modules(run_modules(text), folders, beside, run=True)  # a test runs it: F-0462
            reached |= relative_reached(text, rel, base)
            todo.extend(sorted(reached - self.files))

    def reaches(self, path: str) -> bool:
        import re

        name = path.rpartition("/")[2]
        if path in self.files:
            return True
        word = re.compile(rf"(?<![\w.-]){re.escape(name)}(?![\w.-])")
        return name != "__init__.py" and any(word.search(text) for text in self.texts)  # a package's: by its folder


def _startup(git: Git, base: str | None, base_files: Mapping[str, str],
             patterns: list[str] | None = None) -> pytest_startup.Startup:
    """What the base's pytest configuration, conftest.py files and test modules make pytest load or collect
    (evidence/base_startup.py): the base's, which PASS_TO_PASS puts back, whatever the change did to them."""
    from harness.evidence.base_startup import at_base

    return at_base(git, base, base_files, patterns or [])


def _doctest_modules_named(configs: Mapping[str, str], conf: settings.Command | None, named: set[str]) -> list[str]:
    """The Python modules the test command names for pytest to collect under `--doctest-modules` (`pytest
    --doctest-modules calc.py tests`): code whose examples are tests, so what the tests reach — measured as the change
    has it, its examples judged by :func:`doctests_rewritten` — never a runner's to put back (read 132's F-0470)."""
    from harness.core import pytest_startup

    command = conf.to_run() if conf is not None else []
    words = command if isinstance(command, list) else command.split()
    addopts = [w for rel, text in configs.items() for w in pytest_startup.settings_of(rel, text).get("addopts", [])]
    if "--doctest-modules" not in [*words, *addopts]:
        return []
    return sorted(f for f in suite.named_files([list(words)], named) if f.endswith(".py"))


def _doctest_files(configs: Mapping[str, str], conf: settings.Command | None, files: set[str]) -> set[str]:
    """The files the base's `--doctest-glob` (in a configuration's addopts or the test command) makes doctest files:
    tests and nothing else, protected whole like a test module (read 81's F-0290)."""
    from harness.core import pytest_startup

    words = [w for rel, text in configs.items() for w in pytest_startup.settings_of(rel, text).get("addopts", [])]
    command = conf.to_run() if conf is not None else []
    patterns = pytest_startup.doctest_globs([*words, *(command if isinstance(command, list) else command.split())])
    return {f for f in files if doctests.globbed(f, patterns)} if patterns else set()


def doctests_rewritten(git: Git, base_tree: str, base_files: Mapping[str, str], tree: str, changed: list[str],
                       base_cases: Mapping[str, str]) -> tuple[list[tuple[str, str]], list[str]]:
    """(each base case that is a doctest whose examples ``tree`` rewrote in a module's source, with how; the modules)
    (read 81's F-0290). A doctest's examples are its assertions, written in a module PASS_TO_PASS cannot put back:
    a change to them is a change of the suite, lost until `harness approve suite-change` names the case."""
    from harness.gitio.tree_source import TreeSource

    passed = [c for c, outcome in base_cases.items() if outcome == "passed"]
    if not passed:
        return [], []
    after = git.files_of(tree)
    edited = [p for p, blob in base_files.items() if p.endswith(".py") and after.get(p, blob) != blob and p not in changed]
    old, new = TreeSource(git, base_tree, "the base"), TreeSource(git, tree, "the change")
    lost: list[tuple[str, str]] = []
    modules: list[str] = []
    for path in edited:
        theirs = [c for c in passed if doctests.is_doctest_of(c, path, {doctests.EVERY})]
        if not theirs:
            continue  # no doctest of this module ran at the base: its docstrings are prose
        was, now = old.read_or_none(path), new.read_or_none(path)
        names = ({doctests.EVERY} if was is None or now is None else
                 doctests.rewritten_doctests(was.decode("utf-8", "replace"), now.decode("utf-8", "replace")))
        hit = [(c, f"its doctest examples changed in {path}") for c in theirs if doctests.is_doctest_of(c, path, names)]
        lost += hit
        modules += [path] if hit else []
    return lost, modules


def with_rewritten(lost: list[tuple[str, str]], rewritten: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """``lost`` and the base cases whose doctest the change rewrote (a case lost in the run keeps how it was)."""
    named = {case for case, _ in lost}
    return sorted([*lost, *(r for r in rewritten if r[0] not in named)])


def base_cases_at(git: Git, base: str, conf: settings.Command, root: Path, cache: Kept | None,
                  environ: Mapping[str, str], tree_env: TreeEnv | None = None) -> dict[str, str]:
    """case id -> outcome of the test command run on the base commit; kept in ``cache`` (a folder of
    this user's) by the base's source tree, the command and what the run is measured with (the environment it
    starts from, its program and that program's files: :mod:`harness.evidence.measured_with`), when one is given:
    a result measured by another program, or in another environment, is never read (read 110's F-0389)."""
    kept = kept_file(git, base, conf, cache)
    if kept is not None:
        raw = bounded.read(kept, "evidence", str(kept))
        if raw is not None:
            return read_cases(raw)
    with git.temp_worktree(base) as checkout:
        path = without_caches(checkout)
        cases = run_cases(conf, root, path, {**environ, **EVERY_CASE_ENV}, tree_env)
    if cases is None or (cases and "passed" not in cases.values()):
        why = (f"the {conf.junit} report was not written" if cases is None
               else f"no case passed ({len(cases)} in the report)")
        raise HarnessError(f"PASS_TO_PASS: {why} when the test command ran on the base {base[:12]}: there is "
                           "nothing it could protect",
                           hint="the base's own tests must run in a clean checkout for their cases to be protected "
                                "(a file they need that git ignores, a generated module?): fix that, or start the "
                                "task from a commit whose tests run")
    if kept is not None and cache is not None and _unchanged(cache):
        fsio.atomic_write(kept, cases_text(cases))
    return cases


def _unchanged(cache: Kept) -> bool:
    """Whether what the base's run was measured with is what it was before the run: a file of the program's
    environment written while it ran (and maybe put back) leaves no result kept for the files as they were."""
    after = cache.measure()
    return after is not None and cache.measured is not None and after.digest == cache.measured.digest


def kept_results(git: Git, base: str) -> Path:
    """Where this user keeps the base's measured cases: outside the repository (an agent confined to
    the workspace, as coding agents' sandboxes are by default, cannot rewrite them), under the user's
    cache folder, by repository. CI keeps none: its re-run measures the base again."""
    import pwd

    # The account's home from the password database: HOME and XDG_CACHE_HOME are the caller's to
    # set, and would lead the kept result back into the workspace.
    home = pwd.getpwuid(os.getuid()).pw_dir
    # By the least root the base's history shows: the repository's first, or a shallow clone's boundary
    # (a folder name only, trusted for nothing).
    return Path(home) / ".cache" / "engineering-harness" / "pass_to_pass" / min(git.roots(base))


@dataclass(frozen=True)
class Kept:
    """Where this user keeps the base's measured cases (:func:`kept_results`), and what a run of them now is measured
    with (None: it cannot be told, and nothing is kept or read)."""

    folder: Path
    measured: Measured | None
    measure: Callable[[], Measured | None]  # the same measurement taken again: after the base's run, before reusing


def kept_file(git: Git, base: str, conf: settings.Command, cache: Kept | None) -> Path | None:
    """The file ``cache`` keeps the base's cases in for ``conf`` (None: none is kept)."""
    if cache is None or cache.measured is None:
        return None
    return cache.folder / f"{git.source_tree(base)}-{suite.digest(conf.identity())[:16]}-{cache.measured.digest[:16]}.cases"


def kept_for(git: Git, base: str, conf: settings.Command, root: Path, environ: Mapping[str, str]) -> Kept:
    """The kept results a run of ``conf`` on ``base``, starting from ``environ``, may read and write: those measured
    by the program it runs, as its files are now, in the same environment (:mod:`harness.evidence.measured_with`)."""
    from harness.evidence.measured_with import measured_with

    def measure() -> Measured | None:
        return measured_with(every_case(conf.to_run()), conf.shell, root, {**environ, **EVERY_CASE_ENV},
                             lambda rel: git.read_at(base, rel))

    return Kept(kept_results(git, base), measure(), measure)


def run_cases(conf: settings.Command, root: Path, path: Path, environ: Mapping[str, str],
              tree_env: TreeEnv | None = None,
              unreported: Callable[[str], dict[str, str] | None] | None = None) -> dict[str, str] | None:
    """Run the test command in the worktree ``path`` (output streamed) and read its report: case id
    -> outcome, or None when it wrote none. ``tree_env`` (CI's re-run) makes the environment for the
    worktree beyond :func:`inside`: the repository's own code imported from it, or a refusal. ``unreported``
    reads the cases a run that wrote no report still shows from its output (FAIL_TO_PASS: a conftest.py that
    could not load). Every case runs (:func:`every_case`)."""
    from harness.evidence.junit import parse_report

    assert conf.junit is not None  # _suite refused a command without one
    report = path / conf.junit
    report.parent.mkdir(parents=True, exist_ok=True)
    command = every_case(located(conf.to_run(), root, path))
    result = runner.run_command(command, shell=conf.shell, cwd=path, timeout=conf.timeout,
                                env=_tree_env(path, environ, tree_env, command, root), reap=True)
    if result.exit_code is None:
        return None
    if not report.exists():
        shown = unreported((result.combined.head + result.combined.tail).decode("utf-8", "replace")) if unreported else None
        return None if shown is None else tree_relative(shown, path)
    return tree_relative(parse_report(report)[1], path)


# Variables that can deselect or bend a test run without changing its argv: a run that had any of
# them set (or did not record them) ran in another environment than PASS_TO_PASS's clean one.
BENDING = ("PYTHONPATH", "PYTEST_ADDOPTS", "PYTEST_PLUGINS", "NODE_OPTIONS", "PYTHONPYCACHEPREFIX")


def _bent(record: dict) -> bool:
    """Whether the run ``record`` keeps may have been bent: its record does not show it reusable as it ran (any
    variable its clean run lacks, a file git ignores or one above the checkout, seen before or after it ran:
    suite_caches.RunWatch, read 110's F-0390, F-0391, F-0393; an older record, which does not say), or names a
    BENDING variable set."""
    env = record.get("env") or {}
    return record.get("reusable") is not True or any(name not in env or env[name] is not None for name in BENDING)


def _ignored_suite_files(s: TaskStore, rec: dict) -> bool:
    """Whether the checkout holds a file git ignores that could have shaped the run ``rec`` records (a conftest.py
    in .git/info/exclude, a bytecode cache of a test the run did not write): the run saw it, the source tree
    does not hold it."""
    from datetime import datetime

    from harness.evidence import suite_caches

    spec = settings.load_gate(s.layout).suite or {}
    try:
        since = datetime.fromisoformat(rec["started_at"]).timestamp()
    except (KeyError, TypeError, ValueError):
        return True  # a run whose start is not known: any cache could be older than it
    return suite_caches.shaped_by(s.git, s.layout.root, spec.get("paths", []), since) is not None


def _reusable(s: TaskStore, task_id: str, test_type: str, kept: Kept | None, base_cases: Mapping[str, str],
              redactor: Redactor) -> bool:
    """Whether the test command's run in the checkout may be compared with the base's cases as measured now: run by
    the program that measured them, whose files (and its environment's: :mod:`harness.evidence.measured_with`) have
    not changed since that run started (read 110's F-0389); and the base's case ids, spelled as its listing spells
    them (redacted), still name one case each (F-0392). Otherwise PASS_TO_PASS runs in a worktree, by that program."""
    from datetime import datetime

    from harness.evidence.record import program_fields
    from harness.store.evidence_files import load_valid

    if len({redactor.redact(c) for c in base_cases}) != len(base_cases):
        return False
    if kept is None:
        return True  # no base: no case of it to compare
    rec = load_valid(s.source, s.load(task_id, docs=False)).get(test_type)
    if kept.measured is None or rec is None:
        return False
    try:
        since = datetime.fromisoformat(rec["started_at"]).timestamp()
    except (KeyError, TypeError, ValueError):
        return False
    now = kept.measure()  # after the base's run: a file written while it ran is newer than the test run
    if now is None or now.digest != kept.measured.digest:
        return False
    ran = {k: v and redactor.redact(v) for k, v in program_fields(now.program).items()}
    return all(rec.get(k) == v for k, v in ran.items()) and now.changed < since


def _reuse(s: TaskStore, task_id: str, test_type: str, tree: str, config: settings.Config,
           assess: Any, dig: str) -> tuple[dict, int] | None:
    """No protected file differs from the base: the test command's own fresh run on this tree, with
    its cases, is the PASS_TO_PASS run. None when there is no such run to reuse."""
    from harness.evidence.record import configured_digest
    from harness.store.evidence_files import load_valid
    from harness.store.secrets_check import redact_data
    from harness.store.tasks import now_iso

    folder = f"{paths.TASKS}/{task_id}"
    # Checked against the ledger's digests first: a record written by hand is no run to reuse.
    rec = load_valid(s.source, s.load(task_id, docs=False)).get(test_type)
    conf = config.commands[test_type]
    want = configured_digest(config, Plan(test_type, conf.to_run(), conf.shell, conf.junit, conf.timeout))
    listing = s.source.read(f"{folder}/evidence/{test_type}.cases")
    if (rec is None or rec.get("tree") != tree or rec.get("tree_after") or rec.get("command_digest") != want
            or listing is None or digest(listing) != rec.get("cases_digest") or _bent(rec)
            or _ignored_suite_files(s, rec)):
        return None
    redactor = redactor_for(config)
    passed, extra = assess({redactor.redact(c): o for c, o in read_cases(listing).items()})
    extra["pass_to_pass"]["reused_run"] = rec["run_id"]
    run_id = secrets.token_hex(8)
    log = (f"PASS_TO_PASS: no protected file differs from the base, so {test_type}'s run {rec['run_id']} on this "
           f"source tree is this run.\n").encode()
    record = {**rec, "type": ETYPE, "run_id": run_id, "outcome": "passed" if passed else "failed",
              "command_digest": dig, "log": f"{ETYPE}.log",
              "log_bytes": len(log), "log_digest": digest(log), "output_bytes": len(log), "log_truncated": False,
              "cases": f"{ETYPE}.cases", **redact_data(extra, redactor)}
    body = (json.dumps(record, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
    where = s.layout.root / folder / "evidence"
    s.append(task_id, [("evidence.prepared", {"run_id": run_id, "type": ETYPE, "command": rec["command"], "tree": tree,
                                               "head": rec.get("commit"), "started_at": now_iso()})])
    s.append(task_id, [("evidence.collected", {"run_id": run_id, "type": ETYPE, "digest": digest(body),
                                                "outcome": record["outcome"], "exit_code": rec.get("exit_code"),
                                                "tree": tree, "head": rec.get("commit")})],
             extra_files={where / f"{ETYPE}.json": body, where / f"{ETYPE}.log": log,
                          where / f"{ETYPE}.cases": listing})
    return record, 0 if passed else 1


def remeasure(git: Git, commit: str, base: str | None, spec: dict, config: settings.Config,
              environ: Mapping[str, str], excusable: set[str],
              tree_env: TreeEnv | None = None) -> tuple[str | None, list[tuple[str, str]]]:
    """PASS_TO_PASS again, for CI's re-run: the committed source with the base's protected files,
    the base's cases computed here (no kept file is trusted). (passed | failed | None when the test
    command wrote no report, the cases lost)."""
    conf = config.commands.get(spec.get("test_type", suite.DEFAULT_TEST_TYPE))
    if conf is None or not conf.junit:
        return None, []
    tree = git.source_tree(commit)
    base_tree, base_files, changed = protected_changes(git, tree, base, spec, config)
    base_cases = base_cases_at(git, base, conf, git.root, None, environ, tree_env) if base else {}
    rewritten = doctests_rewritten(git, base_tree, base_files, tree, changed, base_cases)[0]
    with git.temp_worktree(git.overlay_commit(tree, base_files, changed)) as checkout:
        path = without_caches(checkout)
        cases = run_cases(conf, git.root, path, {**environ, **EVERY_CASE_ENV}, tree_env)
    if cases is None:
        return None, []
    lost = suite.excuse(with_rewritten(suite.lost_cases(base_cases, cases), rewritten), excusable)[0]
    return ("failed" if lost else "passed"), lost


def remeasure_fail_to_pass(git: Git, commit: str, base: str, spec: dict, config: settings.Config,
                           environ: Mapping[str, str],
                           tree_env: TreeEnv | None = None) -> tuple[dict[str, str] | None, str | None]:
    """FAIL_TO_PASS again, for CI's re-run: the base's source with ``commit``'s protected files, (case id ->
    outcome, None when the test command wrote no report; when no case passed, why that shows nothing, else None),
    judged as the local run is (:class:`_Unproven`; the base's own suite measured here, no kept result trusted)."""
    conf = config.commands.get(spec.get("test_type", suite.DEFAULT_TEST_TYPE))
    if conf is None or not conf.junit:
        return None, None
    tree = git.source_tree(commit)
    base_tree, _base_files, changed = protected_changes(git, tree, base, spec, config)
    judge = _Unproven(git, base, base_tree, tree, lambda: base_cases_at(git, base, conf, git.root, None, environ, tree_env))
    with git.temp_worktree(git.overlay_commit(base_tree, git.files_of(tree), changed)) as checkout:
        path = without_caches(checkout)
        cases = run_cases(conf, git.root, path, {**environ, **ON_THE_BASE}, tree_env, judge.conftest_cases(path))
        cases = None if cases is None else judge.completed(cases)
        nothing = cases is not None and "passed" not in cases.values()
        return cases, judge.why(path / conf.junit) if nothing else None
