"""`harness evidence`: run a real command and record what happened, bound to a source tree.

The order matters. The source tree is taken *before* the command starts (what was tested
is what existed then), an `evidence.prepared` event is written before the run (so a
crash reads later as "outcome unknown", never as a pass), and secrets are redacted
before a single byte of output reaches disk.
"""

from __future__ import annotations

import itertools
import json
import os
import shlex
from collections.abc import Callable
from pathlib import Path

from harness import paths, runner
from harness.core.cases import cases_text
from harness.core.value_class import dataclass
from harness.errors import HarnessError, Refused
from harness.evidence import outputcut
from harness.store import bounded, settings
from harness.store.evidence_files import digest, evidence_rel
from harness.store.tasks import TaskStore, iso_utc, now_iso

TYPE_CHECKING = False  # typing's, without importing typing on a hot path (tests/test_layering.py)
if TYPE_CHECKING:
    from typing import Any

    from harness.core.redact import Redactor
    from harness.evidence.suite_caches import RunWatch
    from harness.gitio.git import Git
    from harness.gitio.process_git import ProcessGit
    from harness.gitio.source_stat import Snapshot

# Exit statuses for outcomes that have no exit code of their own, as shells report them.
EXIT_FOR = {"not_found": 127, "not_executable": 126, "timeout": 124, "interrupted": 130}


@dataclass(frozen=True)
class Plan:
    etype: str
    command: list[str] | str
    shell: bool
    junit: str | None
    timeout: float | None


def plan(config: settings.Config, etype: str, argv: tuple[str, ...], shell: bool, junit: str | None,
         timeout: float | None) -> Plan:
    """The command to run: the one given after `--`, else config.yaml's for this type, run as config.yaml says
    (through a shell only when its evidence.TYPE.shell does: --shell never changes how the configured command
    runs, F-0335)."""
    conf = config.commands.get(etype)
    if argv:
        command: list[str] | str = " ".join(argv) if shell and len(argv) == 1 else list(argv)
        if conf is None or _as_argv(command) != conf.argv or (shell and not conf.shell):
            return Plan(etype, command, shell, junit, timeout)  # another command (or the same through a shell)
        # config.yaml's command, typed out: run as configured, its JUnit report and timeout with it
        # (without the report, a run whose tests failed but exited 0 would pass).
    elif conf is None:
        raise HarnessError(f"no command for {etype} evidence",
                           hint=f"pass it after `--` (harness evidence {etype} -- CMD ARGS) or set "
                                f"evidence.{etype}.command in .harness/config.yaml (once .harness/ is committed, "
                                "adding one needs a human's `harness approve config-change`, as changing one does)")
    elif shell and not conf.shell:
        raise HarnessError(f"--shell does not apply to {etype}: config.yaml's command runs as config.yaml says, "
                           "without a shell (through one, the tree could supply the program it runs)",
                           hint=f"run `harness evidence {etype}` without --shell, or set evidence.{etype}.shell: true "
                                "in .harness/config.yaml (a change that needs approval)")
    return Plan(etype, conf.to_run(), conf.shell, junit or conf.junit, timeout or conf.timeout)


@dataclass(frozen=True)
class Site:
    """Where a run that is not the plain one happens, and how its cases are judged (PASS_TO_PASS:
    in a temporary worktree, passing when no base case was lost, whatever the exit code)."""

    cwd: Path
    env: dict[str, str]                          # the command's whole environment
    digest: str                                  # the command_digest its record keeps
    assess: Callable[[dict[str, str]], tuple[bool, dict]]  # cases -> (passed, extra record fields)
    # A run that wrote no report: its output -> the cases it still shows (FAIL_TO_PASS: a conftest.py that could
    # not load on the base's source fails every case under it), or None
    unreported: Callable[[str], dict[str, str] | None] | None = None
    # The run's cases -> those its record keeps (FAIL_TO_PASS: a case its module's import failure kept from running,
    # which the base's own run passed, as passing on the base: F-0349), or None to keep them as they are
    completed: Callable[[dict[str, str]], dict[str, str]] | None = None


def _iso(t: float) -> str:
    return iso_utc(t, milliseconds=True)


