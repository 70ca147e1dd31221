"""The `harness` command: a thin click front end over the store and the pure core.

Subcommands live in their own modules and are imported only when invoked, so that
`harness status` does not pay for pygit2 or for writers' imports it does not need.
"""

from __future__ import annotations

import contextlib
import importlib
import sys

import click

from harness.errors import EXIT_INTERRUPTED, EXIT_INVALID, HarnessError

# name -> (module, attribute, one-line help shown by `harness --help`)
COMMANDS = {
    "init": ("harness.cli.setup", "init", "Create .harness/ in this git repository."),
    "task": ("harness.cli.task", "task", "Create, list and switch tasks; link their design and plan."),
    "status": ("harness.cli.status", "status", "Show the current task: state, requirements, evidence, gate."),
    "transition": ("harness.cli.lifecycle", "transition", "Move the task to another state, if the rules allow it."),
    "validate-transition": ("harness.cli.lifecycle", "validate_transition", "Check a transition against the table (exit 0/1)."),
    "replay": ("harness.cli.lifecycle", "replay", "Rebuild lifecycle fields from the ledger and compare with the files."),
    "requirement": ("harness.cli.items", "requirement", "Add requirements and set their status."),
    "invariant": ("harness.cli.items", "invariant", "Add invariants and set their status."),
    "contract": ("harness.cli.contract", "contract", "Draft, check and apply the task contract (requirements, invariants, plan)."),
    "finding": ("harness.cli.findings", "finding", "Propose, reproduce, reject, fix and verify reviewer findings."),
    "review": ("harness.cli.review", "review", "Write the adversarial-review packet for a fresh reviewer."),
    "evidence": ("harness.cli.evidence", "evidence", "Run a real command and record it as evidence."),
    "gate": ("harness.cli.gate", "gate", "Evaluate the quality gate (exit 0 PASS, 1 BLOCKED, 2 invalid)."),
    "converge": ("harness.cli.converge", "converge", "Decide the fix loop: CONVERGED (0), CONTINUE (1) or ESCALATE (3) with a reason."),
    "stamp": ("harness.cli.hooks", "stamp", "Record a git note on a commit: task states, gate, fresh evidence."),
    "audit": ("harness.cli.audit", "audit", "Check every commit of a range like the push guard (for CI)."),
    "metrics": ("harness.cli.metrics", "metrics", "Success rates from history: false done, findings, bypass, convergence."),
    "install": ("harness.cli.install", "install", "Install native git hook shims (without the pre-commit framework)."),
    "uninstall": ("harness.cli.install", "uninstall", "Remove the native shims, restoring chained hooks."),
    "approve": ("harness.cli.approve", "approve", "A human approves a gate.yaml loosening, an evidence-command change or a change of spec in the protected suite (interactive only)."),
    "agent": ("harness.cli.agent", "agent", "Install the agent hooks into Claude Code, Codex or Gemini CLI."),
    "hook": ("harness.cli.hooks", "hook", "Entry points the git hooks and agent hooks call."),
    "skills": ("harness.cli.skills", "skills", "Install the agent skills where Claude Code, Codex or Gemini find them."),
}


class LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in COMMANDS:
            return None
        module, attr, _ = COMMANDS[name]
        return getattr(importlib.import_module(module), attr)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        # Help text from the table, so `harness --help` imports no subcommand module.
        with formatter.section("Commands"):
            formatter.write_dl([(name, short) for name, (_, _, short) in COMMANDS.items()])


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="engineering-harness", prog_name="harness")
def cli() -> None:
    """Engineering Harness: a task reaches DONE only through a deterministic gate.

    \b
    Typical flow:
      harness init
      harness task new "Add resumable execution"
      harness requirement add "Interrupted runs resume" --priority must
      harness transition SPECIFYING      (… PLANNED, IMPLEMENTING, VERIFYING …)
      harness status                     (every session starts here; it ends with Next:)
      harness gate                       (in GATING; then harness converge --apply)

    Exit codes: 0 ok, 1 refused, 2 invalid state or usage, 130 interrupted.
    """


def _check_utf8(argv: list[str]) -> None:
    # Undecodable bytes arrive as lone surrogates; they could never be written to a ledger line.
    for arg in argv:
        try:
            arg.encode("utf-8")
        except UnicodeEncodeError:
            raise HarnessError(f"argument {arg.encode('utf-8', 'backslashreplace').decode()!r} is not valid UTF-8") from None


