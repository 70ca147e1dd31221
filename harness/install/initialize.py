"""`harness init`: create .harness/ in a git work tree (idempotent), its gate.yaml fitted to what the
repository already has: the evidence types config.yaml configures and the test suite git sees."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from harness import paths, resources
from harness.core.suite import with_suite
from harness.store import fsio
from harness.store.layout import Layout, find_worktree

if TYPE_CHECKING:
    from harness.core.next_step import NextStep

GITIGNORE = (b"# per-clone state: lock, redo log, current-task choice, caches\n/local/\n"
             b"# temp files of an interrupted write (swept by the next harness command)\n.*.tmp\n")


class Initialized(NamedTuple):
    layout: Layout
    created: list[str]        # the files written, relative to the root (existing files are kept)
    configured: list[str]     # the evidence types config.yaml configures
    found: list[str]          # the test-suite patterns matching files git sees
    suite_paths: list[str]    # those gate.yaml protects (none when the test command writes no report)
    unprotected: list[str]    # folders of test files no found path protects whole (read 148's F-0524)

    def steps(self) -> list[NextStep]:
        from harness.core import next_step

        return next_step.after_init(bool(self.configured)) if self.created else []

    def as_dict(self) -> dict[str, Any]:
        """`harness init --json`: what was written, what gate.yaml protects and which folders of tests it leaves open,
        each with the path that would protect it (the suite init finds now: gate.yaml holds it where ``created``
        names gate.yaml)."""
        from harness.core.next_step import as_data

        return {"root": str(self.layout.root), "created": self.created, "configured": self.configured,
                "found": self.found, "suite_paths": self.suite_paths, "names_tests": self.names_tests(),
                "named_by_commands": self.named_by_commands(),
                "unprotected_test_folders": [{"folder": d, "suite_path": f"{d}/**"} for d in self.unprotected],
                "next": as_data(self.steps())}

    def named_by_commands(self) -> list[str]:
        return _named_by_commands(self.layout)

    def names_tests(self) -> bool:
        """Whether gate.yaml's suite names tests, not only pytest's configuration files, or the evidence commands name
        files of the tree (a root `test.py`), protected as tests (read 81's F-0292)."""
        from harness.core.suite import names_tests

        return names_tests(self.suite_paths) or bool(self.named_by_commands())


def initialize() -> Initialized:
    """Write what .harness/ lacks in the work tree holding the current folder; refused outside one."""
    layout = Layout(find_worktree())
    _refuse_a_linked_folder(layout)
    created = []
    if not layout.config.exists():
        fsio.atomic_write(layout.config, resources.template("config.yaml"))
        created.append(layout.rel(layout.config))
    configured = _configured(layout)
    files = _source_files(layout)
    configs = _pytest_configs(layout, files)
    found = _suite_paths(files, configs)
    no_report = _test_command_without_report(layout)
    suite_paths = [] if no_report else found
    for path, data in (
        (layout.gate, _inits_gate(configured, suite_paths)),
        (layout.harness / ".gitignore", GITIGNORE),
    ):
        if not path.exists():
            fsio.atomic_write(path, data)
            created.append(layout.rel(path))
    for folder in (layout.tasks, layout.local):
        folder.mkdir(parents=True, exist_ok=True)
    return Initialized(layout, created, configured, found, suite_paths, _unprotected(files, found, configs))


class Restored(NamedTuple):
    done: Initialized         # what init did beside it (what .harness/ lacked)
    head: str | None          # HEAD's commit id when its gate.yaml was put back; None: init's policy was written
    head_invalid: str | None  # why HEAD's gate.yaml was not put back: it does not validate

    def steps(self) -> list[NextStep]:
        from harness.core.next_step import NextStep

        return [NextStep("harness status", "the gate judges under the restored policy")]

    def as_dict(self) -> dict[str, Any]:
        """`harness init --restore-gate --json`: which policy gate.yaml holds now (HEAD's, or init's where ``head`` is
        None, with why HEAD's was not taken)."""
        from harness.core.next_step import as_data

        return {"restored": self.done.layout.rel(self.done.layout.gate), "head": self.head,
                "head_invalid": self.head_invalid, "next": as_data(self.steps())}


def restore_gate() -> Restored:
    """Put .harness/gate.yaml back as the policy the gate compares it with, read as the gate reads it: HEAD's file,
    or, where HEAD holds none (the harness adopted and not committed yet, an unborn branch; a committed link is no
    policy), the one :func:`initialize` writes. What clears a loosening no human approved or a gate.yaml that does
    not validate (read 116's F-0417: `git checkout HEAD -- …` fails where HEAD holds none). Where HEAD's does not
    validate, the gate takes any valid gate.yaml, and init's is written (read 117: HEAD's put back was refused
    again). Everything is read and checked before gate.yaml is replaced: a refusal leaves it as it was."""
    from harness.errors import HarnessError
    from harness.store import settings

    done = initialize()  # what .harness/ lacks, first: a failure there touches no existing file
    raw, head = _committed_gate(done.layout)
    invalid = None
    if raw is not None:
        try:
            settings.parse_gate(raw)
        except HarnessError as exc:
            raw, invalid = None, exc.message
    fsio.atomic_write(done.layout.gate, raw if raw is not None else _inits_gate(done.configured, done.suite_paths))
    return Restored(done, head if raw is not None else None, invalid)


def _committed_gate(layout: Layout) -> tuple[bytes | None, str | None]:
    """HEAD's gate.yaml as the gate reads it (harness.gate.evaluate.checked_policy: through the repository itself,
    whatever GIT_* variables point git elsewhere; a link is no file), and HEAD's id; None for each on an unborn
    branch."""
    from harness.gitio.git import Git
    from harness.gitio.tree_source import of_head

    head = of_head(Git(layout.root))
    return (head.read(paths.GATE), head.rev) if head is not None else (None, None)


def _inits_gate(configured: list[str], suite_paths: list[str]) -> bytes:
    """The gate.yaml init writes: the evidence types config.yaml configures required, the suite found protected."""
    return with_suite(resources.default_gate(configured).decode("utf-8"), suite_paths).encode("utf-8")


def _refuse_a_linked_folder(layout: Layout) -> None:
    """Nothing is written through a `.harness` that is a link (read 117: --restore-gate replaced a file elsewhere):
    git commits the link, not what it points to, and every reader refuses it."""
    if layout.harness.is_symlink():
        from harness.errors import HarnessError

        raise HarnessError(f"{paths.HARNESS}: a symlink (git would commit the link, not the files it points to): "
                           "nothing written", hint="replace the link with the real folder")


def _configured(layout: Layout) -> list[str]:
    from harness.gate.facts import configured_types
    from harness.store.source import FsSource

    return configured_types(FsSource(layout.root))


def _suite_paths(files: list[str], configs: dict[str, str]) -> list[str]:
    """The protected-suite patterns that match ``files``, those git sees here (tracked, or untracked and not ignored),
    with the tests the project's pytest configuration files ``configs`` name (its `testpaths`, `python_files`: read
    81's F-0292)."""
    from harness.core.suite import detected

    return detected(files, configs)


def _unprotected(files: list[str], found: list[str], configs: dict[str, str]) -> list[str]:
    """The folders of test files among ``files`` (by pytest's default names and the `python_files` of ``configs``:
    read 151's F-0532) that the suite ``found`` does not protect whole (read 148's F-0524)."""
    from harness.core.pytest_startup import collected
    from harness.core.suite import unprotected_test_folders

    return unprotected_test_folders(files, found, collected(configs))


def _pytest_configs(layout: Layout, files: list[str]) -> dict[str, str]:
    """path -> text of the pytest configuration files among ``files`` (one that cannot be read is left out)."""
    from harness.errors import HarnessError
    from harness.store import bounded

    configs = {}
    for rel in files:
        if rel.rsplit("/", 1)[-1] in paths.PYTEST_CONFIGS:
            try:
                raw = bounded.read(layout.root / rel, "input")
            except HarnessError:
                continue
            if raw is not None:
                configs[rel] = raw.decode("utf-8", errors="replace")
    return configs


def _named_by_commands(layout: Layout) -> list[str]:
    """Files of the tree config.yaml's commands name (a root test.py, a script): protected like tests
    whatever suite.paths says, so the summary names them too."""
    from harness.core.suite import named_files
    from harness.errors import HarnessError
    from harness.store import settings

    try:
        commands = [c.argv for c in settings.load_config(layout).commands.values()]
    except HarnessError:
        return []
    return sorted(named_files(commands, set(_source_files(layout))))


def _source_files(layout: Layout) -> list[str]:
    """The files git sees here (tracked, or untracked and not ignored), .harness/ left out."""
    from harness.gitio.git import Git

    listed = Git(layout.root).run(["ls-files", "-z", "--cached", "--others", "--exclude-standard"])
    return [f for f in listed.split("\0") if f and not f.startswith(paths.HARNESS + "/")]


def _test_command_without_report(layout: Layout) -> bool:
    """Whether config.yaml already names a unit_test command that writes no JUnit report (PASS_TO_PASS
    could never run: init does not require it)."""
    from harness.errors import HarnessError
    from harness.store import settings

    try:
        conf = settings.load_config(layout).commands.get("unit_test")
    except HarnessError:
        return False
    return conf is not None and not conf.junit