def redactor_for(config: settings.Config) -> Redactor:
    """The config's patterns, plus the values of our secret-named environment variables:
    a command handed MY_SERVICE_CRED may well print it, in a form no pattern knows; and
    detect-secrets' plugins (their regexes from the harness's own table when the installed package
    is the one it was made from, else imported here; never cached in a folder the agent can write,
    where a shorter list would weaken redaction unseen)."""
    from harness.store.secrets_check import redactor

    return redactor(config.redaction)  # the store's, which redacts the record's ledger events with it


def shown_command(command: list[str] | str, redactor: Redactor) -> tuple[str, list[str]]:
    """The command as recorded, redacted: (its one-line form, its argv)."""
    from harness.core.redact import redact_argv

    if isinstance(command, str):
        shown = redactor.redact(command)
        return shown, [shown]
    argv = redact_argv(command, redactor)
    # Redacted again as a whole: a secret split over arguments ("Authorization:", "Bearer", ...).
    return redactor.redact(shlex.join(argv)), argv


def configured_digest(config: settings.Config, p: Plan) -> str | None:
    """The digest of the command run when it is config.yaml's command for its type, compared
    unredacted (None for any other command: the gate then refuses the record for a type with a
    configured command, however alike the redacted forms look)."""
    from harness.core.gate import command_digest, command_identity

    configured = config.commands.get(p.etype)
    ran = command_identity(_as_argv(p.command), p.junit, p.shell)  # a list through a shell is not the list (F-0335)
    # Another command, or the same one without the report that can fail it: no digest. The gate
    # compares the digest with config.yaml's as it reads it then, so an edit for one run is caught.
    return command_digest(ran) if configured is not None and ran == configured.identity() else None


def _as_argv(command: list[str] | str) -> list[str]:
    """A command as its record's argv shows it (a string is one element)."""
    return [command] if isinstance(command, str) else list(command)


def program_of(argv: list[str], cwd: Path, environ: dict[str, str]) -> str | None:
    """The absolute path of the program ``argv`` runs, as the OS will find it: a name is
    looked up on the PATH the command gets, a path is taken relative to the command's cwd.
    None when there is none (the run will then record not_found)."""
    name = argv[0]
    found = os.path.join(cwd, name) if os.sep in name else _which(name, environ.get("PATH", os.defpath), cwd)
    return os.path.abspath(found) if found and os.path.exists(found) else None


def _which(name: str, path: str, cwd: Path | str | None = None) -> str | None:
    """`shutil.which(name, path=path)` on POSIX (shutil's import is a recording's cost for this loop):
    the first entry holding an executable file of that name, an empty or relative entry taken from ``cwd``, the
    folder the command runs in (`PATH=bin:…`: read 140's F-0496), else from this process's, as shutil's is."""
    seen = set()
    for folder in path.split(os.pathsep) if path else ():
        if folder in seen:
            continue
        seen.add(folder)
        found = os.path.join(cwd, folder, name) if cwd is not None else os.path.join(folder, name)
        if os.path.exists(found) and os.access(found, os.X_OK) and not os.path.isdir(found):
            return found
    return None


def shadowed(argv: list[str], cwd: Path, environ: dict[str, str], ignored: Callable[[str], bool],
             checkout: Path | None = None) -> str | None:
    """Why the runner ``argv`` names would be a file of the source tree the run is evidence about
    (None when it is not): a program found on a PATH entry inside the repository, or a module run
    with `python -m` that the working directory (first on sys.path) would supply. The tree's own
    `unittest/` package would then be the test runner. A file ignored by git is not source.
    ``checkout``: the user's checkout, for a run in a temporary worktree (PASS_TO_PASS, FAIL_TO_PASS): a PATH entry
    naming a folder of it is the change's file as much as one of the worktree (F-0471)."""
    root = os.path.realpath(cwd)
    roots = list(dict.fromkeys([root, *([os.path.realpath(checkout)] if checkout is not None else [])]))
    from harness.core.test_verdict import unwrapped

    # Every word PATH finds, not only the first: the program a wrapper starts (`timeout 900 pytest`, `flock LOCK
    # pytest`, `env -S "pytest -q"`: read 136's F-0486, read 138's F-0489, F-0490), whichever wrapper it is; on the
    # PATH the command sets itself too (`env PATH=bin:… pytest`: read 140's F-0496). A module `-m` names is no
    # program (`python -I -m pytest`: read 140's F-0497).
    words = [*argv, *unwrapped(list(argv))]
    paths = [environ, *({**environ, "PATH": w.split("=", 1)[1]} for w in words if w.startswith("PATH="))]
    modules = {b for a, b in itertools.pairwise(words) if a == "-m"}
    for word, env in ((w, e) for w in dict.fromkeys(words) if w not in modules for e in paths):
        program = program_of([word], cwd, env) if word and os.sep not in word and not word.startswith("-") else None
        for where in roots if program is not None else ():
            rel = os.path.relpath(os.path.realpath(str(program)), where)
            if not rel.startswith(os.pardir) and not ignored(rel):
                return (f"`{word}` is found on PATH at {rel}, a file of the source tree: the tree would choose its "
                        f"own runner (name it by its path in the command, so that editing it is a protected change)")
    module = _python_module(argv)
    if module:
        top = module.split(".")[0]
        import importlib.machinery

        suffixes = importlib.machinery.all_suffixes()  # .py, .pyc, extension modules
        for rel in [f"{top}{x}" for x in suffixes] + [f"{top}/__init__{x}" for x in suffixes]:
            if os.path.isfile(os.path.join(root, rel)) and not ignored(rel):
                return (f"`-m {module}` would import {rel} from the source tree (python puts the working directory "
                        f"first on sys.path): the tree would be its own test runner (rename it, or run python -I or -P)")
    return None