def _wants_json(args: list[str]) -> bool:
    """`--json` among the harness's own options (not in a command given after `--`)."""
    return "--json" in (args[:args.index("--")] if "--" in args else args)


def _json_failure(args: list[str], message: str, hint: str | None, code: int) -> None:
    """A command asked for JSON that failed before printing any still answers in JSON on stdout:
    a program reading it gets the error, not an empty string it cannot parse."""
    if _wants_json(args):
        import json

        try:
            click.echo(json.dumps({"ok": False, "error": message, "hint": hint, "exit_code": code}, ensure_ascii=False))
        except OSError:
            pass  # stdout itself is what failed (a full disk, a closed pipe): stderr has said it


# What main() reports itself; anything else escaping a hook is a crash (harness.cli.crash).
REPORTED = (HarnessError, OSError, click.ClickException, click.exceptions.Exit, click.exceptions.Abort)


def main(argv: list[str] | None = None) -> int:
    from harness import context
    from harness.cli.streams import degrade_to_ascii

    degrade_to_ascii()  # (entry() did it already; main() is also called on its own)
    args = sys.argv[1:] if argv is None else list(argv)
    # One context per command (harness.context): nothing of a previous command's in this process.
    # The store does not print: a command that waits for the lock says so through us.
    with context.command(on_lock_wait=lambda message: click.echo(message, err=True)):
        return _run(args, argv)


def _run(args: list[str], argv: list[str] | None) -> int:
    try:
        # A hook that crashes refuses in one line naming a crash log; other commands keep the
        # traceback (a bug seen by whoever ran them).
        with _crash_guard() if args[:1] == ["hook"] else contextlib.nullcontext():
            _check_utf8(args)
            # Without standalone mode click returns ctx.exit()'s code instead of exiting.
            result = cli.main(args=argv, prog_name="harness", standalone_mode=False)
    except BaseException as exc:
        return failure_code(exc, args)
    return result if isinstance(result, int) else 0


def failure_code(exc: BaseException, args: list[str]) -> int:
    """The exit code of a command ``args`` that raised ``exc``, reported as every command reports it
    (the path answered before click, harness.cli.evidence_fast, too); anything else is raised again."""
    if isinstance(exc, HarnessError):
        if exc.exit_code == 1:  # a refusal: say what to do instead, as every other output does
            from harness.cli.progress import add_next_to_refusal

            add_next_to_refusal(exc, args)
        click.echo(f"harness: {exc.render()}", err=True)
        _json_failure(args, exc.message, exc.hint, exc.exit_code)
        return exc.exit_code
    if isinstance(exc, click.exceptions.Exit):
        return exc.exit_code
    if isinstance(exc, click.ClickException):
        exc.show()
        _json_failure(args, exc.format_message(), None, EXIT_INVALID)
        return EXIT_INVALID
    if isinstance(exc, (click.exceptions.Abort, KeyboardInterrupt)):
        click.echo("harness: interrupted", err=True)
        return EXIT_INTERRUPTED
    if isinstance(exc, BrokenPipeError):
        from harness.cli.plain_echo import reader_gone

        return reader_gone()
    if isinstance(exc, OSError):
        return report_os_error(exc, args)
    raise exc


def report_os_error(exc: OSError, args: list[str]) -> int:
    """A path the harness cannot use (a folder where a file belongs, no permission, a full disk)
    is the user's to fix: name it rather than print a traceback. Bugs still raise."""
    problem = _os_problem(exc)
    click.echo(f"harness: {problem.render()}", err=True)
    _json_failure(args, problem.message, problem.hint, EXIT_INVALID)
    return EXIT_INVALID


def _crash_guard() -> contextlib.AbstractContextManager[None]:
    from harness.cli import crash

    return crash.guard(crash.refuse, expected=REPORTED)


def _os_problem(exc: OSError) -> HarnessError:
    paths = " -> ".join(str(p) for p in (exc.filename, exc.filename2) if p is not None)
    what = exc.strerror or str(exc) or type(exc).__name__
    return HarnessError(f"{paths}: {what}" if paths else what,
                        hint="fix or move that path (the kind of file the harness expects there, writable), then run the command again")

