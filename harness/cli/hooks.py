"""Git-hook entry points: `harness hook validate|stamp|merge-guard|push-guard|run`, and `harness stamp`.

Each prints what it found and returns an exit code; the stamp hook never fails a commit.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import click

from harness.cli import agent_hook as agent_hook_args
from harness.cli.common import with_return_code
from harness.cli.gate_hook import gate_hook
from harness.errors import HarnessError

if TYPE_CHECKING:  # hook paths import lazily: these are for the annotations only
    from harness.gitio.git import Git
    from harness.history.change_rules import Problem


def _git() -> Git:
    from harness.history.hook_checks import hook_git

    return hook_git()


def print_problems(title: str, problems: list[Problem], commit: str | None = None) -> None:
    from harness.cli.launch import render_problems

    click.echo(render_problems(title, problems, commit), err=True)


@click.group()
def hook() -> None:
    """Entry points for git hooks (used by .pre-commit-hooks.yaml and `harness install`)."""


@hook.command("validate")
@click.argument("filenames", nargs=-1, expose_value=False)  # what the pre-commit framework may pass: unread
@with_return_code
def validate_cmd() -> int:
    """Validate the staged .harness/ state against HEAD (reads $GIT_INDEX_FILE)."""
    from harness.history.hook_checks import staged_problems

    problems = staged_problems(_git())
    if problems:
        print_problems("commit validation", problems)
        return 1
    return 0


hook.add_command(gate_hook)  # `harness hook gate`: the gate as a pre-commit framework hook


@hook.command("merge-guard")
@click.argument("filenames", nargs=-1, expose_value=False)  # what the pre-commit framework may pass: unread
@with_return_code
def merge_guard() -> int:
    """Refuse a merge bringing in a DONE commit without a fresh gate PASS at that commit
    (each incoming commit is validated against its parents, like the push guard does)."""
    from harness.history.hook_checks import merge_problems

    found = merge_problems(_git())
    for commit, problems in found:
        print_problems("merge guard", problems, commit)
    return 1 if found else 0


def _ref_lines_in() -> list[bytes]:
    """The lines git gives a push hook on stdin, as bytes: a ref name need not be UTF-8, whatever the locale."""
    if sys.stdin is None or sys.stdin.isatty():
        return []
    buffer = getattr(sys.stdin, "buffer", None)
    data = buffer.read() if buffer is not None else sys.stdin.read().encode("utf-8", "surrogateescape")
    return data.splitlines()


@hook.command("push-guard")
@click.argument("args", nargs=-1)
@with_return_code
def push_guard(args: tuple[str, ...]) -> int:
    """Validate every commit of a push (refs from stdin, or the pre-commit framework's env), and read every note its
    notes refs add for secrets."""
    from harness.history.hook_checks import pushed_bases, pushed_commits, pushed_line, pushed_notes, pushed_to

    git = _git()
    lines = _ref_lines_in()
    # A native pre-push hook gets (remote name, url); a push to a bare URL names no remote.
    url = args[1] if len(args) > 1 else None
    remote = args[0] if args and args[0] != url else None
    commits, warnings = pushed_commits(git, lines, remote)
    for warning in warnings:
        click.echo(f"harness: warning: {warning}", err=True)
    from harness.cli.audit import audit_commits
    from harness.history.audit_scope import signers_for

    # The notes the push adds, read for secrets (F-0355): refused beside the commits, as the push as a whole.
    # ... and the tasks it brings to a claim on a base the remote never had (F-0454): the remote's real tips are known
    # here alone.
    published = pushed_to(git, remote, url)  # listed once, if a check asks
    history = [*pushed_notes(git, lines, remote), *pushed_bases(git, lines, published)]
    # ... and the approvals it brings, against the remote's published line as it lists it (read 156's F-0551)
    signers = signers_for(git).on_line(lambda: pushed_line(git, published, lines))
    return audit_commits(git, commits, "push guard", signers, history=history)


def _server_git() -> Git:
    import os

    from harness.history.hook_checks import server_git

    return server_git(os.environ.get("GIT_DIR"))


@hook.command("pre-receive")
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON.")
@with_return_code
def pre_receive(as_json: bool) -> int:
    """Server side: the push guard's checks over every pushed ref (stdin `old new ref`), inside
    git's quarantine; one refused commit rejects the whole push."""
    from harness.cli.audit_report import report
    from harness.history.pre_receive import check_push

    git = _server_git()
    lines = _ref_lines_in()
    result = check_push(git, lines)
    report(result, as_json)
    return result.exit_code


@hook.command("stamp")
@click.argument("args", nargs=-1, expose_value=False)  # what git passes a post-rewrite hook: unread
def stamp_hook() -> None:
    """Stamp HEAD with a git note (post-commit, post-merge, post-rewrite). Never fails."""
    from harness.cli.launch import stamp_head

    stamp_head()


@hook.command("run")
@click.argument("stage")
@click.argument("args", nargs=-1)
@click.pass_context
def run_stage(ctx: click.Context, stage: str, args: tuple[str, ...]) -> None:
    """What a native git hook shim calls: run the checks of git hook STAGE.

    \b
    pre-commit, pre-merge-commit   validate (and the merge guard while a merge is concluded)
    post-commit, post-merge,
    post-rewrite                   stamp HEAD
    pre-push                       push guard (ARGS: remote name and url; refs on stdin)
    pre-receive                    the server's checks (refs on stdin)
    """
    from harness.install.hook_stages import STAGES
    from harness.install.hook_stages import stage as stage_named

    found = stage_named(stage)
    if found is None:
        raise HarnessError(f"unknown hook stage {stage!r}", hint=f"one of: {', '.join(s.name for s in STAGES)}")
    for check in found.checks:  # in order: the first to fail exits with its code (with_return_code), ending the stage
        ctx.invoke(STAGE_CHECKS[check], **_check_arguments(check, args))


def _check_arguments(check: str, args: tuple[str, ...]) -> dict[str, object]:
    """What a check is given when a stage runs it: the push guard, git's (remote name, url)."""
    given: dict[str, dict[str, object]] = {"push-guard": {"args": args}, "pre-receive": {"as_json": False}}
    return given.get(check, {})


# `harness hook run STAGE` runs the checks harness/install/hook_stages.py names for STAGE: these commands
STAGE_CHECKS: dict[str, click.Command] = {"validate": validate_cmd, "merge-guard": merge_guard,
                                          "stamp": stamp_hook, "push-guard": push_guard, "pre-receive": pre_receive}


@click.command()
@click.argument("rev", default="HEAD")
@click.option("--json", "as_json", is_flag=True, help="Print the note as JSON.")
def stamp(rev: str, as_json: bool) -> None:
    """Write the harness note on REV (default HEAD) by hand."""
    from harness.cli.stamp_report import report
    from harness.history.stamp_commit import stamp_commit

    report(stamp_commit(_git(), rev), as_json)


@hook.command("audit-range")
@click.argument("filenames", nargs=-1, expose_value=False)  # what the pre-commit framework may pass: unread
@with_return_code
def audit_range() -> int:
    """`harness audit` over the range `pre-commit run --hook-stage manual harness-audit --from-ref A
    --to-ref B` names (the framework passes it as PRE_COMMIT_FROM_REF / PRE_COMMIT_TO_REF)."""
    import os

    from harness.cli.audit import audit_commits
    from harness.history.hook_checks import range_commits

    to_ref = os.environ.get("PRE_COMMIT_TO_REF")
    if not to_ref:
        raise HarnessError("harness-audit needs a range",
                           hint="pre-commit run --hook-stage manual harness-audit --from-ref A --to-ref B")
    from harness.history.audit_scope import signers_for

    git = _git()
    return audit_commits(git, range_commits(git, os.environ.get("PRE_COMMIT_FROM_REF"), to_ref), "audit",
                         signers_for(git))


@hook.command("agent")
@click.argument("host", type=click.Choice(agent_hook_args.HOSTS))  # the registry's hosts, and "auto"
@click.argument("event", type=click.Choice(agent_hook_args.EVENTS))
@click.pass_context
def agent_hook(ctx: click.Context, host: str, event: str) -> None:
    """What a coding agent's hook calls: reads the host's JSON on stdin, answers in its shape.

    \b
    session-start  the current task, its state, stale evidence and the next step, as context
    pre-tool-use   denies the known bypasses (--no-verify, SKIP=harness-…, core.hooksPath,
                   the notes ref, harness approve/uninstall, deleting .harness/, hand edits of
                   ledgers, evidence and approvals), naming the legitimate command
    stop           blocks a task in flight whose required evidence is stale, naming the command;
                   after agent.stop_block_limit consecutive blocks (default 3) lets the agent stop

    HOST auto tells the host from the payload (for the plugin hooks file the hosts share).
    Answers are JSON on exit 0, the way each host takes a decision. `harness agent install`
    writes these commands into a host's settings.
    """
    from harness.cli.agent_hook import answer

    code = answer(host, event)  # the same code answers before click (harness.cli.launch)
    if code:
        ctx.exit(code)