_TAKES_ARG = frozenset("WX")  # python options whose value follows: -W ignore, -Xdev


def _python_module(argv: list[str]) -> str | None:
    """The module ``[wrapper] python [options] -m MODULE`` (or ``coverage run -m MODULE``) runs, unless
    -I or -P keep the working directory off sys.path. Options may be bundled: ``-Bm pytest``."""
    names = [os.path.basename(a) for a in argv]
    start = next((i + 1 for i, n in enumerate(names) if (n.startswith("python") and n[6:].replace(".", "").isdigit())
                  or n == "python"), None)
    if start is None and "coverage" in names and "run" in names[names.index("coverage"):]:
        start = names.index("run", names.index("coverage")) + 1
    if start is None:
        return None
    args = argv[start:]
    i = 0
    while i < len(args):
        arg = args[i]
        if arg in ("-", "--") or not arg.startswith("-"):
            return None  # a script or stdin runs, not a module
        if arg.startswith("--"):
            i += 2 if arg == "--check-hash-based-pycs" else 1
            continue
        for j, flag in enumerate(arg[1:]):
            if flag in "IP":
                return None
            if flag == "c":
                return None
            if flag == "m":
                rest = arg[j + 2:]
                return rest or (args[i + 1] if i + 1 < len(args) else None)
            if flag in _TAKES_ARG:
                i += 0 if arg[j + 2:] else 1  # the value is the rest of the cluster, or the next argument
                break
        i += 1
    return None


def program_fields(program: str | None) -> dict:
    """``program`` as found, and the file it really is when a symlink leads elsewhere (a
    virtualenv's python is a link to the interpreter; the link's folder names the venv)."""
    real = os.path.realpath(program) if program else None
    return {"program": program, "program_real": real if real != program else None}


def recorded_env(names: list[str], environ: dict[str, str], redactor: Redactor) -> dict[str, str | None]:
    """The values (redacted) of the variables that change what a test command does; an
    unset one is recorded as null, which says as much as a value."""
    from harness.core.redact import is_secret_name

    # A secret-named variable is named outright: its value is a secret whatever its length.
    # (Names are identifiers, by config.yaml's schema.)
    return {name: None if name not in environ else f"[REDACTED:env:{name}]" if is_secret_name(name)
            else redactor.redact(environ[name]) for name in names}


def _stat_key(path: Path) -> tuple | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_ino, st.st_mtime_ns, st.st_size


def _junit_report(p: Plan, root: Path, before: tuple | None) -> tuple[dict, dict[str, str], str | None]:
    """(counts, case id -> outcome, why the report does not count) of the run's JUnit report."""
    if not p.junit:
        return {}, {}, None
    from harness.evidence.junit import parse_report

    path = root / p.junit
    if not path.exists():
        return {}, {}, f"JUnit report {p.junit} was not written by the run"
    try:
        if before is not None and _stat_key(path) == before:
            return {}, {}, f"JUnit report {p.junit} predates this run: the run did not rewrite it"
        counts, cases = parse_report(path)
    except HarnessError as exc:
        return {}, {}, exc.message
    if not counts["tests"]:
        # An empty report is what a run that collected nothing (or crashed first) leaves:
        # no test ran, so nothing passed.
        return {}, {}, f"JUnit report {p.junit} has no test cases"
    return {k: counts[k] for k in ("passed", "failed", "skipped", "errors")}, cases, None


