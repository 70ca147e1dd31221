"""`harness init` text reporters (its JSON: the results' ``as_dict()``)."""

from __future__ import annotations

import click

from harness.cli.progress import print_next
from harness.cli.reporters import report as report  # what `harness init` calls
from harness.cli.reporters import text_report
from harness.install.initialize import Initialized, Restored


@text_report.register
def restored_text(r: Restored) -> None:
    rel = r.done.layout.rel(r.done.layout.gate)
    if r.head:
        click.echo(f"restored {rel} as HEAD ({r.head[:12]}) holds it")
    elif r.head_invalid:
        click.echo(f"restored {rel} as `harness init` writes it: HEAD's does not validate ({r.head_invalid}), and "
                   "until a commit fixes it the gate takes any gate.yaml that does")
    else:
        click.echo(f"restored {rel} as `harness init` writes it (HEAD holds none)")
    print_next(r.steps())


@text_report.register
def initialized_text(done: Initialized) -> None:
    layout, created = done.layout, done.created
    if not created:
        click.echo(f"{layout.rel(layout.harness)}/ already initialized in {layout.root}; nothing changed")
        return
    click.echo(f"initialized {layout.rel(layout.harness)}/ in {layout.root}: " + ", ".join(created))
    if layout.rel(layout.gate) in created:
        _gate_text(done)
    print_next(done.steps())


def _gate_text(done: Initialized) -> None:
    """What the gate.yaml init wrote requires and protects, and which folders of tests it leaves open."""
    configured, found, suite_paths = done.configured, done.found, done.suite_paths
    if configured:
        click.echo(f"gate.yaml requires the evidence types config.yaml configures: {', '.join(configured)}")
    if suite_paths and not done.names_tests():
        # A configuration alone is no test suite: say what was protected, not that tests were (read 81's F-0292).
        click.echo(f"gate.yaml protects pytest's configuration files ({', '.join(suite_paths)}) and requires "
                   "pass_to_pass, but found no test files: name your tests' paths in its suite.paths")
    elif suite_paths:
        named = done.named_by_commands()
        also = f", and the files the evidence commands name ({', '.join(named)})" if named else ""
        click.echo(f"gate.yaml protects the test suite it found ({', '.join(suite_paths)}){also} and requires "
                   "pass_to_pass: the tests as they were at a task's base must still pass")
    elif found:
        click.echo(f"gate.yaml does not require pass_to_pass: config.yaml's unit_test command names no junit: report, "
                   "and PASS_TO_PASS compares test cases; add one (pytest: --junitxml=.harness/local/junit.xml) "
                   f"and a suite: section protecting {', '.join(found[:3])}… to turn it on")
    else:
        click.echo("no Python test suite found (tests/, test_*.py, conftest.py, pytest configuration): gate.yaml "
                   "has no suite: section; add one naming your tests' paths to protect them (README: what "
                   "passing means)")
    _unprotected_text(done.unprotected)


def _unprotected_text(folders: list[str]) -> None:
    """A layout init does not know is named, not left half protected (read 148's F-0524): in these folders only the
    test modules are protected, not the helper modules and data beside them the tests read."""
    if not folders:
        return
    listed = ", ".join(f"{d}/" for d in folders)
    paths = ", ".join(f"`{d}/**`" for d in folders)
    click.echo(f"test files lie outside every folder gate.yaml protects whole, in {listed}: there only the test "
               "modules themselves are protected, not the helper modules and data files beside them; where such a "
               f"folder holds only tests and what they read, add {paths} to gate.yaml's suite.paths — a human's "
               "call: code in a protected folder would be measured as the base has it")
