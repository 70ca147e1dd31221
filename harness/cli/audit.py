"""`harness audit`: the push guard's checks over a range of commits, for CI.

The range is decided here, never guessed by the caller's script: after a push (`--before`),
for a pull request (`--base`), or given outright (`--from`). Each line it prints says which
commits it checked and why those.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import click

from harness.cli.common import with_return_code
from harness.errors import HarnessError
from harness.gitio.git import Git

if TYPE_CHECKING:
    from harness.cli.audit_output import JsonOut
    from harness.history.audit import AuditResult
    from harness.signatures.trust import Signers

FANOUT_HELP = """
    \b
    fanned out over CI jobs (docs/ci.md):
      harness audit --before … --to … --plan --output plan.json          # the range checked; what to re-run where
      harness audit --before … --to … --rerun --only SHA --output v.json  # one job per planned commit
      harness audit --aggregate plan.json v*.json                        # 0 only if every planned commit reproduced
"""


def audit_commits(git: Git, commits: list[str], title: str, signers: Signers, rerun: bool = False, as_json: bool = False,
                  stamp: bool = True, scope: dict[str, Any] | None = None,
                  note_of: Callable[[str], dict[str, Any] | None] | None = None, history: list | None = None,
                  rerun_only: str | None = None, out: JsonOut | None = None) -> int:
    """Check each commit like the push guard (approvals verified against ``signers``, the command's trust
    root, else each parent's allowed_signers); 0 clean, 1 refused, 2 a re-run could not run. ``out``: where
    the --json document goes (chosen before anything ran)."""
    import contextlib
    import sys

    from harness.cli.audit_report import report
    from harness.history.audit import run_audit, sealed

    # Armed before the first re-run is prepared: no module is loaded once a re-run has (F-0563, F-0572). An internal
    # error is answered inside the seal too: handled after it, its crash log and message could load what a re-run wrote.
    with sealed() as seal:
        try:
            # With --json, what the re-runs' commands print (PASS_TO_PASS echoes its tests' output) goes to stderr:
            # stdout carries the document alone, and nothing but the document changes the file under it.
            with contextlib.redirect_stdout(sys.stderr) if as_json else contextlib.nullcontext():
                result = run_audit(git, commits, title, signers, rerun=rerun, stamp=stamp, scope=scope,
                                   note_of=note_of, stream=_streamer(), rerun_only=rerun_only, seal=seal)
            result.history = list(history or [])
            if not as_json or out is None:
                report(result, as_json)
                return result.exit_code
            _document(result, out)
            return result.exit_code
        except HarnessError:
            raise
        except Exception as exc:
            if not rerun:
                raise
            return _could_not_run(exc)


def _could_not_run(exc: Exception) -> int:
    """A re-running audit that failed inside: exit 2 (could not run), its crash log written while still sealed."""
    from harness import crashlog

    log = crashlog.write(exc)
    click.echo(f"harness: audit: could not run: {type(exc).__name__}: {exc}", err=True)
    if log is not None:
        click.echo(f"  crash log: {log}", err=True)
    return 2


def _document(result: AuditResult, out: JsonOut) -> None:
    """The audit's --json document, written once every re-run is over (their processes killed and reaped): a file
    under stdout that another process replaced meanwhile makes the verdict "could not run" (read 104's F-0364)."""
    replaced = out.problem()
    if replaced:
        result.unrunnable += 1
        result.stdout = replaced
        click.echo(f"harness: audit: could not run: {replaced}: what that file holds is not this audit's verdict "
                   "(a re-run's process can reach a file the shell opened for the audit's stdout)", err=True)
        click.echo("  hint: have the audit write its verdict itself: harness audit … --output FILE", err=True)
    unwritten = out.write(result.as_dict())
    if unwritten:
        click.echo(f"harness: audit: {unwritten}", err=True)
    elif replaced and out.watch is not None and out.watch.path:
        click.echo(f"harness: audit: this audit's verdict is written to {out.watch.path} again", err=True)


def _streamer() -> Callable[[str], None]:
    # Streamed to stderr either way, so a long re-run is never silent and --json stays parseable.
    return lambda line: click.echo(f"harness: rerun: {line}", err=True)


@click.command()
@click.option("--before", metavar="SHA", help="Push mode: what the pushed ref held before (CI's `before`; all "
              "zeros or empty for a new ref). The old tip is fetched if missing; the audit starts at the merge "
              "base of old and new, or covers everything reachable from --to when that cannot be established.")
@click.option("--ref", metavar="REF", help="Push mode: the ref that moved (CI's pushed ref, e.g. refs/heads/main). A "
              "protected ref's history is only extended: a non-fast-forward, an orphan history or a tip without "
              ".harness/ is refused without a `history-rewrite` approval. Without --ref every push is held to that.")
@click.option("--base", "base_rev", metavar="REV", help="Pull-request mode: audit BASE..--to.")
@click.option("--from", "from_rev", metavar="REV", help="Exclusive start given outright; omitted = from the root.")
@click.option("--to", "to_rev", metavar="REV", default="HEAD", show_default=True, help="Inclusive end: the new tip.")
@click.option("--remote", default="origin", show_default=True, help="Where to fetch a missing old tip or base from.")
@click.option("--rerun", is_flag=True, help="Re-run, in a temporary worktree at each DONE commit, the evidence "
              "commands, the reviewers' reproducers and the regression tests the verdict rests on.")
@click.option("--plan", "plan_only", is_flag=True, help="Check the range (no re-run) and list each commit that marks "
              "a task DONE with what --rerun would execute there: the work of a fanned-out CI re-run.")
@click.option("--only", "only", metavar="SHA", help="With --rerun: re-run this commit of the range alone (one CI job "
              "of a fan-out). Every commit of the range is still checked; the others are not re-run, and say so.")
@click.option("--aggregate", is_flag=True, help="Judge a fan-out from FILES: one --plan --json and the --json verdict "
              "of each --only job. Exit 0 only if the plan's checks passed and every planned commit reproduced; 1 "
              "if anything was refused; 2 if a planned commit has no verdict or a re-run could not run.")
@click.argument("files", nargs=-1, type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print the range, every commit checked and the results as JSON.")
@click.option("--output", metavar="FILE", help="Write the JSON document (--json is implied) to FILE instead of stdout: "
              "once every re-run is over and its processes are gone, into a new file renamed over FILE. A fan-out "
              "job's verdict: no re-run can replace it (a file the shell opens for stdout, it can).")
@click.option("--allowed-signers", "allowed_signers", metavar="PATH", type=click.Path(exists=True, dir_okay=False),
              help="Verify human approvals against this allowed-signers file only (CI's own trust root, kept "
                   "outside the repository), never against the one the commits carry.")
@with_return_code
def audit(before: str | None, ref: str | None, base_rev: str | None, from_rev: str | None, to_rev: str, remote: str,
          rerun: bool, plan_only: bool, only: str | None, aggregate: bool, files: tuple[str, ...], as_json: bool,
          output: str | None, allowed_signers: str | None) -> int:
    """Run the push-guard checks over a range of commits (for CI).

    Exit 0 clean, 1 refused, 2 invalid or could not run (a shallow clone, a re-run whose
    tool is missing on this machine): never a success over commits it did not check.

    \b
    after a push:      harness audit --before "$BEFORE_SHA" --to "$AFTER_SHA" --ref "$REF" --rerun
    a pull request:    harness audit --base "$BASE_SHA" --to "$HEAD_SHA"
    a range outright:  harness audit --from origin/main --to HEAD
    CI's approvers:    harness audit ... --allowed-signers /ci/allowed_signers
    """  # FANOUT_HELP is appended below
    from harness.cli.audit_output import JsonOut, reads_output

    if reads_output(output, files):
        raise HarnessError(f"--output {output} is also a file --aggregate reads: it would be replaced before it is read",
                           hint="write the aggregate's JSON to another file")
    out = JsonOut(output, watch=rerun and as_json)  # before anything runs: stdout's file as it is now, FILE cleared
    try:
        if aggregate or files:
            return _aggregate(files, aggregate, bool(rerun or plan_only or only), out, as_json or output is not None)
        return _chosen(before, ref, base_rev, from_rev, to_rev, remote, rerun, as_json or output is not None,
                       plan_only, only, allowed_signers, out)
    except BaseException:
        out.abandon()
        raise


def _chosen(before: str | None, ref: str | None, base_rev: str | None, from_rev: str | None, to_rev: str, remote: str,
            rerun: bool, as_json: bool, plan_only: bool, only: str | None, allowed_signers: str | None,
            out: JsonOut) -> int:
    """The audit of the range the options choose."""
    from harness.history.audit_scope import signers_for
    from harness.history.hook_checks import hook_git

    _fanout_usage(rerun, plan_only, only)
    if sum(x is not None for x in (before, base_rev, from_rev)) > 1:
        raise HarnessError("--before, --base and --from are different modes: give one",
                           hint="--before after a push, --base for a pull request, --from for a range you chose")
    if ref is not None and before is None:
        raise HarnessError("--ref names the ref a push moved: it goes with --before",
                           hint="harness audit --before OLD --to NEW --ref refs/heads/NAME")

    git = hook_git(valid_cache=False)  # CI's checkout could carry a cache that vouches for its own ledgers (F-0147)
    # Whose signatures count, built here and handed down: CI's own file, else git config's (harness.signatures.trust).
    signers = signers_for(git, allowed_signers)
    return _audit(git, signers, before, ref, base_rev, from_rev, to_rev, remote, rerun, as_json, plan_only, only, out)


def _audit(git: Git, signers: Signers, before: str | None, ref: str | None, base_rev: str | None, from_rev: str | None,
           to_rev: str, remote: str, rerun: bool, as_json: bool, plan_only: bool = False, only: str | None = None,
           out: JsonOut | None = None) -> int:
    from harness.history.audit_scope import audit_range, commit_in_range, local_notes, on_the_range_base

    scope, commits, history = audit_range(git, before, ref, base_rev, from_rev, to_rev, remote, signers)
    signers = on_the_range_base(git, scope, signers)
    click.echo(f"harness: audit: {scope.reason}; {len(commits)} commit(s) to check", err=True)
    if plan_only:
        return _plan(git, signers, commits, scope.as_dict(), history, as_json, out)
    return audit_commits(git, commits, "audit", signers, rerun=rerun, as_json=as_json, scope=scope.as_dict(),
                         note_of=local_notes(git, scope.tip), history=history,
                         rerun_only=commit_in_range(git, only, commits, scope.reason) if only else None, out=out)


audit.help = (audit.help or "") + FANOUT_HELP


def _fanout_usage(rerun: bool, plan_only: bool, only: str | None) -> None:
    if plan_only and (rerun or only):
        raise HarnessError("--plan lists what to re-run and runs none of it: it goes without --rerun and --only",
                           hint="harness audit … --plan --json, then one `harness audit … --rerun --only SHA` per commit")
    if only and not rerun:
        raise HarnessError("--only names the one commit to re-run: it goes with --rerun",
                           hint="harness audit … --rerun --only SHA")


def _plan(git: Git, signers: Signers, commits: list[str], scope: dict[str, Any], history: list, as_json: bool,
          out: JsonOut | None = None) -> int:
    from harness.cli.common import emit_json
    from harness.cli.hooks import print_problems
    from harness.history.audit_fanout import plan_audit, plan_exit_code

    doc = plan_audit(git, commits, scope, history, signers)
    if as_json:
        out.write(doc) if out is not None else emit_json(doc)
    else:
        for item in doc["planned"]:
            runs = ", ".join(f"{r['kind']} {r['what']}" for r in item["runs"]) or "nothing to run"
            click.echo(f"{item['commit']} {' '.join(item['tasks'])}: {runs}")
    if history:
        print_problems("audit", history)
    for row in doc["results"]:
        if not row["ok"]:
            click.echo(f"harness: audit: {row['commit'][:12]} refused: "
                       + "; ".join(f"{p['file']}: {p['rule']}" for p in row["problems"]), err=True)
    click.echo(f"harness: audit: {len(commits)} commit(s) checked (no re-run), {doc['failed']} refused; "
               f"{len(doc['planned'])} DONE commit(s) to re-run, one job each", err=True)
    return plan_exit_code(doc)


def _aggregate(files: tuple[str, ...], aggregate: bool, audit_options: bool, out: JsonOut, as_json: bool) -> int:
    from pathlib import Path

    from harness.history.audit_fanout import aggregate as judge

    if not aggregate or audit_options:
        raise HarnessError("FILES are the plan and verdicts --aggregate reads: they go with --aggregate alone",
                           hint="harness audit --aggregate plan.json verdicts/*.json")
    result = judge([Path(f) for f in files])
    if as_json:
        out.write(result.as_dict())
    for line in result.refused:
        click.echo(f"harness: audit: refused: {line}", err=True)
    for line in result.missing:
        click.echo(f"harness: audit: no verdict: {line}", err=True)
    for line in result.notes:
        click.echo(f"harness: audit: note: {line}", err=True)
    click.echo(f"harness: audit: {len(result.passed)} planned commit(s) reproduced, {len(result.refused)} refused, "
               f"{len(result.missing)} without a verdict", err=True)
    return result.exit_code