def tree_relative(cases: dict[str, str], root: Path) -> dict[str, str]:
    """Case ids with the folder they ran in written as `<tree>`: a test parametrized over absolute
    paths names the checkout, and runs in two worktrees must name the same cases alike."""
    prefix = str(root)
    return {case.replace(prefix, "<tree>"): outcome for case, outcome in cases.items()} if prefix else cases


def collect(s: TaskStore, task_id: str, p: Plan, site: Site | None = None) -> tuple[dict, int]:
    """Run ``p`` for ``task_id``; returns (the evidence record, the exit status to exit with).
    With a ``site``, the command runs there and its cases decide (the record is still bound to the
    working tree's source: the run is evidence about it)."""
    from harness.gitio.process_git import ProcessGit
    from harness.gitio.worktree import ensure_recordable

    config = settings.load_config(s.layout)
    cwd = site.cwd if site else s.layout.root
    git = ProcessGit(s.layout.root)  # git processes, not pygit2: its import alone is most of a recording's cost
    run_argv = _runnable_argv(git, p, cwd, site)
    watch = _suite_run(git, s, p.etype) if site is None else None
    # Refused first: a measurement of what a foreign GIT_* or core.worktree names would write its objects (F-0057).
    git = ensure_recordable(git)
    # The source before the run is measured in a thread (its git processes wait, not compute) while this one
    # loads the redaction rules; it is awaited before the lock is taken, which readers wait for (F-0058).
    with _Beside(lambda: _source_before(git)) as before:
        redactor = redactor_for(config)  # the redaction rules' modules load here, while git measures
        _load_what_follows()
        prep = _prepare(git, p, cwd, site, run_argv, redactor, before.result())
        if watch is not None:
            watch.before(prep.environ, prep.program)
        s.append(task_id, [("evidence.prepared", {"run_id": prep.run_id, "type": p.etype, "command": prep.shown,
                                                   "tree": prep.tree, "head": prep.head, "started_at": now_iso()})])
        ran = _run_and_judge(git, config, p, cwd, site, prep)
    log_text, truncated = outputcut.log_text(ran.result.combined, redactor, config.log_cap_bytes)
    log_raw = log_text.encode("utf-8")
    record = _record(config, redactor, p, site, prep, ran, log_raw, truncated)
    if watch is not None:
        watch.after(ran.result.started_at)
        record.update(watch.fields(redactor))
    listing = cases_text(ran.cases, redactor) if ran.cases else None
    if listing is not None:
        record.update(cases=f"{p.etype}.cases", cases_digest=digest(listing))
    raw = _record_bytes(record, ran.error)
    folder = s.layout.root
    task = paths.task_folder(task_id)
    files = {folder / evidence_rel(task, p.etype): raw, folder / f"{task}/evidence/{p.etype}.log": log_raw}
    if listing is not None:
        files[folder / f"{task}/evidence/{p.etype}.cases"] = listing
    s.append(task_id, [("evidence.collected", {
        "run_id": prep.run_id, "type": p.etype, "digest": digest(raw), "outcome": ran.outcome,
        "exit_code": ran.result.exit_code, "tree": prep.tree, "head": prep.head,
        # a run during which the source changed judged neither tree: convergence must know
        **({"tree_after": record["tree_after"]} if record["tree_after"] else {})})], extra_files=files)
    return record, _exit_status(ran.result.exit_code, ran.outcome, site)


def _load_what_follows() -> None:
    """Import the modules the rest of a recording needs (its store writes, and the `Next:` judged after it) while the
    source is measured beside it: the thread's git processes leave this one waiting, and importing them after, one
    by one as each is first used, was some 5 ms on the recording's path. Nothing is run."""
    from harness.core import converge, gate_checks  # noqa: F401
    from harness.gate import config_approval, facts, loosening, steps_now  # noqa: F401
    from harness.gitio import fast_path  # noqa: F401
    from harness.store import ledger_memo, plain_yaml_writer, schema_valid  # noqa: F401


