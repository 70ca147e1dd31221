"""`harness init`: create .harness/ in a git work tree (idempotent), its gate.yaml fitted to what the
repository already has: the evidence types config.yaml configures and the test suite git sees."""

from __future__ import annotations

from typing import NamedTuple

from harness import paths, resources
from harness.core.suite import with_suite
from harness.store import fsio
from harness.store.layout import Layout, find_worktree

GITIGNORE = (b"# per-clone state: lock, redo log, current-task choice, caches\n/local/\n"
             b"# temp files of an interrupted write (swept by the next harness command)\n.*.tmp\n")


class Initialized(NamedTuple):
    layout: Layout
    created: list[str]        # the files written, relative to the root (existing files are kept)
    configured: list[str]     # the evidence types config.yaml configures
    found: list[str]          # the test-suite patterns matching files git sees
    suite_paths: list[str]    # those gate.yaml protects (none when the test command writes no report)

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
    created = []
    if not layout.config.exists():
        fsio.atomic_write(layout.config, resources.template("config.yaml"))
        created.append(layout.rel(layout.config))
    configured = _configured(layout)
    found = _suite_paths(layout)
    no_report = _test_command_without_report(layout)
    suite_paths = [] if no_report else found
    for path, data in (
        (layout.gate, with_suite(resources.default_gate(configured).decode("utf-8"), suite_paths).encode("utf-8")),
        (layout.harness / ".gitignore", GITIGNORE),
    ):
        if not path.exists():
            fsio.atomic_write(path, data)
            created.append(layout.rel(path))
    for folder in (layout.tasks, layout.local):
        folder.mkdir(parents=True, exist_ok=True)
    return Initialized(layout, created, configured, found, suite_paths)


def restore_gate() -> tuple[Initialized, str | None]:
    """Put .harness/gate.yaml back as the policy the gate compares it with: HEAD's file, or, where HEAD holds none (the
    harness adopted and not committed yet, an unborn branch), the one :func:`initialize` writes. What clears a
    loosening no human approved or a gate.yaml that does not validate (read 116's F-0417: `git checkout HEAD -- …`
    fails where HEAD holds none). Returns what init then did and HEAD's commit id (None: init's policy)."""
    from harness.gitio.fast_path import CommitFiles

    layout = Layout(find_worktree())
    head = CommitFiles.of_head(layout.root)
    raw = head.read(paths.GATE) if head is not None else None
    if raw is not None:
        fsio.atomic_write(layout.gate, raw)
    elif layout.gate.exists() or layout.gate.is_symlink():
        layout.gate.unlink()
    return initialize(), head.commit if head is not None and raw is not None else None


def _configured(layout: Layout) -> list[str]:
    from harness.gate.facts import configured_types
    from harness.store.source import FsSource

    return configured_types(FsSource(layout.root))


def _suite_paths(layout: Layout) -> list[str]:
    """The protected-suite patterns that match files git sees here (tracked, or untracked and not ignored), with the
    tests the project's pytest configuration names (its `testpaths`, `python_files`: read 81's F-0292)."""
    from harness.core.suite import detected

    files = _source_files(layout)
    return detected(files, _pytest_configs(layout, files))


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
