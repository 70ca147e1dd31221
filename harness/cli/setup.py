"""`harness init`: create .harness/ in a git work tree (idempotent)."""

from __future__ import annotations

import click

from harness import paths, resources
from harness.core.suite import with_suite
from harness.store import fsio
from harness.store.layout import Layout, find_worktree

GITIGNORE = (b"# per-clone state: lock, redo log, current-task choice, caches\n/local/\n"
             b"# temp files of an interrupted write (swept by the next harness command)\n.*.tmp\n")


@click.command()
def init() -> None:
    """Create .harness/ with config.yaml and gate.yaml (existing files are kept).

    gate.yaml requires the evidence types config.yaml configures (build and unit_test when
    it configures none yet). Set the commands before the first commit of .harness/: after
    it, changing one needs a human's `harness approve config-change`.

    Refuses outside a git work tree: evidence is bound to git trees.
    """
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
    if created:
        click.echo(f"initialized {layout.rel(layout.harness)}/ in {layout.root}: " + ", ".join(created))
        if layout.rel(layout.gate) in created and configured:
            click.echo(f"gate.yaml requires the evidence types config.yaml configures: {', '.join(configured)}")
        if layout.rel(layout.gate) in created and suite_paths:
            named = _named_by_commands(layout)
            also = f", and the files the evidence commands name ({', '.join(named)})" if named else ""
            click.echo(f"gate.yaml protects the test suite it found ({', '.join(suite_paths)}){also} and requires "
                       "pass_to_pass: the tests as they were at a task's base must still pass")
        elif layout.rel(layout.gate) in created and found:
            click.echo(f"gate.yaml does not require pass_to_pass: config.yaml's unit_test command names no junit: report, "
                       "and PASS_TO_PASS compares test cases; add one (pytest: --junitxml=.harness/local/junit.xml) "
                       f"and a suite: section protecting {', '.join(found[:3])}… to turn it on")
        elif layout.rel(layout.gate) in created:
            click.echo("no Python test suite found (tests/, test_*.py, conftest.py, pytest configuration): gate.yaml "
                       "has no suite: section; add one naming your tests' paths to protect them (README: what "
                       "passing means)")
        from harness.cli.progress import print_next
        from harness.core import next_step

        print_next(next_step.after_init(bool(configured)))
    else:
        click.echo(f"{layout.rel(layout.harness)}/ already initialized in {layout.root}; nothing changed")


def _configured(layout: Layout) -> list[str]:
    from harness.gate.facts import configured_types
    from harness.store.source import FsSource

    return configured_types(FsSource(layout.root))


def _suite_paths(layout: Layout) -> list[str]:
    """The protected-suite patterns that match files git sees here (tracked, or untracked and not ignored)."""
    from harness.core.suite import detected

    return detected(_source_files(layout))


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