def _suite_run(git: ProcessGit, s: TaskStore, etype: str) -> RunWatch | None:
    """Before the suite's own test command runs in the checkout: the checkout's bytecode caches go, so the run
    writes its own and PASS_TO_PASS may reuse it (evidence/suite_caches.py, read 67's F-0229, read 71); and what
    watches whether it may, as it runs (read 110's F-0391, F-0393). None for any other run."""
    from harness.core.suite import DEFAULT_TEST_TYPE
    from harness.evidence import suite_caches

    try:
        spec = settings.load_gate(s.layout).suite
    except HarnessError:
        return None  # a gate no reader accepts: the gate refuses it, and no run is reused without one
    if spec and etype == spec.get("test_type", DEFAULT_TEST_TYPE):
        suite_caches.clear(git, s.layout.root)
        return suite_caches.RunWatch(git, s.layout.root, spec.get("paths", []))
    return None


def _runnable_argv(git: ProcessGit, p: Plan, cwd: Path, site: Site | None) -> list[str]:
    """The argv the run will start, refused now rather than by the runner: after `evidence.prepared`
    a refusal would leave a run that never finishes, read as "outcome unknown" until re-collected."""
    run_argv = runner.checked_argv(p.command, p.shell, cwd)
    refuse_a_tree_runner(git, p.etype, p.command, p.shell, cwd, dict(site.env if site else os.environ),
                         git.root if site else None)
    return run_argv


def refuse_a_tree_runner(git: ProcessGit | Git, etype: str, command: list[str] | str, shell: bool, cwd: Path,
                         environ: dict[str, str], checkout: Path | None = None) -> None:
    """Refused (:func:`shadowed`) when the runner ``command`` starts is a file of the source tree; ``checkout``, for a
    run in a temporary worktree. Asked before PASS_TO_PASS runs anything, the base's run included (read 136's
    F-0486): the runner that measured the base decides which of its cases are protected."""
    given = dict(environ)  # before the first command's assignments: they hold for that command alone (F-0507)
    words = _shell_words(command, environ) if shell else list(command)
    if words is None:  # its runner would go unchecked (F-0348)
        raise Refused(f"not running {etype}: cannot tell which program the shell line runs first (it starts with "
                      f"an operator, a redirection's target is an expansion, or it defines a function), so whether "
                      f"the tree supplies it was not checked",
                      hint="start the line with its command (`python3 -m pytest -q </dev/null`), or name a script "
                           "by its path")
    why = shadowed(words, cwd, environ, git.is_ignored, checkout) if words else None
    if why is None and shell:
        why = _shadowed_in_line(command, cwd, given, git.is_ignored, checkout)
    if why:
        raise Refused(f"not running {etype}: {why}")


def _shadowed_in_line(command: list[str] | str, cwd: Path, environ: dict[str, str], ignored: Callable[[str], bool],
                      checkout: Path | None) -> str | None:
    """:func:`shadowed` for every command the shell line runs, looked up on every PATH it assigns, its expansions
    expanded (:mod:`.shell_paths`): `PATH="$PWD/bin:$PATH" pytest`, `export PATH=bin:$PATH; pytest` (read 140's
    suggestion, named as a limit until now). A PATH only the shell can compute is refused, not guessed."""
    from harness.evidence.shell_paths import line_runners

    text = shlex.join(command) if isinstance(command, list) else command
    try:
        commands, paths = line_runners(text, environ, os.path.realpath(cwd))
    except HarnessError as exc:
        return exc.message
    assigned = [f"PATH={value}" for value in paths]
    return next(filter(None, (shadowed([*words, *assigned], cwd, environ, ignored, checkout) for words in commands)),
                None)


def _shell_words(command: list[str] | str, environ: dict[str, str]) -> list[str] | None:
    """The first words a shell runs of ``command`` (a list is quoted word by word, as the runner hands it over):
    those of its first simple command written as plain words, past redirections and an opening `(`, `{` or `!`,
    before any control operator, expansion or glob (:func:`first_command`), after the variable assignments that
    lead them, which are put in ``environ`` (a PATH among them is the one the program is looked up on). What an
    expansion, a later command of a list or pipeline, or a function names is not known before the shell runs, so
    it is not checked (docs/threat-model.md). None when the first command cannot be read so (F-0348)."""
    from harness.core.shell_syntax import first_command

    text = shlex.join(command) if isinstance(command, list) else command
    head = first_command(text)
    if head is None:
        return None
    words = shlex.split(head)
    while words and _assignment(words[0]):
        name, value = words.pop(0).split("=", 1)
        environ[name] = value
    return words


