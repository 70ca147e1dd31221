"""`harness init`: create .harness/ in a git work tree (idempotent)."""

from __future__ import annotations

import click

from harness.cli.common import json_option


@click.command()
@click.option("--restore-gate", is_flag=True,
              help="Put .harness/gate.yaml back as HEAD holds it, or as init writes it where HEAD holds none: what "
                   "clears a gate.yaml the gate refuses (a loosening no human approved, a file that does not "
                   "validate). Other existing files are kept.")
@json_option
def init(restore_gate: bool, as_json: bool) -> None:
    """Create .harness/ with config.yaml and gate.yaml (existing files are kept).

    gate.yaml requires the evidence types config.yaml configures (build and unit_test when
    it configures none yet). Set the commands before the first commit of .harness/: after
    it, changing one needs a human's `harness approve config-change`. It protects the test
    folders it finds, and names any folder of test files it protects only by their names.

    Refuses outside a git work tree: evidence is bound to git trees.
    """
    from harness.cli.setup_report import report
    from harness.install.initialize import initialize
    from harness.install.initialize import restore_gate as restore

    report(restore() if restore_gate else initialize(), as_json)
