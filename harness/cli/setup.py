"""`harness init`: create .harness/ in a git work tree (idempotent)."""

from __future__ import annotations

import click


@click.command()
@click.option("--restore-gate", is_flag=True,
              help="Put .harness/gate.yaml back as HEAD holds it, or as init writes it where HEAD holds none: what "
                   "clears a gate.yaml the gate refuses (a loosening no human approved, a file that does not "
                   "validate). Other existing files are kept.")
def init(restore_gate: bool) -> None:
    """Create .harness/ with config.yaml and gate.yaml (existing files are kept).

    gate.yaml requires the evidence types config.yaml configures (build and unit_test when
    it configures none yet). Set the commands before the first commit of .harness/: after
    it, changing one needs a human's `harness approve config-change`.

    Refuses outside a git work tree: evidence is bound to git trees.
    """
    from harness.install.initialize import initialize
    from harness.install.initialize import restore_gate as restore

    if restore_gate:
        done, head, head_invalid = restore()
        rel = done.layout.rel(done.layout.gate)
        if head:
            click.echo(f"restored {rel} as HEAD ({head[:12]}) holds it")
        elif head_invalid:
            click.echo(f"restored {rel} as `harness init` writes it: HEAD's does not validate ({head_invalid}), and "
                       "until a commit fixes it the gate takes any gate.yaml that does")
        else:
            click.echo(f"restored {rel} as `harness init` writes it (HEAD holds none)")
        from harness.cli.progress import print_next
        from harness.core.next_step import NextStep

        print_next([NextStep("harness status", "the gate judges under the restored policy")])
        return
    done = initialize()
    layout, created, configured, found, suite_paths = done
    if created:
        click.echo(f"initialized {layout.rel(layout.harness)}/ in {layout.root}: " + ", ".join(created))
        if layout.rel(layout.gate) in created and configured:
            click.echo(f"gate.yaml requires the evidence types config.yaml configures: {', '.join(configured)}")
        if layout.rel(layout.gate) in created and suite_paths and not done.names_tests():
            # A configuration alone is no test suite: say what was protected, not that tests were (read 81's F-0292).
            click.echo(f"gate.yaml protects pytest's configuration files ({', '.join(suite_paths)}) and requires "
                       "pass_to_pass, but found no test files: name your tests' paths in its suite.paths")
        elif layout.rel(layout.gate) in created and suite_paths:
            named = done.named_by_commands()
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