def _assignment(word: str) -> bool:
    name, eq, _ = word.partition("=")
    return bool(eq) and name.isidentifier() and name.isascii()


@dataclass(frozen=True)
class _Prepared:
    """What is fixed before the command starts: the source it is evidence about, the command as recorded."""

    run_id: str
    head: str | None
    tree: str
    dirty: bool
    environ: dict[str, str]
    program: str | None
    shown: str
    argv: list[str]
    junit_before: tuple | None                   # the report's stat before the run: a report left over is no report
    files: Snapshot                              # the source's files' and folders' stat before it was measured


class _Beside:
    """``call()`` run in a thread beside the caller's work: :meth:`result` waits for it and gives its value, or
    raises what it raised; the block waits for it too, however it ends (nothing it made is left behind)."""

    def __init__(self, call: Callable[[], Any]) -> None:
        import threading

        self._call = call
        self._out: list[tuple[bool, Any]] = []
        self._thread = threading.Thread(target=self._run, name="harness-source-before")

    def _run(self) -> None:
        try:
            self._out.append((True, self._call()))
        except BaseException as exc:  # handed to result(), in the caller's thread
            self._out.append((False, exc))

    def __enter__(self) -> _Beside:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._thread.join()

    def result(self) -> Any:
        self._thread.join()
        ok, value = self._out[0]
        if not ok:
            raise value
        return value


def _source_before(git: ProcessGit) -> tuple[str | None, str, bool, Snapshot]:
    """(HEAD, the source tree, whether it differs from HEAD's, each source file's stat taken before the tree)
    *before* the command starts (what was tested is what existed then). Every file is hashed: an index entry's
    stat data is no proof of its blob (F-0333)."""
    head = git.head()
    files = git.source_stat()  # before the tree: a file written after this is seen after the run (F-0334)
    with git.differs_from_commit_started(head) as differs:  # HEAD's tree read while the source is measured
        tree = git.hashed_source_tree()
        return head, tree, differs(tree), files


def _prepare(git: ProcessGit, p: Plan, cwd: Path, site: Site | None, run_argv: list[str], redactor: Redactor,
             before: tuple[str | None, str, bool, Snapshot]) -> _Prepared:
    """What is fixed before the command starts, ``before`` the source it is evidence about (:func:`_source_before`)."""
    head, tree, dirty, files = before
    run_id = os.urandom(8).hex()  # secrets.token_hex(8) exactly, without importing secrets' hmac and random
    environ = site.env if site else dict(os.environ)
    program = program_of(run_argv, cwd, environ)
    shown, argv = shown_command(p.command, redactor)
    if p.junit and site:
        (cwd / p.junit).parent.mkdir(parents=True, exist_ok=True)
    junit_before = _stat_key(cwd / p.junit) if p.junit else None
    return _Prepared(run_id, head, tree, dirty, environ, program, shown, argv, junit_before, files)


@dataclass(frozen=True)
class _Ran:
    """What the run did: its result, the source tree after it, and the outcome its report (or site) decided."""

    result: runner.RunResult
    tree_after: str | None                       # None: the source did not change while it ran
    counts: dict
    cases: dict[str, str]
    outcome: str
    extra: dict[str, Any]                        # the site's own record fields
    error: str | None                            # why the report does not count, else the runner's error


def _run_and_judge(git: ProcessGit, config: settings.Config, p: Plan, cwd: Path, site: Site | None,
                   prep: _Prepared) -> _Ran:
    result = runner.run_command(p.command, shell=p.shell, cwd=cwd, timeout=p.timeout, env=site.env if site else None,
                                head_cap=config.log_cap_bytes // 2, tail_cap=config.log_cap_bytes // 2)
    tree_after = _source_after(git, prep)
    unrun = result.exit_code is None
    counts, cases, junit_error = ({}, {}, None) if unrun else _junit_report(p, cwd, prep.junit_before)
    if junit_error and site and site.unreported and not unrun:
        shown = site.unreported((result.combined.head + result.combined.tail).decode("utf-8", "replace"))
        cases, junit_error = (shown, None) if shown is not None else (cases, junit_error)
    cases = tree_relative(cases, cwd)
    if site and site.completed and not junit_error and not unrun:
        cases = site.completed(cases)
    outcome = result.outcome
    extra: dict[str, Any] = {}
    if site and outcome in ("passed", "failed"):
        passed, extra = site.assess(cases) if not junit_error else (False, {})
        outcome = "passed" if passed else "failed"
    elif outcome == "passed" and (junit_error or counts.get("failed") or counts.get("errors")):
        outcome = "failed"  # exit 0 does not outvote a report of failures, or a missing report
    return _Ran(result, tree_after, counts, cases, outcome, extra, junit_error or result.error)


def _source_after(git: ProcessGit, prep: _Prepared) -> str | None:
    """The source tree after the run when the source changed while it ran, else None. Measured afresh, as the gate
    measures (nothing of the measurement before it outlives it, F-0056); the same tree with a file of it written
    in between (its stat, taken after this, is not the stat taken before the first tree) is a change too: the
    bytes were put back, and the command may have run on others (F-0334); so is a folder on a file's path renamed
    away and back (F-0347)."""
    tree_after = git.worktree_source_tree()
    if tree_after != prep.tree or not prep.files.kept_by(git.source_stat()):
        return tree_after
    return None


def _record(config: settings.Config, redactor: Redactor, p: Plan, site: Site | None, prep: _Prepared, ran: _Ran,
            log_raw: bytes, truncated: bool) -> dict[str, Any]:
    """The evidence record, every text in it redacted."""
    from harness.store.secrets_check import redact_data

    result, counts = ran.result, ran.counts
    return {
        "type": p.etype, "run_id": prep.run_id, "timestamp": _iso(result.started_at),
        "started_at": _iso(result.started_at), "finished_at": _iso(result.finished_at),
        "duration_s": round(result.duration_s, 3), "command": prep.shown, "argv": prep.argv,
        "command_digest": site.digest if site else configured_digest(config, p),
        **{k: v and redactor.redact(v) for k, v in program_fields(prep.program).items()},
        "env": recorded_env(list(config.recorded_env), prep.environ, redactor), "shell": p.shell,
        "outcome": ran.outcome, "exit_code": result.exit_code, "commit": prep.head,
        "tree": prep.tree, "tree_after": ran.tree_after,
        "dirty": prep.dirty,
        "passed": counts.get("passed"), "failed": counts.get("failed"), "skipped": counts.get("skipped"),
        "errors": counts.get("errors"), "junit": p.junit and redactor.redact(p.junit),
        **dict(zip(("stdout_tail", "stderr_tail"), outputcut.stream_tails(
            result.stdout, result.stderr, result.combined, config.tail_bytes, redactor))),
        "log": f"{p.etype}.log", "log_bytes": len(log_raw), "log_digest": digest(log_raw),
        "output_bytes": result.combined.total_bytes, "log_truncated": truncated,
        # Errors quote the command ("command not found: DB_PASSWORD=...") or the report.
        "error": ran.error and redactor.redact(ran.error),
        **redact_data(ran.extra, redactor),  # case ids a test names after a token are text like any
    }


def _record_bytes(record: dict[str, Any], error: str | None) -> bytes:
    """The record as written; its output tails dropped (in ``record`` too) when it would exceed its reader's cap."""
    raw = (json.dumps(record, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
    if len(raw) > bounded.CAPS["evidence"]:  # a record every reader refuses would brick the type
        dropped = "output tails dropped: the record would exceed the size its reader accepts; the log keeps them"
        record.update(stdout_tail="", stderr_tail="", error=f"{record['error']} ({dropped})" if error else dropped)
        raw = (json.dumps(record, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
    return raw


def _exit_status(exit_code: int | None, outcome: str, site: Site | None) -> int:
    """The exit status `harness evidence` exits with: the command's, unless the outcome says otherwise."""
    code = exit_code if exit_code is not None else EXIT_FOR[outcome]
    if outcome in EXIT_FOR:
        code = EXIT_FOR[outcome]
    elif site:
        code = 0 if outcome == "passed" else 1  # the cases decided, not the exit
    elif outcome == "failed" and code == 0:
        code = 1
    return code
